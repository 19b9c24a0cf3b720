"""A password or secret name given one concrete word by `:` or `=` is a password, however
guessable (`password: sunshine`); what documentation and code put there is not (placeholders,
references, types, parameters, prose).

Values are assembled from parts at run time, so no credential-shaped line sits in the repo.
"""

from __future__ import annotations

import pytest
from support.policy_fakes import exhaustive, policy, refused

W = "sun" + "shine"


@pytest.mark.parametrize("text", [
    f"password: {W}",
    "wifi password: bluebirds" + "inging",
    "export PGPASSWORD=pg" + "admin",
    "PGPASSWORD=pg" + "admin psql -h db -U app",
    "password = correcthorse" + "batterystaple",
    "password: hunter2" + "hunter2",
    "DB_PASSWORD=hunter2" + "hunter2",
    "secret: mysecret" + "value",
    f'password = "{W}"',
    f'{{"password": "{W}"}}',
    f"db:\n  user: app\n  password: {W}\n",
    f"The Wi-Fi password: {W}. Ask me for the guest one.",
    f"MYSQLPASSWORD={W}",
    f"client_secret: {W}",
])
def test_a_concrete_word_assigned_to_a_password_is_refused(text):
    assert refused(text)


@pytest.mark.parametrize("text", [
    "password: <your password>",
    "password: ********",
    "password: $PGPASSWORD",
    "password: ${VAR}",
    'password = os.environ["DB_PASSWORD"]',
    "password: required",
    "password: none",
    "password: null",
    "password: changeme",
    "password: see vault",
    "password: optional",
    "password: string",
    "password: str",
    "password: SecretStr",
    "password: Optional[str] = None",
    "def connect(host: str, password: str) -> None:",
    "conn = connect(user=user, password=password)",
    "password: the one from the vault",
    'password = "the one from the vault"',
    "The password: is required.",
    '"password": "Passwort"',
    "password = get_password()",
    "password = self.password",
    "PWD=/home/me/project",
    "token: sunshine",
    "secret_key_name: signing",
    "password: xxxxxxxx",
    "password: your-password",
])
def test_placeholders_references_and_prose_are_accepted(text):
    assert policy.check_text(text).accepted and exhaustive.check_text(text).accepted
