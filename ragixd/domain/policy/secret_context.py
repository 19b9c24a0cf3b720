"""Secrets that only their context makes one (session 28's red-team round).

Owns three rules:

- `secret.url_credentials_odd`: a URL login whose password holds `#` or `?` (`amqp://u:Ab#9x@mq:5672`,
  `redis://default:1Gw#!x@host:6380`), which URL syntax would read as the start of a fragment or a
  query, so `url_credentials` stops there. Counted only when an `@` and a plain host (a name or an
  address, an optional port, then the end of the URL) follow the password, and the password is
  not a port (`host:8080?x=a@b.example` is a query holding an address);
- `secret.named_token_value`: a key or token named as one (`auth token`, `API key`, `secret key`,
  `access token`), then, after at most a verb or a colon, a value with a key's shape: 32 or more
  hex digits, a UUID (how Heroku and others write keys), or a random run of 24 or more letters
  and digits (`Twilio auth token 38aa…`, `Heroku API key 41bb…-…`). Placeholders, the UUID of
  RFC 4122's examples, and words (`API key management`) stay accepted;
- `secret.admin_pair_host`: an administrator account and its password (`root:eM1LBq…`) with a host
  after it (`on 10.0.4.12`, `at db.internal`) or an access word before it on its line (server,
  ssh, box, vm, console, accès). The password must look like one (a mix of classes, or random):
  `root:x:0:0:…`, `root:leaf`, `root:/bin/bash`, `admin:admin` stay accepted.
"""

from __future__ import annotations

import re

from .lazy import lazy_compile
from .rules import SECRET, Rule
from .values import is_placeholder, looks_like_password, looks_random, shannon

# -- a URL login whose password holds "#" or "?" -------------------------------------------------

_ODD_URL = lazy_compile(
    r"(?i)\b[a-z][a-z0-9+.\-]{1,30}://(?P<user>[^\s:/?#@\"'<>]{0,64}):(?P<body>[^\s/@\"'<>]{1,128}?)"
    r"@(?P<host>[a-z0-9](?:[a-z0-9\-]{0,62}\.)*[a-z0-9\-]{1,63})(?::\d{1,5})?(?=[/\s\"'<>,;)]|$)")


def has_odd_url_credentials(text: str) -> bool:
    at = text.find("://")
    while at != -1:
        start = at
        while start > 0 and at - start <= 32 and (text[start - 1].isalnum() or text[start - 1] in "+.-"):
            start -= 1
        match = _ODD_URL.match(text, start, at + 3 + 64 + 1 + 128 + 1 + 330)
        if match is not None:
            body = match.group("body")
            if ("#" in body or "?" in body) and _odd_password(match.group("user"), body):
                return True
        at = text.find("://", at + 3)
    return False


def _odd_password(user: str, body: str) -> bool:
    if re.match(r"\d{1,5}[?#]", body):
        return False  # a port, then a query or fragment holding an address
    if body.lower() == user.lower() or body.startswith(("$", "%", "{", "<", "?", "#")) or is_placeholder(body):
        return False
    return looks_like_password(body) or looks_random(body, relaxed=True)


# -- a key named as one, then a key-shaped value ------------------------------------------------

_NAME_PREFIX = lazy_compile(
    r"(?i)(?<![a-z0-9])(?:api|auth|access|secret|private|bearer|app|application|service|account|master|admin|client"
    r"|server|signing|webhook|integration|license|licence)[ _\-]?\Z")
# After the key's name (`key`, `tokens`): at most a verb or a colon, then the value.
_NAMED_VALUE = lazy_compile(
    r"(?i)s?\b(?:[ \t]+(?:is|was|est|=|:)|[ \t]*[:=])?[ \t]*(?:\(?[a-z]+\)[ \t]*)?[\"'`]?"
    r"(?P<body>[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|[0-9a-fA-F]{32,128}"
    r"|[A-Za-z0-9_\-.~]{23,127}[A-Za-z0-9_\-~])(?![\w\-~]|\.[\w\-~])")
_EXAMPLE_UUIDS = ("123e4567-e89b-12d3-a456-426614174000", "123e4567-e89b-12d3-a456-426655440000",
                  "550e8400-e29b-41d4-a716-446655440000", "00000000-0000-0000-0000-000000000000",
                  "f47ac10b-58cc-4372-a567-0e02b2c3d479")
_NAMED_WORDS = ("key", "token", "secret")
_NAME_PREFIXES = ("api", "auth", "access", "secret", "private", "bearer", "app", "application", "service", "account",
                  "master", "admin", "client", "server", "signing", "webhook", "integration", "license", "licence")
# Gates: a prefix and a word, as _NAME_PREFIX and the word read them ("api key", "auth_token").
_NAMED_GATES = tuple(f"{prefix}{sep}{word}" for prefix in _NAME_PREFIXES for sep in ("", " ", "_", "-")
                     for word in _NAMED_WORDS)


# An OpenPGP fingerprint (40 hex digits, printed upper case) named a "signing key": a public
# key's name (`Release signing key B42F…7DD4`), as apt and release pages give it, not a secret.
_FINGERPRINT = lazy_compile(r"[0-9A-F]{40}")


def _accept_named_token(match: re.Match[str], prefix: str = "") -> bool:
    body = match.group("body")
    if is_placeholder(body) or body.lower() in _EXAMPLE_UUIDS:
        return False
    if prefix.startswith("signing") and _FINGERPRINT.fullmatch(body):
        return False
    compact = body.replace("-", "")
    if len(compact) >= 32 and all(c in "0123456789abcdefABCDEF" for c in compact):
        return shannon(compact) >= 3.0 and len(set(compact)) >= 10
    return looks_random(body)


def _named_tokens(text: str) -> bool:
    """Looked for at each "key", "token" or "secret" of the text (a regex sliding over the whole
    text would try every name at every position)."""
    lower = text.lower()
    for word in _NAMED_WORDS:
        at = lower.find(word)
        while at != -1:
            named = _NAME_PREFIX.search(lower, max(0, at - 13), at)
            if named:
                match = _NAMED_VALUE.match(text, at + len(word), at + len(word) + 180)
                if match is not None and _accept_named_token(match, named.group()):
                    return True
            at = lower.find(word, at + len(word))
    return False


# -- an administrator's password with a host ----------------------------------------------------

_ADMINS = (r"root|admin|administrator|administrateur|sa|postgres|ubuntu|pi|ec2-user|oracle|sysadmin|superuser"
           r"|deploy|jenkins|ftpuser|operator|centos|debian|kali|vagrant")
_ADMIN_PAIR = lazy_compile(
    rf"(?i)(?<![\w@.:/\-])(?P<user>{_ADMINS}):(?P<body>[^\s:@/\\]{{6,64}}?)[.,;)]?(?=\s|$)")
_HOST_AFTER = lazy_compile(r"(?i)[ \t]+(?:on|at|sur|chez|@|for|pour|->|=>|to)[ \t]+(?:the[ \t]+|le[ \t]+|la[ \t]+)?"
                         r"(?:\d{1,3}(?:\.\d{1,3}){3}|[a-z0-9\-]+(?:\.[a-z0-9\-]+)+|(?:server|host|box|vm|machine"
                         r"|serveur|hote)\b)")
_ACCESS_BEFORE = lazy_compile(r"(?i)\b(?:server|serveur|ssh|sftp|ftp|telnet|rdp|vnc|box|vm|machine|host|hote|console"
                            r"|shell|access|acces|root\s+access|sudo|bastion|router|routeur|switch|nas|database|db"
                            r"|credentials?|creds?|identifiants?)\b")


# Users that are also container images' names, and a body shaped as an image's tag: lower case,
# segments of letters (then digits) or of digits, the first a version or one a date stamp or a
# variant (`postgres:16.2-alpine3.19`, `jenkins:2.426.1-lts-jdk17`, `ubuntu:jammy-20240227`).
# With "database", "server" or "on 10.0.4.12" near, they are a deployment's image, not a login.
_IMAGE_USERS = frozenset({"postgres", "ubuntu", "debian", "centos", "oracle", "jenkins", "kali"})
_TAG_SEGMENT = lazy_compile(r"[a-z]+\d*|\d+")
_TAG_VARIANTS = frozenset({"alpine", "slim", "lts", "jdk", "jre", "bookworm", "bullseye", "buster", "stretch",
                           "trixie", "jammy", "focal", "noble", "bionic", "xenial", "latest", "stable", "rolling",
                           "stream", "ubi", "windowsservercore", "nanoserver"})


def _image_tag(user: str, body: str) -> bool:
    if user.lower() not in _IMAGE_USERS:
        return False
    segments = re.split(r"[._-]", body)
    if len(segments) < 2 or not all(_TAG_SEGMENT.fullmatch(s) for s in segments):
        return False
    return (segments[0].isdigit() or any(len(s) == 8 and s.isdigit() for s in segments)
            or any(s.rstrip("0123456789") in _TAG_VARIANTS for s in segments))


def _admin_pair_host(text: str) -> bool:
    for match in _ADMIN_PAIR.finditer(text):
        body = match.group("body")
        if body.lower() == match.group("user").lower() or is_placeholder(body):
            continue
        if _image_tag(match.group("user"), body):
            continue
        if not (looks_like_password(body) or looks_random(body)):
            continue
        line_start = text.rfind("\n", 0, match.start()) + 1
        before = text[max(line_start, match.start() - 80):match.start()]
        if _HOST_AFTER.match(text, match.end()) or _ACCESS_BEFORE.search(before):
            return True
    return False


_ADMIN_GATES = tuple(f"{user}:" for user in _ADMINS.split("|"))


def context_rules() -> list[Rule]:
    return [
        Rule(id="secret.url_credentials_odd", kind=SECRET, family="db_or_url_credentials",
             description="contains a URL login whose password holds '#' or '?'",
             check=has_odd_url_credentials, needles=("://",), view="text",
             prefilter=lambda text: "#" in text or "?" in text),
        Rule(id="secret.named_token_value", kind=SECRET, family="generic_password_or_key",
             description="names an API key, token or secret and gives its value (hex, UUID or random)",
             check=_named_tokens, needles=_NAMED_GATES, view="text"),
        Rule(id="secret.admin_pair_host", kind=SECRET, family="generic_password_or_key",
             description="gives an administrator account's password with the host it opens",
             check=_admin_pair_host, needles=_ADMIN_GATES, view="text"),
    ]
