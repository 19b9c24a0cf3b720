"""Secret layouts that no provider prefix or credential name announces (session 26 audit).

Owns four detectors, each a shape with the context that makes it a credential:
- an AWS access key id written in lower (or mixed) case, `akia…`/`asia…` and 16 characters,
  near a word of AWS or credentials (the upper-case id is providers.py's row);
- a `user:password` pair in a login context (`login with root:Tr0ub4dor&3`, `creds
  admin:S3cr3t!x9`, `ssh root:hunter2@10.0.0.5`), the password judged by values.py;
- the password field of a Wi-Fi QR string (`WIFI:T:WPA;S:HomeNet;P:…;;`);
- a crypto wallet's seed phrase: 12 to 24 BIP-39-shaped words after "seed phrase",
  "mnemonic", "recovery phrase", … (seed_words.py holds the words that break such a run).
Placeholders stay accepted: `AKIA…EXAMPLE` in any case, `root:<password>`, `P:<password>`.
"""

from __future__ import annotations

import re

from .lazy import lazy_compile
from .rules import SECRET, Rule
from .seed_words import NOT_BIP39_WORDS
from .values import (
    is_placeholder,
    is_plain_password,
    is_wordlike,
    looks_like_password,
    looks_random,
    shannon,
)

# -- an AWS access key id in lower or mixed case ---------------------------------------------

_AWS_ID_ANY_CASE = lazy_compile(r"(?i)(?<![a-z0-9])(?:akia|asia)(?P<body>[a-z0-9]{16})(?![a-z0-9])")
# A word of AWS or of credentials near the id (before it, or just after: "… is the key id").
_AWS_CONTEXT = lazy_compile(r"(?i)aws|amazon|\biam\b|boto|access[\s_.\-]*key|key[\s_.\-]*id|credential|\bcreds?\b"
                          r"|secret|\bs3\b|\bkey\b")


def _accept_aws_id_any_case(match: re.Match[str]) -> bool:
    token, body = match.group(), match.group("body")
    if token == token.upper():
        return False  # upper case: providers.py's row reads it
    body = body.lower()
    if is_placeholder(body) or shannon(body) < 3.0 or not any(c.isdigit() for c in body) and is_wordlike(body):
        return False
    text = match.string
    return _AWS_CONTEXT.search(text, max(0, match.start() - 160), min(len(text), match.end() + 60)) is not None


# -- user:password in a login context ---------------------------------------------------------

# A pair: a user name, a colon, a password without spaces (no colon either: `a:b:c` is a time,
# an ARN or a .pgpass line), ending at a space, a separator, the end, or `@host`.
_PAIR = lazy_compile(r"(?<![\w:/\\.@\-~$%&=+])(?P<user>[A-Za-z_][\w.\-]{0,31}):(?P<body>[^\s'\"`<>:]{3,64})"
                   r"(?=[\s,;)\]]|$)")
# What says "log in with these": before the pair on its line (within 48 characters) …
_LOGIN_BEFORE = lazy_compile(
    r"(?i)\b(?:log(?:ged|ging|s)?[ \t\-]?(?:in|on)|login|logon|sign(?:ed|ing|s)?[ \t\-]?in|signin|creds?|credentials?"
    r"|ssh|sftp|ftp|telnet|rdp|vnc|winrm|smb|auth(?:enticate|enticated)?|account|acct|connect(?:s|ed|ing)?[ \t]+(?:with|as|using|via)"
    r"|user(?:name)?[ \t]*/[ \t]*pass"
    r"(?:word)?|u/p|identifiants?|connexion|connecte[rz]?|connecte-toi|connectez-vous)\b[^\n]{0,48}$")
# … or right after it: "USER:PASSWORD for ssh", "… to log in".
_LOGIN_AFTER = lazy_compile(
    r"(?i)[^\n]{0,24}?\b(?:log(?:ged|ging)?[ \t\-]?(?:in|on)|login|logon|sign[ \t\-]?in|ssh|sftp|ftp|creds?"
    r"|credentials?)\b")
# Names that label a field rather than name an account (`Host:webserver01`, `login:bob`), and
# the commands that write `user:group` (`chown root:wheel`) or `image:tag`.
_LABELS = frozenset({
    "login", "logon", "user", "username", "usr", "account", "acct", "auth", "creds", "cred", "credentials",
    "credential", "password", "passwd", "pass", "pwd", "email", "mail", "host", "hostname", "server", "port",
    "ssh", "sftp", "ftp", "id", "name", "identityfile", "proxy", "proxyjump", "realm", "domain", "type",
    "method", "mode", "role", "group", "scope", "region", "zone", "key", "token", "secret", "status", "http",
    "https", "file", "path", "url", "uri", "image", "tag", "version", "note", "time", "date", "ticket", "issue",
    "bug", "jira", "ref", "code", "error", "err", "errno", "exit", "sha", "sha1", "sha256", "sha384", "sha512",
    "md5", "hash", "fingerprint", "commit", "rev", "build", "job", "step", "line", "page", "case", "order",
    "invoice", "phone", "tel", "mobile", "ip", "mac", "uuid", "guid", "env", "stage", "level", "priority",
    "severity", "label", "title", "reason", "result", "value", "default", "example", "sample", "channel",
    "room", "team", "org", "project", "repo", "branch", "status", "state", "count",
})
# A ticket or an issue (`OPS-1234`), not a password.
_TICKET = lazy_compile(r"^[A-Z][A-Z0-9]{1,9}-\d{1,7}$")
_GROUP_COMMANDS = lazy_compile(r"(?i)\b(?:chown|chgrp|usermod|groupadd|useradd|install\s+-o|docker|podman|kubectl)\b")
_DOCKERFILE_FROM = lazy_compile(r"(?i)[ \t]*from[ \t]")  # a Dockerfile's `FROM image:tag` line
_VERSION = lazy_compile(r"(?i)^v?\d+(?:\.\d+)*(?:[\-_.+][a-z0-9]+)*$")
# Accounts whose default or chosen password is often a plain word (`root:toor`, `pi:raspberry`).
_ADMIN_ACCOUNTS = frozenset({"root", "admin", "administrator", "sa", "postgres", "pi", "ubuntu", "sysadmin",
                             "superuser", "su", "oracle", "mysql", "ec2-user", "centos", "debian", "kali",
                             "operator", "manager", "support", "tech", "service"})


def _pair_password(user: str, body: str) -> tuple[str, bool] | None:
    """The password of a pair and whether a host follows it (`hunter2@10.0.0.5`), or None when
    its shape says it is none: a port, a path, a version, a ticket, the user again. Cheap: it
    runs before the context is looked for."""
    at = body.rfind("@")
    hosted = at >= 3
    if hosted:
        body = body[:at]
    body = body.rstrip(".,;!?)]")  # the end of a sentence, not of the password
    if len(body) < 4 or body.startswith(("/", "\\", "~", "$", "%", "{", "<", "[", "(", ".", "#")):
        return None
    if "/" in body or "\\" in body or body.lower() == user.lower() or _VERSION.match(body) or _TICKET.match(body):
        return None
    return body, hosted


def _is_password(user: str, body: str, hosted: bool) -> bool:
    """Is the body of a login pair a password (not a placeholder or a plain word)?"""
    if (hosted or user.lower() in _ADMIN_ACCOUNTS) and is_plain_password(body):
        return True  # `root:toor`, `pi:raspberry`, `deploy:sunshine@host`: a plain word is still one
    return not is_placeholder(body) and (looks_like_password(body) or looks_random(body))


def _pairs(text: str):
    """_PAIR's matches (as finditer gives them), looked for only at the colons of the text: a
    regex sliding over the whole text costs more than this loop on the few colons most hold."""
    at = text.find(":")
    while at != -1:
        start = at
        while start > 0 and (text[start - 1].isalnum() or text[start - 1] in "_.-") and at - start <= 32:
            start -= 1
        # Only the run's first character can start a name: the look-behind refuses the others.
        match = _PAIR.match(text, start) if start < at else None
        if match is not None and match.end("user") == at:
            yield match
        at = text.find(":", at + 1)


def has_login_pair(text: str) -> bool:
    """A `user:password` pair where a login is spoken of, its password one by values.py."""
    for match in _pairs(text):
        user = match.group("user")
        found = None if user.lower() in _LABELS else _pair_password(user, match.group("body"))
        if found is None:
            continue
        line_start = text.rfind("\n", 0, match.start()) + 1
        before = text[max(line_start, match.start() - 64):match.start()]
        if _LOGIN_BEFORE.search(before) is None and _LOGIN_AFTER.match(text, match.end()) is None:
            continue
        line_end = text.find("\n", match.end(), match.end() + 40)
        line = text[max(line_start, match.start() - 80):match.end() + 40 if line_end == -1 else line_end]
        if _GROUP_COMMANDS.search(line) or line_start >= match.start() - 80 and _DOCKERFILE_FROM.match(text, line_start):
            continue  # `sudo chown root:wheel`, `docker pull python:3.12-slim` after a login
        if _is_password(user, *found):
            return True
    return False


_LOGIN_NEEDLES = ("log in", "log-in", "login", "logon", "log on", "logged", "logging", "sign in", "sign-in",
                  "signin", "signed in", "signing in", "cred", "ssh", "ftp", "telnet", "rdp", "vnc", "winrm",
                  "smb", "auth", "account", "acct", "user/pass", "username/pass", "u/p", "identifiant",
                  "connexion", "connect")

# -- a Wi-Fi QR string's password -------------------------------------------------------------

# `WIFI:` then fields `K:value;` in any order (`\;` escapes a semicolon), one of them `P:`.
_WIFI_QR = lazy_compile(r"(?i)(?<![a-z0-9])wifi:(?:[a-z0-9]{1,4}:(?:\\.|[^;\\\n]){0,128};){0,8}?"
                      r"p:(?P<body>(?:\\.|[^;\\\n]){1,128})(?:;|$)")
_QR_ESCAPE = lazy_compile(r"\\(.)")
_MY_STAND_INS = frozenset({"pass", "password", "passwd", "pw", "pwd", "key", "secret", "wifi", "network",
                           "passphrase", "wifipass", "wifipassword"})


def _accept_wifi_password(match: re.Match[str]) -> bool:
    value = _QR_ESCAPE.sub(r"\1", match.group("body")).strip().strip("\"'")
    if len(value) < 5:
        return False  # WEP keys have 5 characters at least, WPA passphrases 8
    low = value.lower()
    for mine in ("my", "your", "the"):
        if low.startswith(mine) and low[len(mine):].lstrip("_-") in _MY_STAND_INS:
            return False  # `P:mypass;` in the format's documentation
    # Judged as a password given by a name: a concrete value, not a template, mask or dummy
    # (a generated one, `Xk9mPq2vLw`, may read as a CamelCase type name there).
    return is_plain_password(re.sub(r"[\s/\\]", "-", value)) or looks_like_password(value) or looks_random(value)


# -- a crypto wallet's seed phrase ------------------------------------------------------------

# On the prose view (lower case, accents stripped): what announces a mnemonic …
_SEED_CONTEXT = lazy_compile(
    r"\b(?:(?:seed|recovery|backup|secret|mnemonic|wallet|restore)[ \t\-]+(?:phrase|words|seed|sentence)s?"
    r"|mnemonic(?:s| code| phrase)?|seed[ \t]*:|(?:12|24|15|18|21|twelve|twenty[ \t\-]four)[ \t\-]+words?"
    r"(?:[ \t\-]+(?:seed|phrase|mnemonic|recovery))?|phrases?[ \t]+(?:de[ \t]+)?(?:recuperation|secretes?"
    r"|mnemoniques?|de[ \t]+passe[ \t]+du[ \t]+portefeuille)|mots[ \t]+de[ \t]+recuperation|graine)\b")
# … and the words around it, read one token at a time (a regex for "twelve words in a row"
# backtracks through the spaces between them: seconds on a kB of short words): a word of 3 to 8
# letters continues a run, spaces, commas and numbering (`1.`, `2)`) sit between its words, and
# anything else (another word, a sentence mark) ends it.
_SEED_TOKEN = lazy_compile(r"([a-z]+)|\d{1,2}[.):]?|[ \t\n,]+|.", re.S)
_SEED_GAP = 60  # characters between the context and the first word ("… is:", "… (keep it safe):")
_SEED_REACH = 24 * 10  # characters of 24 words of up to 8 letters, a space between
_SEED_CONTEXTS = 32  # contexts read per text: bounded work on a text made of "seed:" lines


def _seed_runs(text: str) -> list[tuple[int, int]]:
    """(start, end) of each run of 12 or more words that could be a mnemonic: every word 3 to
    8 letters and none that BIP-39 leaves out, not the same few words over and over (a test
    vector repeats some: "legal winner thank …")."""
    runs: list[tuple[int, int]] = []
    words: list[str] = []
    first = last = 0
    for token in _SEED_TOKEN.finditer(text):
        word = token.group(1)
        if word is None and token.group()[0] in " \t\n,0123456789":
            continue  # between two words of a run
        if word is not None and 3 <= len(word) <= 8 and word not in NOT_BIP39_WORDS:
            if not words:
                first = token.start()
            words.append(word)
            last = token.end()
            continue
        if len(words) >= 12 and len(set(words)) >= 6:
            runs.append((first, last))
        words = []
    if len(words) >= 12 and len(set(words)) >= 6:
        runs.append((first, last))
    return runs


def has_seed_phrase(prose: str) -> bool:
    """12 to 24 BIP-39-shaped words presented as a seed, recovery or mnemonic phrase: right
    after the words that announce it (the usual order) or right before them ("… is my seed")."""
    for n, context in enumerate(_SEED_CONTEXT.finditer(prose)):
        if n >= _SEED_CONTEXTS:
            break
        end = context.end()
        if any(start <= _SEED_GAP for start, _ in _seed_runs(prose[end:end + _SEED_GAP + _SEED_REACH])):
            return True
        begin = max(0, context.start() - _SEED_REACH - 40)
        before = prose[begin:context.start()]
        if any(len(before) - stop <= 40 for _, stop in _seed_runs(before)):
            return True
    return False


_SEED_NEEDLES = ("seed", "mnemonic", "recovery phrase", "recovery word", "backup phrase", "backup word",
                 "secret phrase", "wallet phrase", "wallet word", "restore phrase", "12 word", "12-word",
                 "24 word", "24-word", "twelve word", "twelve-word", "twenty-four word", "twenty four word",
                 "15 word", "18 word", "21 word", "recuperation", "phrase secrete", "phrases secretes",
                 "mnemonique", "graine", "passe du portefeuille")


# The AWS row is gated by its literals alone (Rule.native False): "asia" is in much prose, and
# each text it unlocked paid the native scan of every pattern, where the regex itself, behind its
# literal prefix, costs next to nothing.
def layout_rules() -> list[Rule]:
    return [
        Rule(id="secret.aws_access_key_id_any_case", kind=SECRET, family="aws",
             description="contains an AWS access key id written in lower or mixed case",
             pattern=_AWS_ID_ANY_CASE, accept=_accept_aws_id_any_case, needles=("akia", "asia"), view="text",
             native=False),
        Rule(id="secret.login_pair", kind=SECRET, family="generic_password_or_key",
             description="gives a user:password pair to log in with",
             check=has_login_pair, needles=_LOGIN_NEEDLES, view="text"),
        Rule(id="secret.wifi_qr_password", kind=SECRET, family="generic_password_or_key",
             description="contains a Wi-Fi QR string with its password",
             pattern=_WIFI_QR, accept=_accept_wifi_password, needles=("wifi:",), view="text"),
        Rule(id="secret.seed_phrase", kind=SECRET, family="crypto_wallet",
             description="contains a crypto wallet's seed (recovery, mnemonic) phrase",
             check=has_seed_phrase, needles=_SEED_NEEDLES, view="prose"),
    ]
