"""Secret rules: every credential family is refused, documentation placeholders are not.

Sample credentials are assembled at run time from a seeded generator, so that no
real-looking secret is written in the repository.
"""

from __future__ import annotations

import base64
import json
import random
import string

import pytest

from ragixd.domain.policy import Policy

ALNUM = string.ascii_letters + string.digits
LOWER_DIGITS = string.ascii_lowercase + string.digits
HEX = "0123456789abcdef"
B64 = ALNUM + "+/"
_rng = random.Random(8675309)


def rand(n: int, alphabet: str = ALNUM) -> str:
    return "".join(_rng.choice(alphabet) for _ in range(n))


def b64url(data: dict) -> str:
    return base64.urlsafe_b64encode(json.dumps(data).encode()).decode().rstrip("=")


def pem(label: str, lines: int = 6) -> str:
    body = "\n".join(rand(64, B64) for _ in range(lines))
    return f"-----BEGIN {label}-----\n{body}\n-----END {label}-----"


AWS_ID = "AKIA" + rand(16, string.ascii_uppercase + "234567")
SECRETS = {
    "aws_access_key_id": f'aws_access_key_id = "{AWS_ID}"',
    "aws_session_key_id": "ASIA" + rand(16, string.ascii_uppercase + "234567"),
    "aws_secret_key": f"aws_secret_access_key={rand(40, B64)}",
    "gcp_api_key": "maps key AIza" + rand(35, ALNUM + "_-"),
    "gcp_service_account": json.dumps({"type": "service_account", "project_id": "demo",
                                       "private_key": pem("PRIVATE KEY").replace("\n", "\\n")}),
    "azure_storage": f"DefaultEndpointsProtocol=https;AccountName=demo;AccountKey={rand(86, B64)}==;",
    "azure_ad_secret": "client_secret: " + rand(3) + "8Q~" + rand(34, ALNUM + "_-"),
    "github_pat": "ghp_" + rand(36),
    "github_oauth": "token gho_" + rand(36),
    "github_fine_grained": "github_pat_" + rand(22) + "_" + rand(59),
    "gitlab_pat": "glpat-" + rand(20, ALNUM + "_-"),
    "slack_bot": "xoxb-" + rand(12, string.digits) + "-" + rand(13, string.digits) + "-" + rand(24),
    "slack_webhook": "https://hooks.slack.com/services/T" + rand(8, string.ascii_uppercase)
                     + "/B" + rand(8, string.ascii_uppercase) + "/" + rand(24),
    "stripe_secret": "sk_" + "live_" + rand(24),
    "stripe_restricted": "rk_" + "live_" + rand(24),
    "openai_project": "sk-proj-" + rand(40, ALNUM + "_-") + "T3BlbkFJ" + rand(40, ALNUM + "_-"),
    "openai_legacy": "OPENAI_API_KEY=sk-" + rand(48),
    "anthropic": "sk-ant-api03-" + rand(93, ALNUM + "_-") + "AA",
    "huggingface": "hf_" + rand(34),
    "twilio": "twilio api key SK" + rand(32, HEX),
    "sendgrid": "SG." + rand(22, ALNUM + "_-") + "." + rand(43, ALNUM + "_-"),
    "npm": "//registry.npmjs.org/:_authToken=npm_" + rand(36),
    "pypi": "password = pypi-AgEIcHlwaS5vcmc" + rand(70, ALNUM + "_-"),
    "discord_bot": "MT" + rand(24) + "." + rand(6) + "." + rand(27, ALNUM + "_-"),
    "telegram_bot": "bot" + rand(10, string.digits) + ":AA" + rand(33, ALNUM + "_-"),
    "private_key_rsa": pem("RSA PRIVATE KEY"),
    "private_key_pkcs8": pem("PRIVATE KEY"),
    "private_key_ec": pem("EC PRIVATE KEY", 3),
    "private_key_openssh": pem("OPENSSH PRIVATE KEY"),
    "private_key_encrypted": pem("ENCRYPTED PRIVATE KEY"),
    "private_key_pgp": "-----BEGIN PGP PRIVATE KEY BLOCK-----\nVersion: GnuPG v2\n\n"
                       + "\n".join(rand(64, B64) for _ in range(5)) + "\n-----END PGP PRIVATE KEY BLOCK-----",
    "jwt": "Authorization: Bearer " + b64url({"alg": "HS256", "typ": "JWT"}) + "."
           + b64url({"sub": "1234", "name": "demo"}) + "." + rand(43, ALNUM + "_-"),
    "postgres_url": f"DATABASE_URL=postgres://app:{rand(12)}@db.internal:5432/app",
    "mongodb_srv": f"mongodb+srv://reader:{rand(14)}@cluster0.abcde.mongodb.net/test",
    "redis_url": f"redis://default:{rand(20)}@cache.internal:6379/0",
    "amqp_url": f"amqps://worker:{rand(10)}@mq.internal:5671/vhost",
    "mysql_url": f"mysql://root:{rand(16)}@127.0.0.1:3306/shop",
    "password_yaml": "password: hunter2",
    "passwd_env": "DB_PASSWD=Tr0ub4dor&3",
    "pwd_code": 'pwd = "' + rand(14) + '"',
    "secret_assign": "secret=" + rand(32, LOWER_DIGITS),
    "token_assign": "token: " + rand(40, LOWER_DIGITS),
    "api_key_assign": 'api_key = "' + rand(32, HEX) + '"',
    "french_password": "le mot de passe = Soleil2024!",
    "french_mdp": "mdp: Azerty123",
    "generic_provider_token": 'var widgetToken string = "' + rand(32, LOWER_DIGITS) + '"',
    "xml_secret": "<secret>" + rand(44, B64) + "</secret>",
    "curl_user": 'curl --user "deploy:' + rand(8) + '#' + rand(6) + '" https://api.example.org',
    "bare_random_token": "use this one: " + rand(8, string.ascii_uppercase) + rand(2, string.digits)
                         + rand(30),
}

PLACEHOLDERS = [
    'API_KEY="<YOUR_API_KEY>"',
    'api_key = os.environ["OPENAI_API_KEY"]',
    "export GITHUB_TOKEN=${GITHUB_TOKEN}",
    "aws_access_key_id = AKIAIOSFODNN7EXAMPLE",
    "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "token = 'your-token-here'",
    'client = OpenAI(api_key="sk-...")',
    "password: changeme",
    "postgres://user:password@localhost:5432/db",
    "REDIS_PASSWORD=",
    'stripe.api_key = "sk_test_..."',
    "Authorization: Bearer $API_TOKEN",
    "DB_PASSWORD=${DB_PASSWORD:?missing}",
    'SECRET_KEY = get_secret("django")',
    "-----BEGIN PUBLIC KEY-----\n" + "\n".join(rand(64, B64) for _ in range(4)) + "\n-----END PUBLIC KEY-----",
]

BENIGN = [
    "The password must be at least 12 characters and is stored as an Argon2 hash.",
    "Rotate API keys every 90 days and never commit secrets to the repository.",
    "JWTs carry claims; validate the signature and the exp claim on every request.",
    "commit 3f2a9c1d7e5b4a6c8d0e1f2a3b4c5d6e7f8a9b0c fixed the token refresh bug",
    "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    "request id 123e4567-e89b-12d3-a456-426614174000 failed with 502",
    "max_tokens=1024, temperature=0.2, key_name='prod-cmk'",
    "self.session = requests.Session(); token_type = 'bearer'",
]

policy = Policy()


@pytest.mark.parametrize("family", sorted(SECRETS))
def test_secret_family_is_rejected(family):
    verdict = policy.check_text(SECRETS[family])
    assert verdict.rejected, family
    assert any(h.kind == "secret" for h in verdict.hits)
    assert "secret pattern" in verdict.reasons[0]


@pytest.mark.parametrize("family", sorted(SECRETS))
def test_secret_survives_surrounding_prose(family):
    text = f"Notes from the deploy call.\n{SECRETS[family]}\nPlease keep this between us."
    assert policy.check_text(text).rejected


@pytest.mark.parametrize("family", sorted(SECRETS))
def test_verdict_never_contains_the_secret(family):
    secret = SECRETS[family]
    verdict = policy.check_text(secret)
    dumped = json.dumps(verdict.to_dict()) + repr(verdict.hits)
    longest = max(secret.split(), key=len)
    assert longest not in dumped


@pytest.mark.parametrize("text", PLACEHOLDERS)
def test_placeholders_are_not_secrets(text):
    verdict = policy.check_text(text)
    assert verdict.accepted, verdict.rule_ids


@pytest.mark.parametrize("text", BENIGN)
def test_text_about_secrets_is_accepted(text):
    verdict = policy.check_text(text)
    assert verdict.accepted, verdict.rule_ids


def test_aws_secret_needs_context():
    token = rand(40, B64)
    assert policy.check_text(f"aws_secret_access_key = {token}").rejected
    assert not policy.check_text(f"see https://example.org/{token}/view").rejected


def test_password_equal_to_user_in_url_is_a_placeholder():
    assert policy.check_text("postgres://postgres:postgres@localhost/postgres").accepted
    assert policy.check_text("postgres://postgres:Xk29!pq@localhost/postgres").rejected
