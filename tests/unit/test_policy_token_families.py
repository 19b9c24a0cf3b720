"""Token families added in session 16 (docs/policy-history.md, "Every gitleaks rule"): each layout is built here
at test time from a seeded generator (no token is copied from a scanner's test data), written
bare and in several assignment forms, and must be refused; the look-alikes next to each
(names, words, placeholders, hashes, ids) must stay accepted."""

from __future__ import annotations

import base64
import random
import string

import pytest

from ragixd.domain.policy import Policy

policy = Policy()
_rng = random.Random(20261116)
LOWER_DIGITS = string.ascii_lowercase + string.digits
ALNUM = string.ascii_letters + string.digits
HEX = "0123456789abcdef"


def draw(alphabet: str, n: int) -> str:
    """n characters drawn from the alphabet; at least one letter and one digit when it has both."""
    while True:
        value = "".join(_rng.choice(alphabet) for _ in range(n))
        has_letter = any(c.isalpha() for c in value) or not any(c.isalpha() for c in alphabet)
        has_digit = any(c.isdigit() for c in value) or not any(c.isdigit() for c in alphabet)
        if has_letter and has_digit:
            return value


def uuid4ish() -> str:
    return "-".join(draw(HEX, n) for n in (8, 4, 4, 4, 12))


# One token per family, shaped as the provider documents it or as a scanner's rule reads it.
TOKENS = {
    "adobe": "p8e-" + draw(ALNUM, 32),
    "adyen": "AQE" + draw(LOWER_DIGITS, 6) + "." + draw(ALNUM + "-_=", 60),
    "authress": "sc_" + draw(LOWER_DIGITS, 12) + "." + draw(LOWER_DIGITS, 4) + ".acc_" + draw(LOWER_DIGITS, 12)
                + "." + draw(ALNUM + "+/", 44),
    "braintree_access": "access_token$production$" + draw(LOWER_DIGITS, 16),
    "braintree_tokenization": "sandbox_" + draw(LOWER_DIGITS, 8) + "_" + draw(LOWER_DIGITS, 16),
    "chieftools": "ctp_" + draw(ALNUM, 36),
    "datafactory": "IR@" + uuid4ish() + "@adf-orders-017@we@" + draw(ALNUM + "+/", 43) + "=",
    "definednetworking": "dnkey-" + draw(ALNUM, 26) + "-" + draw(ALNUM + "_", 52),
    "django": "django-insecure-" + draw(LOWER_DIGITS + "!@#%^&*(-_=+)", 50),
    "grafana": "eyJrIjoi" + draw(ALNUM, 72),
    "intra42": "s-s4t2ud-" + draw(HEX, 64),
    "lob": "test_pub_" + draw(HEX, 31),
    "mapbox": "pk." + draw(LOWER_DIGITS, 60) + "." + draw(LOWER_DIGITS, 22),
    "newrelic_insert": "NRII-" + draw(ALNUM, 12) + "-" + draw(ALNUM, 19),
    "plaid": "access-sandbox-" + uuid4ish(),
    "sendgrid": "SG." + draw(ALNUM + "_-", 66),
    "sendinblue": "xkeysib-" + draw(HEX, 64) + "-" + draw(ALNUM, 16),
    "settlemint": "sm_pat_" + draw(ALNUM, 16),
    "shippo": "shippo_live_" + draw(HEX, 40),
    # session 19: an Azure shared access signature, in a blob URL as the portal writes it
    "azure_sas": "https://acct.blob.core.windows.net/c/f.txt?sp=r&st=2025-01-01T00:00:00Z&se=2025-01-02T00:00:00Z"
                 "&spr=https&sv=2022-11-02&sr=b&sig=" + draw(ALNUM + "+/", 43) + "%3D",
}

FORMATS = [
    "{t}",
    'serviceToken = "{t}"',
    "service_token: '{t}'",
    "SERVICE_TOKEN := `{t}`",
    '{{"config.ini": "SERVICE_TOKEN={t}\\nDEBUG=false"}}',
    'System.setProperty("SERVICE_TOKEN", "{t}")',
    "<serviceToken>\n    {t}\n</serviceToken>",
    "the key for the staging account is {t} until Friday",
]


@pytest.mark.parametrize("family", sorted(TOKENS))
@pytest.mark.parametrize("fmt", FORMATS)
def test_token_family_is_refused(family: str, fmt: str) -> None:
    text = fmt.format(t=TOKENS[family])
    assert policy.check_text(text).rejected, text


@pytest.mark.parametrize("family", ["adobe", "grafana", "intra42", "plaid", "sendinblue", "settlemint",
                                    "shippo", "braintree_access", "datafactory", "definednetworking",
                                    "azure_sas"])
def test_bare_token_is_named_by_its_provider_rule(family: str) -> None:
    verdict = policy.check_text(TOKENS[family])
    assert verdict.rejected
    assert not {"secret.high_entropy_token", "secret.credential_assignment"} >= set(verdict.rule_ids), verdict.rule_ids


LOOK_ALIKES = [
    # names after the same prefixes
    "ctr_ComputeAverageValueForAllInputs = compute(ctr_by_campaign)",
    "sandbox_settings_for_production_environment",
    "production_releases_documentations01",
    "test_pub_" + "deadbeef" * 3 + "cafe",  # 28 hex: not the layout's length
    "from pk.models import Order; pk.objects.filter(id=1)",
    "settings.SM_PAT_ENABLED = True",
    "use live_ and test_ prefixes for your Lob keys",
    "shippo_live_<your-key-here>",
    # placeholders in the layouts
    "p8e-" + "x" * 32,
    "sendinblue: xkeysib-" + "0" * 64 + "-XXXXXXXXXXXXXXXX",
    "django-insecure-change-me-in-production",
    "PLAID_ACCESS_TOKEN=access-sandbox-<uuid>",
    "grafana: eyJrIjoiEXAMPLEEXAMPLEEXAMPLEEXAMPLE",
    "Append ?sv=2022-11-02&sig=<signature> to the blob URL.",
    "https://acct.blob.core.windows.net/c?sv=2022-11-02&sr=b&sig=" + "X" * 43,
    "A SAS token carries the fields sv, sp, se and sig.",
    # hashes, ids and timestamps
    "sha256: " + "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    "commit 4b825dc642cb6eb9a060e54bf8d69288fbee4904",
    "request_id = " + "3f2b8c1e-9d4a-4e7b-8c2f-1a6b5d9e0f3c",
    "order_id: 8172635491028374",
    "created_at_ms = 1700000000123456",
    "max_tokens = 4096",
    "user_id = 123456789012345678",
    "token_count: 1234567890123456",
    "session_timeout_ms = 900000000000000",
]


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_look_alike_is_accepted(text: str) -> None:
    verdict = policy.check_text(text)
    assert not verdict.rejected, (text, verdict.rule_ids)


def random_number(n: int) -> str:
    while True:
        value = str(_rng.randrange(10 ** (n - 1), 10 ** n))
        if len(set(value)) >= 8:
            return value


NUMERIC_IDS = [random_number(16), random_number(18), random_number(19)]


@pytest.mark.parametrize("number", NUMERIC_IDS)
@pytest.mark.parametrize("fmt", ['discordToken = "{n}"', "asana_api_token: {n}", 'System.setProperty("APP_SECRET_KEY", "{n}")',
                                 "var clientSecretToken string = \"{n}\""])
def test_long_random_number_given_to_a_token_name_is_refused(number: str, fmt: str) -> None:
    text = fmt.format(n=number)
    assert policy.check_text(text).rejected, text


@pytest.mark.parametrize("text", [f"client_id = {n}" for n in NUMERIC_IDS] + [f"amount: {n}" for n in NUMERIC_IDS]
                         + ["api_token = 1111111111111111", "token: 1234567890123456", "api_token = 20240101123045000"])
def test_numbers_that_are_ids_or_fillers_are_accepted(text: str) -> None:
    assert not policy.check_text(text).rejected, text


K8S_DATA = base64.b64encode(b"secret-password-42").decode()  # a made-up value, as the API stores it
K8S_BLOCK = base64.b64encode(b'{"auths": {"registry.internal": {"auth": "made-up"}}}').decode()


@pytest.mark.parametrize("text", [
    f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ntype: Opaque\ndata:\n  ca.crt: {K8S_DATA}\n",
    f"apiVersion: v1\ndata:\n  extra: '{K8S_DATA}'\nkind: \"Secret\"\nmetadata:\n  name: svc\n",
    f"kind: Secret\ndata:\n\tconfig.json: |\n\t\t{K8S_BLOCK}\n",
])
def test_kubernetes_secret_with_data_is_refused(text: str) -> None:
    verdict = policy.check_text(text)
    assert verdict.rejected and "secret.kubernetes_secret" in verdict.rule_ids, verdict.rule_ids


@pytest.mark.parametrize("text", [
    "kind: Secret\ntype: Opaque\ndata:\n  csrf: \"\"\n",
    "kind: Secret\ndata:\n  password: {{ .Values.dbPassword }}\n",
    "kind: Secret\ndata:\n  password: <base64-encoded-password>\n",
    "kind: Secret\ndata:\n  extra: YmF6Cg==\n",  # shorter than a key
    f"kind: ExternalSecret\nspec:\n  data:\n    - secretKey: db\n      remoteRef:\n        key: {K8S_DATA}\n",
    f"kind: ConfigMap\ndata:\n  greeting: {K8S_DATA}\n",
    "Create a Secret (kind: Secret) and put its values under data: base64-encoded.",
])
def test_kubernetes_look_alikes_are_accepted(text: str) -> None:
    verdict = policy.check_text(text)
    assert "secret.kubernetes_secret" not in verdict.rule_ids, verdict.rule_ids


@pytest.mark.parametrize("text", ["kind: Secret\ndata:\n", "kind: Secret\ndata:\n  a: |\n", "data:\nkind: secret",
                                  "kind: Secret\ndata:\n  " + "k: " * 400, "\x00kind:\x00Secret\ndata:\n\x00"])
def test_kubernetes_rule_never_crashes_on_odd_input(text: str) -> None:
    policy.check_text(text)


def typed_body(n: int) -> str:
    """A body of n characters as a person types a test key: keyboard runs between random bits."""
    parts, size = [], 0
    while size < n:
        part = _rng.choice(["abcdefghij", "klmnopqrst", "1234567", "qrstuvwxyz"]) + draw(LOWER_DIGITS, 6) + "-"
        parts.append(part)
        size += len(part)
    return "".join(parts)[:n]


ANTHROPIC_TYPED = ["sk-ant-api03-" + typed_body(93) + "AA", "sk-ant-admin01-" + typed_body(93) + "AA",
                   "sk-ant-oat01-" + typed_body(95)]


@pytest.mark.parametrize("key", ANTHROPIC_TYPED + ["sk-ant-ort01-" + draw(ALNUM + "_-", 100)])
@pytest.mark.parametrize("fmt", ["{k}", 'ANTHROPIC_API_KEY="{k}"', "client = Anthropic(api_key='{k}')"])
def test_anthropic_keys_in_full_layout_are_refused_even_hand_typed(key: str, fmt: str) -> None:
    text = fmt.format(k=key)
    assert policy.check_text(text).rejected, text


@pytest.mark.parametrize("key", [
    "sk-ant-api03-" + typed_body(60) + "AA",  # too short for the layout
    "sk-ant-api03-" + typed_body(93) + "BB",  # not the layout's ending
    "sk-ant-oat01-" + typed_body(92),
    "sk-ant-api03-" + ("abcdefghijklmnopqrstuvwxyz0123456789" * 3)[:93] + "AA",  # filler
    "sk-ant-api03-" + "x" * 93 + "AA",
])
def test_anthropic_stand_ins_are_accepted(key: str) -> None:
    verdict = policy.check_text(key)
    assert not verdict.rejected, (key, verdict.rule_ids)


CONFIG_SECRETS = [
    '<packageSourceCredentials>\n  <feed>\n    <add key="Username" value="builder" />\n'
    f'    <add key="ClearTextPassword" value="{draw(ALNUM, 10)}!{draw(ALNUM, 3)}" />\n  </feed>\n</packageSourceCredentials>',
    f'<appSettings><add key="ApiKey" value="{draw(ALNUM, 32)}" /></appSettings>',
    f"<entry name='authToken' value='{draw(ALNUM + '-_', 40)}'/>",
]

CONFIG_LOOK_ALIKES = [
    '<add key="ClearTextPassword" value="%NUGET_PASSWORD%" />',
    '<add key="Password" value="${NUGET_PASSWORD}" />',
    '<add key="Password" value="********" />',
    '<add key="ApiKey" value="YOUR_API_KEY" />',
    '<add key="ClientValidationEnabled" value="true" />',
    '<add key="ApiKeyHeaderName" value="X-Api-Key" />',
    '<add key="TokenLifetimeMinutes" value="60" />',
    '<add key="EncryptionKeySize" value="256" />',
    "<entry name='secretName' value='prod-db-credentials'/>",
    '<add key="SessionStateMode" value="InProc" />',
]


@pytest.mark.parametrize("text", CONFIG_SECRETS)
def test_credential_in_key_value_attributes_is_refused(text: str) -> None:
    verdict = policy.check_text(text)
    assert verdict.rejected, text


@pytest.mark.parametrize("text", CONFIG_LOOK_ALIKES)
def test_config_settings_that_are_not_credentials_are_accepted(text: str) -> None:
    verdict = policy.check_text(text)
    assert not verdict.rejected, (text, verdict.rule_ids)
