"""Secret rules: private keys, JWTs, credentialed URLs, assignments and high-entropy tokens.

Owns the structural secret detectors and the assembly of the full secret rule list (these
plus the provider table). Every detector filters placeholders, so documentation such as
`AKIA…EXAMPLE`, `postgres://user:password@host` or `api_key="<your key>"` passes.
"""

from __future__ import annotations

import base64
import binascii
import re

from .assignments import (
    PASSWORD_KEYWORDS,
    TOKEN_KEYWORDS,
    credential_kind,
    has_password_assignment,
    has_token_assignment,
    judge,
)
from .decode import readable_base64
from .lazy import lazy_compile
from .providers import finder, provider_rules
from .rules import SECRET, Rule
from .secret_context import context_rules
from .secret_files import file_rules
from .secret_layouts import layout_rules
from .values import (
    char_classes,
    class_transitions,
    is_hex,
    is_placeholder,
    is_wordlike,
    looks_like_password,
    looks_random,
    shannon,
    vowel_share,
)

_PEM_PRIVATE = lazy_compile(
    r"-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----"
    r"(?:\s|\\[rn])*(?:[A-Za-z\-]+:[^\n\\]*(?:\n|\\n)(?:\s|\\[rn])*)*"
    r"(?P<body>(?:[A-Za-z0-9+/=]|\s|\\[rn]){40,})"
)
_PUTTY = lazy_compile(r"PuTTY-User-Key-File-\d:.{0,400}?Private-Lines:\s*\d+\s+(?P<body>[A-Za-z0-9+/=]{40,})", re.S)
# DER-encoded private keys in base64 without PEM armour (PKCS#1 RSA, PKCS#8, SEC1 EC).
_DER_PRIVATE = lazy_compile(r"MII[A-Za-z0-9+/]{1,3}(?:IBAAK|IBAAJ|IBADANBgkqhkiG9w0BAQEFAAS)(?P<body>[A-Za-z0-9+/]{40,})"
                          r"|MHcCAQEE(?P<ec>[A-Za-z0-9+/]{40,})")
# The payload need not be JSON ("eyJ…"): a signed blob after a JWT header is a token too.
_JWT = lazy_compile(r"(?<![A-Za-z0-9_\-])(eyJ[A-Za-z0-9_\-]{8,})\.(eyJ[A-Za-z0-9_\-]{8,}|[A-Za-z0-9_\-]{40,})"
                  r"(?:\.[A-Za-z0-9_\-]*)?")
# Schemes of network services whose URLs carry logins (databases, queues, mail, web, VCS).
_URL_CREDENTIALS = lazy_compile(
    r"(?i)\b(?:https?|s?ftps?|ssh|sftp|git\+[a-z]+|svn\+ssh|postgres(?:ql)?(?:\+\w+)?|mysql(?:\+\w+)?"
    r"|mariadb|mssql(?:\+\w+)?|sqlserver|oracle(?:\+\w+)?|mongodb(?:\+srv)?|rediss?|amqps?|mqtts?"
    r"|ldaps?|smtps?|imaps?|pop3s?|neo4j(?:\+s)?|bolt(?:\+s)?|nats|kafka|cassandra|couchdb|clickhouse"
    r"|snowflake|jdbc:[a-z0-9]+|odbc|wss?|telnet|vnc|rtsp|socks[45]h?|proxy|memcached|elasticsearch"
    r"|influxdb|couchbase|rabbitmq|sqlalchemy|db2|cockroachdb|timescaledb|s3)://(?P<user>[^\s:/?#@\"'<>]{0,128}):(?P<body>[^\s/?#@\"'<>]{1,256})@[^\s@]"
)
_CURL_USER = lazy_compile(r"(?:^|\s)(?:-u|--user)\s+[\"']?(?P<user>[^\s:\"']{1,64}):(?P<body>[^\s\"']{3,128})")
_AWS_SECRET = lazy_compile(r"(?<![A-Za-z0-9/+])(?P<body>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])")
_TOKEN = lazy_compile(r"(?<![A-Za-z0-9+/_\-.~])[A-Za-z0-9][A-Za-z0-9+/_\-.~]{19,250}={0,2}(?![A-Za-z0-9+/=_\-.~])")
_NON_SECRET_BLOCK = lazy_compile(
    r"-----BEGIN (?:[A-Z0-9 ]*PUBLIC KEY(?: BLOCK)?|CERTIFICATE(?: REQUEST)?|PGP SIGNATURE|PGP MESSAGE)-----"
    r".*?(?:-----END[ A-Z0-9]*-----|\Z)", re.S)
_DIGEST_PREFIX = lazy_compile(r"(?i)(?:sha1|sha256|sha384|sha512|md5|blake2b?|integrity|base64|ssh-[a-z0-9]+"
                            r"|ecdsa-[a-z0-9\-]+|nonce|hash|digest|checksum|etag|commit|rev)[\s:=,\-\"'`]*$")
# A URL query parameter that carries a credential (`?key=…`, `&access_token=…`), right before
# the token: its value is a secret even inside a URL.
_CREDENTIAL_PARAM = lazy_compile(r"(?i)[?&;](?:api[_-]?key|key|token|access[_-]?token|auth[_-]?token|auth"
                               r"|secret|client[_-]?secret|password|passwd|pwd)=$")
# Publishable keys are meant to be public (Stripe `pk_live_…`, Mapbox `pk.…`).
_PUBLIC_PREFIXES = ("pk_live_", "pk_test_", "pk.", "pub_", "pub-")
_UUID = lazy_compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")


def _accept_body(match: re.Match[str]) -> bool:
    body = match.group("body") or match.groupdict().get("ec") or ""
    body = re.sub(r"\s|\\[rn]", "", body)
    return not is_placeholder(body) and shannon(body) >= 3.5


def _b64json(segment: str) -> str:
    try:
        raw = base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4))
        return raw.decode("utf-8", "replace")
    except (binascii.Error, ValueError):
        return ""


def _accept_jwt(match: re.Match[str]) -> bool:
    header = _b64json(match.group(1))
    return header.startswith("{") and ('"alg"' in header or '"typ"' in header or '"kid"' in header)


def _accept_url_credentials(match: re.Match[str]) -> bool:
    user, password = match.group("user"), match.group("body")
    if password.isdigit() and len(password) <= 5:
        return False  # `host:8080@…` is a port, not a password
    if password == user or is_placeholder(password) or password.lower() in ("pass", "pw", "pwd"):
        return False
    return not password.startswith(("$", "%", "{", "<"))


# A match's scheme is made of these characters and ends right before its "://"; after it come
# at most 128 + 1 + 256 characters of user and password, then "@" and one host character.
_SCHEME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_+:")
_URL_REACH = len("://") + 128 + 1 + 256 + 2


# Any other scheme, or none (`//user:pass@host`, `doc://…`): the login counts only when its
# password reads as a typed password or a generated secret, not as a word or a template.
_ANY_URL_CREDENTIALS = lazy_compile(
    r"(?i)(?:\b[a-z][a-z0-9+.\-]{0,30}:|(?<![:/\w]))//(?P<user>[^\s:/?#@\"'<>]{1,128}):"
    r"(?P<body>[^\s/?#@\"'<>]{1,256})@[^\s@]")


def has_any_url_credentials(text: str) -> bool:
    """A login in a URL of any scheme (or none) with a password that looks like one."""
    for match in _ANY_URL_CREDENTIALS.finditer(text):
        body = match.group("body")
        if _accept_url_credentials(match) and (looks_like_password(body) or looks_random(body, relaxed=True)):
            return True
    return False


def has_url_credentials(text: str) -> bool:
    """Same answer as `any(accept(m) for m in _URL_CREDENTIALS.finditer(text))`, but the regex
    (a long case-insensitive alternation, slow to slide over a whole text) is only tried where
    a match can start: in the run of scheme characters right before each "://", at its start
    or after a "+" or ":" (schemes start with a letter, after a word boundary)."""
    resume = 0  # where finditer would resume: the end of the previous match
    at = text.find("://")
    while at != -1:
        start = at
        while start > resume and text[start - 1] in _SCHEME_CHARS:
            start -= 1
        starts = [start] + [i + 1 for i in range(start, at) if text[i] in "+:"]
        for begin in starts:
            match = _URL_CREDENTIALS.match(text, begin, at + _URL_REACH)
            if match is not None:
                if _accept_url_credentials(match):
                    return True
                resume = match.end()
                break
        at = text.find("://", at + 3)
    return False


def _accept_curl_user(match: re.Match[str]) -> bool:
    password = match.group("body")
    return looks_like_password(password) or looks_random(password)


# A password given to a command on its command line: `sshpass -p`, mysql's `-pPASSWORD`,
# `docker login -p`, `redis-cli -a`, SQL's `IDENTIFIED BY '…'`, and a .pgpass line
# (host:port:database:user:password). The command or keyword anchors each form, so that a
# flag of another tool (`grep -p`, `ls -a`) is never read as one.
_COMMAND_PASSWORD = lazy_compile(
    r"(?im)(?:\bsshpass\s+-p\s*[\"']?(?P<a>[^\s\"']{3,128})"
    r"|\b(?:mysql|mysqldump|mysqladmin|mariadb)\b[^\n|;&]{0,160}?\s-p(?P<b>[^\s\"'\-][^\s\"']{2,127})"
    r"|\bdocker\s+login\b[^\n|;&]{0,160}?\s(?:-p|--password)(?:\s+|=)[\"']?(?P<c>[^\s\"'\-][^\s\"']{2,127})"
    r"|\bredis-cli\b[^\n|;&]{0,160}?\s(?:-a|--pass)\s+[\"']?(?P<d>[^\s\"'\-][^\s\"']{2,127})"
    r"|\bidentified\s+(?:with\s+\w+\s+)?by\s+(?:password\s+)?'(?P<e>[^'\n]{3,128})'"
    r"|^[ \t]*[\w.\-*]+:(?:\d{2,5}|\*):[\w.\-*]+:[\w.\-*]+:(?P<f>\S{3,128})[ \t]*$)")


def _accept_command_password(match: re.Match[str]) -> bool:
    password = next(v for v in match.groups() if v is not None)
    if password.startswith(("$", "%", "<", "{")) or is_placeholder(password):
        return False  # $PGPASSWORD, %PASS%, <password>, {{ secret }}: a reference, not the value
    return looks_like_password(password) or looks_random(password)


def _accept_aws_secret(match: re.Match[str]) -> bool:
    before = match.string[max(0, match.start() - 160):match.start()].lower()
    return ("aws" in before or "secret" in before) and looks_random(match.group("body"), 40)


_SSH_PUBLIC_KEY = lazy_compile(
    r"(?:ssh-(?:rsa|dss|ed25519)|ecdsa-sha2-\S+|sk-ssh-\S+|sk-ecdsa-\S+)\s+AAAA[A-Za-z0-9+/]+=*")


def strip_public_blocks(text: str) -> str:
    """The text without public keys, certificates and signatures (random, but not secret)."""
    if "-----BEGIN" in text:
        text = _NON_SECRET_BLOCK.sub(" ", text)
    if "AAAA" in text and ("ssh-" in text or "ecdsa-" in text):
        text = _SSH_PUBLIC_KEY.sub(" ", text)
    return text


def _word_around(text: str, start: int, end: int) -> str:
    while start > 0 and not text[start - 1].isspace():
        start -= 1
    while end < len(text) and not text[end].isspace():
        end += 1
    return text[start:end]


# The ids ragix itself generates (domain.ids): a note that says "see MEM-f0671b092d5e8b32" is
# not holding a key (3 % of such notes were refused before session 27).
_RAGIX_ID = lazy_compile(r"(?:MEM|EVT)-[0-9a-f]{16}")


def _is_high_entropy_token(token: str) -> bool:
    if token.isalpha() and (token.islower() or token.isupper()):
        return False  # one-case words: never a generated token
    if "." in token.strip("."):
        # Dotted: hostnames and versions unless one dot-separated piece is itself random.
        return any(len(p) >= 20 and _is_high_entropy_token(p) for p in token.split("."))
    core = token.rstrip("=.")
    if len(core) < 20 or core.startswith(_PUBLIC_PREFIXES) or is_hex(core.replace("-", "")):
        return False
    if _RAGIX_ID.fullmatch(core):
        return False  # an id ragix generated (MEM-/EVT- and 16 hex digits): text quoting an item
    lower, upper, digit, _ = char_classes(core)
    if not (lower and upper and digit) and (len(core) < 28 or (lower + upper + digit) != 2):
        return False
    if vowel_share(core) >= (0.45 if lower and upper and digit else 0.3) or _UUID.match(core):
        return False
    entropy, moves = shannon(core), class_transitions(core)
    if lower and upper and digit:
        random_enough = entropy >= 3.9 and moves >= 0.35
    else:
        random_enough = entropy >= 4.1 and moves >= 0.4
    if not random_enough or is_placeholder(core) or is_wordlike(core):
        return False
    return readable_base64(core + "=" * (-len(core) % 4)) is None  # encoded text, not a key


def has_high_entropy_token(text: str) -> bool:
    """A stand-alone random-looking token outside URLs, public key blocks and digests."""
    for m in _TOKEN.finditer(text):
        if not _is_high_entropy_token(m.group()):
            continue
        word = _word_around(text, m.start(), m.end())
        in_url = "://" in word or word.lower().startswith("www.") or "@" in word
        if in_url and not _CREDENTIAL_PARAM.search(text, max(0, m.start() - 24), m.start()):
            continue  # a URL's path or id, unless it is the value of a credential parameter
        if _DIGEST_PREFIX.search(text, max(0, m.start() - 24), m.start()):
            continue
        return True
    return False


# A Kubernetes Secret manifest: `kind: Secret` (not ExternalSecret, SopsSecret …) and a `data:`
# map whose values are base64, as the API stores them; `stringData`, templates and empty
# strings are left alone.
_K8S_SECRET_KIND = lazy_compile(r"(?im)^[ \t-]*kind:[ \t]*([\"']?)secret\1[ \t]*(?:#.*)?$")
_K8S_DATA = lazy_compile(r"(?m)^([ \t]*)data:[ \t]*$")
_K8S_ENTRY = lazy_compile(r"[\w.\-]+:[ \t]*(?P<block>[|>][\-+]?)?[ \t]*(?P<value>\S*)[ \t]*$")
_BASE64_VALUE = lazy_compile(r"([\"']?)(?P<body>[A-Za-z0-9+/]{10,}={0,3})\1")


def _k8s_secret_value(value: str) -> bool:
    m = _BASE64_VALUE.fullmatch(value)
    if not m or is_placeholder(m.group("body")):
        return False
    body = m.group("body")
    try:
        base64.b64decode(body + "=" * (-len(body) % 4), validate=True)
    except (binascii.Error, ValueError):
        return False
    return True


def has_kubernetes_secret(text: str) -> bool:
    """A Kubernetes Secret whose `data:` map holds at least one base64 value."""
    if not _K8S_SECRET_KIND.search(text):
        return False
    for n, data in enumerate(_K8S_DATA.finditer(text)):
        if n >= 64:
            break  # bounded work on a text made of `data:` lines
        depth = len(data.group(1))
        lines = text[data.end():data.end() + 8000].split("\n")[1:80]
        block = False  # the previous entry opened a `|` or `>` block: its value is this line
        for line in lines:
            stripped = line.strip()
            if not stripped or stripped.startswith("#"):
                continue
            if len(line) - len(line.lstrip()) <= depth:
                break  # the map ended
            if block:
                if _k8s_secret_value(stripped):
                    return True
                block = False
                continue
            entry = _K8S_ENTRY.fullmatch(stripped)
            if not entry:
                continue
            if entry.group("block") and not entry.group("value"):
                block = True
            elif _k8s_secret_value(entry.group("value")):
                return True
    return False


# A setting given as two attributes, as .NET and NuGet config files write it:
# `<add key="ClearTextPassword" value="…" />`, `<entry name="apiToken" value="…"/>`.
_KEY_VALUE_ATTRIBUTES = lazy_compile(
    r"""<[A-Za-z][\w:.\-]{0,40}\s+(?:key|name)\s*=\s*(["'])(?P<name>[^"'<>\n]{1,80})\1"""
    r"""\s+value\s*=\s*(["'])(?P<body>[^"'<>\n]{1,400})\3""")


_WINDOWS_ENV_REFERENCE = lazy_compile(r"%[A-Za-z_][\w.\-]*%")


def _accept_key_value(match: re.Match[str]) -> bool:
    """The attribute names a credential and its value is a literal one (`%NUGET_PASSWORD%`, the
    environment's, is a reference)."""
    value = match.group("body")
    if _WINDOWS_ENV_REFERENCE.fullmatch(value.strip()):
        return False
    kind = credential_kind(match.group("name"))
    return kind is not None and judge(kind, value, quoted=True, literal_context=True)


def structural_rules() -> list[Rule]:
    return [
        Rule(id="secret.private_key", kind=SECRET, family="private_key",
             description="contains a private key block (PEM / OpenSSH / PGP)",
             pattern=_PEM_PRIVATE, accept=_accept_body, needles=("private key",), view="text"),
        Rule(id="secret.putty_private_key", kind=SECRET, family="private_key",
             description="contains a PuTTY private key", pattern=_PUTTY, accept=_accept_body,
             needles=("putty-user-key-file",), view="text"),
        Rule(id="secret.der_private_key", kind=SECRET, family="private_key",
             description="contains a base64 DER private key", pattern=_DER_PRIVATE,
             accept=_accept_body, needles=("mii", "mhccaqee")),
        Rule(id="secret.jwt", kind=SECRET, family="jwt", description="contains a JSON Web Token",
             pattern=_JWT, accept=_accept_jwt, needles=("eyj",), finder=finder(_JWT.pattern)),
        Rule(id="secret.url_credentials", kind=SECRET, family="db_or_url_credentials",
             description="contains a URL or connection string with an embedded password",
             check=has_url_credentials, needles=("://",)),
        Rule(id="secret.url_credentials_any_scheme", kind=SECRET, family="db_or_url_credentials",
             description="contains a URL of another scheme (or none) with an embedded password",
             check=has_any_url_credentials, needles=("//",)),
        Rule(id="secret.curl_basic_auth", kind=SECRET, family="db_or_url_credentials",
             description="contains a user:password pair passed on a command line",
             pattern=_CURL_USER, accept=_accept_curl_user, needles=("-u ", "--user"), view="text"),
        Rule(id="secret.command_line_password", kind=SECRET, family="generic_password_or_key",
             description="gives a password to a command on its command line (sshpass, mysql, docker "
                         "login, redis-cli), in SQL's IDENTIFIED BY, or on a .pgpass line",
             pattern=_COMMAND_PASSWORD, accept=_accept_command_password,
             needles=("sshpass", "mysql", "mariadb", "docker", "redis-cli", "identified", ":"), view="text"),
        Rule(id="secret.aws_secret_access_key", kind=SECRET, family="aws",
             description="contains an AWS secret access key", pattern=_AWS_SECRET,
             accept=_accept_aws_secret, needles=("aws", "secret"), view="text"),
        Rule(id="secret.password_assignment", kind=SECRET, family="generic_password_or_key",
             description="assigns a literal password", check=has_password_assignment,
             needles=PASSWORD_KEYWORDS, view="text"),
        Rule(id="secret.credential_assignment", kind=SECRET, family="generic_password_or_key",
             description="assigns a literal API key, token or secret", check=has_token_assignment,
             needles=TOKEN_KEYWORDS, view="text"),
        Rule(id="secret.config_key_value", kind=SECRET, family="generic_password_or_key",
             description="gives a credential setting a literal value in key/value attributes",
             pattern=_KEY_VALUE_ATTRIBUTES, accept=_accept_key_value, needles=("value=", "value ="), view="text"),
        Rule(id="secret.kubernetes_secret", kind=SECRET, family="kubernetes",
             description="contains a Kubernetes Secret with base64 data", check=has_kubernetes_secret,
             needles=("kind:",), view="text"),
        Rule(id="secret.high_entropy_token", kind=SECRET, family="generic_high_entropy",
             description="contains a high-entropy token that looks like a credential",
             check=has_high_entropy_token),
    ]


def secret_rules() -> list[Rule]:
    """Every built-in secret rule: provider formats first, then structural detectors, then the
    layouts no prefix announces (secret_layouts.py)."""
    return provider_rules() + structural_rules() + layout_rules() + file_rules() + context_rules()
