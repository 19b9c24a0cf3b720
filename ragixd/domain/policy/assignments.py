"""Credential assignments: `password = "…"`, `API_KEY: …`, `<token>…</token>`, `mdp: …`.

Owns finding a credential-named identifier, the operator after it and the literal assigned,
in code, config, logs and prose (English and French), then judging the literal with
values.py. Names that only describe a credential (`token_type`, `key_name`, `password_url`)
and values that are placeholders or code (`os.environ[...]`, `${TOKEN}`) do not count.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import NamedTuple

from .lazy import lazy_compile
from .literals import LiteralScanner
from .values import (
    char_classes,
    is_code_reference,
    is_placeholder,
    is_plain_password,
    is_random_number,
    looks_like_password,
    looks_random,
)

PASSWORD = "password"
TOKEN = "token"

# Lower-case literals that start a credential name; occurrences are expanded to the full name.
PASSWORD_KEYWORDS = ("pass", "pw", "psw", "mdp", "mot de passe", "motdepasse", "contrase", "senha", "kennwort",
                     "wachtwoord", "haslo")
TOKEN_KEYWORDS = ("secret", "token", "key", "auth", "cred", "bearer", "session", "cookie", "signature",
                  "jeton", "clave")
_KEYWORDS = PASSWORD_KEYWORDS + TOKEN_KEYWORDS
_KEYWORD_SCANNER = LiteralScanner(_KEYWORDS)
_SEGMENT_SPLIT = lazy_compile(r"[_\-.$\s]+|(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")

_PASSWORD_WORDS = frozenset({
    "password", "passwd", "pass", "pwd", "psw", "passphrase", "passcode", "pw", "mdp", "motdepasse",
    "passwort", "kennwort", "contrasena", "contraseña", "senha", "wachtwoord", "haslo",
    "userpass", "dbpass", "dbpassword", "rootpassword", "adminpassword",
})
_TOKEN_WORDS = frozenset({
    "token", "secret", "apikey", "apitoken", "apisecret", "credential", "credentials", "cred",
    "creds", "auth", "authorization", "bearer", "cookie", "signature", "sig", "pat", "jeton",
    "session", "secretkey", "privatekey", "accesskey", "accesstoken", "authtoken", "authkey",
    "clientsecret", "appsecret", "masterkey", "licensekey", "clave",
})
# Words before `key` that make it a secret key (`api_key`, `alibabaKey`) unless they are these.
_NOT_SECRET_KEY_QUALIFIERS = frozenset({
    "public", "pub", "publishable", "primary", "foreign", "sort", "cache", "dict", "map", "hash",
    "lookup", "partition", "row", "object", "s3", "idempotency", "i18n", "translation", "unique",
    "composite", "index", "name", "field", "item", "entry", "search", "group", "route",
    "feature", "flag", "file", "bucket", "path", "redis", "cache", "dedup", "dedupe", "join",
    "shortcut", "hot", "keyboard", "music", "the", "a", "any", "each", "this", "that", "by",
    "table", "column", "json", "yaml", "config", "setting", "settings", "registry", "env",
    "ordering", "order", "memo", "react", "list", "query", "state", "storage", "element",
})
# Last name segments that describe a credential instead of holding one.
_DESCRIPTIVE_SUFFIXES = frozenset({
    "name", "names", "id", "ids", "type", "types", "url", "uri", "urls", "endpoint", "host",
    "hostname", "port", "path", "file", "filename", "dir", "len", "length", "size", "count",
    "num", "max", "min", "ttl", "timeout", "expiry", "expires", "expiration", "exp", "ref",
    "refs", "env", "var", "field", "label", "hint", "prompt", "policy", "format", "prefix",
    "suffix", "pattern", "regex", "chars", "charset", "alphabet", "enabled", "disabled",
    "enable", "required", "mode", "version", "header", "param", "params", "hash", "hashed",
    "digest", "salt", "location", "store", "provider", "source", "rotation", "manager",
    "backend", "method", "strategy", "style", "class", "validator", "rule", "rules", "reset",
    "question", "status", "state", "arn", "index", "limit", "limits", "budget", "usage",
    "cost", "price", "schema", "template", "placeholder", "error", "errors", "message", "msg",
    "text", "help", "description", "doc", "docs", "example", "sample", "test", "tests", "mock",
    "fn", "func", "function", "handler", "callback", "getter", "setter", "factory", "builder",
    "reader", "writer", "loader", "parser", "encoder", "decoder", "service", "client", "flow",
    "scope", "scopes", "audience", "issuer", "algorithm", "alg", "kind", "list", "set", "map",
    "keys", "bits", "strength", "policy", "complexity", "check", "checker",
    "valid", "invalid", "verify", "verified", "match", "matches", "input", "box", "dialog",
    "page", "form", "button", "icon", "sent", "received", "changed", "updated", "created",
    "mgr", "handler", "helper", "util", "utils", "widget", "view", "controller", "module",
    "request", "response", "exception", "event", "events", "lexer", "menu", "jar", "action",
    "actions", "plugin", "middleware", "adapter", "wrapper", "interface", "impl", "spec", "attr",
    "attribute", "property", "option", "options", "flag", "flags", "desc", "title", "tooltip",
})
# Quoted values that are code: regular expressions and format strings.
_CODE_LITERAL = lazy_compile(r"\(\?|\\[sSdDwWbB]|%[-+ #0-9.]*[sdifrx]\b|\[\^|\{\d*\}")
_OPERATOR = lazy_compile(
    r"""["'`]?\]?(?:[ \t]*:?[ \t]*(?:string|String|str|&str|const|final))?[ \t]*
        (?P<op>:::=|::=|:=|\?=|\.=|\+=|=>|->|===|==|!==|!=|=|:|>
        |\b(?:(?:is|was)[ \t]+now|is|was|est|ist|es|vaut)\b|[ \t]-[ \t]|,|(?<=[ \t])(?=["']))[ \t]*""",
    re.X,
)
_QUOTED = lazy_compile(r"""(["'`])([^\n]{0,400}?)\1""")
# Bounded: a value is judged on its first 256 characters (judge), and an unbounded run read
# from every keyword of `pwd=pwd=pwd=…` made the scan quadratic (minutes at 100 kB).
_VALUE_MAX = 300
_UNQUOTED = lazy_compile(r"""[^\s,;&'"`<>)\]}|]{1,%d}""" % _VALUE_MAX)
_XML_BODY = lazy_compile(r"\s*([^<]{1,400})<")
_REVERSED = lazy_compile(r"""(["'])([^"'\n]{1,200})\1\s*(?:!==|===|==|!=)\s*$""")
_AFTER_SCHEME = lazy_compile(r"[ \t]+([^\s,;&'\"`<>)\]}]{1,%d})" % _VALUE_MAX)
_AUTH_SCHEMES = frozenset({"bearer", "basic", "token", "bot", "digest", "apikey", "key", "sso"})
_CRED_VALUE_WORDS = frozenset({"password", "passwd", "pwd", "secret", "token", "apikey", "key"})
_CRED_VALUE_STEMS = ("pass", "pwd", "secret", "token", "key")


_CONFIG_PREFIX = lazy_compile(r"""^[ \t]*(?:export|set|setx|ARG|ENV|-|\#|//|\*|;)?[ \t]*["']?$""")
_PROSE_OPERATORS = frozenset({"is", "was", "is now", "was now", "est", "ist", "es", "vaut", ":"})
_PASSWORDISH_SYMBOLS = frozenset("!@#$%^&*~?+")


class Assignment(NamedTuple):
    kind: str  # PASSWORD or TOKEN
    value: str
    quoted: bool
    literal_context: bool = False  # a config line or prose: bare values are literals there
    direct: bool = False  # a password or secret name given one concrete token by `:` or `=`


# Password words long enough to end a run-together name (`PGPASSWORD`, `MYSQLPASSWD`).
_PASSWORD_SUFFIXES = ("password", "passwd", "passphrase", "passcode", "passwort", "kennwort")
# Names given a password by a bare `:` or `=`: any password word, or a name ending in `secret`.
_PLAIN_SECRET_ENDINGS = frozenset({"secret", "secrets"})


def _segments(name: str) -> list[str]:
    """Lower-case name parts without trailing digits: `PASSWORD1` -> ['password']."""
    parts = (s.lower().rstrip("0123456789") for s in _SEGMENT_SPLIT.split(name) if s)
    return [p for p in parts if p]


def credential_kind(name: str, previous_word: str = "") -> str | None:
    """PASSWORD, TOKEN or None for an identifier such as `DB_PASSWORD` or `alibabaKey`."""
    return _kind(_segments(name), lambda: previous_word)


def _kind(segs: list[str], previous_word: Callable[[], str]) -> str | None:
    """credential_kind on the name's segments; the word before the name is only looked up
    for a bare `key`."""
    if not segs or segs[-1] in _DESCRIPTIVE_SUFFIXES:
        return None
    if " ".join(segs) in ("mot de passe",) or any(s in _PASSWORD_WORDS or s.endswith(_PASSWORD_SUFFIXES)
                                                   for s in segs):
        return PASSWORD
    if any(s in _TOKEN_WORDS for s in segs):
        return TOKEN
    if segs[-1] == "key":
        before = previous_word() if len(segs) == 1 else ""
        qualifiers = segs[:-1] or ([before] if before else [])
        if qualifiers and not any(q in _NOT_SECRET_KEY_QUALIFIERS for q in qualifiers):
            return TOKEN
    return None


def _ends_with_credential_word(name: str) -> bool:
    segs = _segments(name)
    return bool(segs) and (segs[-1] in _PASSWORD_WORDS or segs[-1] in _TOKEN_WORDS or segs[-1] == "key")


_IDENT_RIGHT = lazy_compile(r"[A-Za-z0-9_\-.$]*")


def _expand(text: str, start: int, end: int) -> tuple[int, int]:
    """Grow [start, end) to the whole identifier around it (letters, digits, _ - . $)."""
    floor = max(0, start - 80)
    # The identifier characters right before `start`: a match at the start of the reversed slice.
    start -= _IDENT_RIGHT.match(text[floor:start][::-1]).end()
    end = _IDENT_RIGHT.match(text, end).end()
    while end > start and text[end - 1] in ".-$":
        end -= 1
    return start, end


_TRAILING_WORD = lazy_compile(r"([A-Za-z]+)[ \t]+$")


def _previous_word(text: str, start: int) -> str:
    m = _TRAILING_WORD.search(text[max(0, start - 40):start])
    return m.group(1).lower() if m else ""


def _value_after(text: str, pos: int, op: str) -> tuple[str, bool, int] | None:
    """The literal after an operator: (value, quoted, where it ends); the end is -1 when the
    value came after an auth scheme or from an XML body."""
    if op == ">":
        m = _XML_BODY.match(text, pos)
        return (m.group(1).strip(), True, -1) if m else None
    m = _QUOTED.match(text, pos)
    if m:
        return m.group(2), True, m.end()
    if op == ",":
        return None  # `f("API_KEY", value)`: only a literal second argument counts
    m = _UNQUOTED.match(text, pos)
    if not m:
        return None
    value = m.group().rstrip(".:")
    if value.lower() in _AUTH_SCHEMES:
        nxt = _AFTER_SCHEME.match(text, m.end())
        return (nxt.group(1), False, -1) if nxt else None
    return value, False, pos + len(value)


def judge(kind: str, value: str, quoted: bool, literal_context: bool = False, direct: bool = False) -> bool:
    """Is this assigned literal a live credential?"""
    value = value[:256]
    # Refusals first, cheapest first (they are independent: the order changes nothing else).
    if not value or "://" in value or _CODE_LITERAL.search(value):
        return False
    low = value.lower()  # a segment in _CRED_VALUE_WORDS holds one of _CRED_VALUE_STEMS
    if any(w in low for w in _CRED_VALUE_STEMS) and any(s in _CRED_VALUE_WORDS for s in _segments(value)):
        return False  # `falkor_password`, `registry-password`: names, not values
    if not quoted and is_code_reference(value):
        return False
    # `password: sunshine`: a concrete word is a password, however guessable (before the
    # placeholder test, which takes `hunter2hunter2` for filler and `mysecretvalue` for a stand-in).
    if direct and is_plain_password(value):
        return True
    if is_placeholder(value):
        return False
    pieces = [p.strip("{}[]()<>\"',;") for p in value.split()[:12]] or [value]
    # The credential name already says "secret": a generated-looking literal is enough.
    if any(looks_random(p, relaxed=True) for p in pieces):
        return True
    if kind == TOKEN and is_random_number(value):
        return True  # `discordToken = "312285978456026138"`: a numeric id or key
    if kind == PASSWORD and (quoted or literal_context):
        return looks_like_password(value)
    if kind == PASSWORD and set(value) & _PASSWORDISH_SYMBOLS and not is_code_reference(value):
        return looks_like_password(value)  # `… pwd = qybmoz9228! …` inline in a sentence
    # A quoted key full of password punctuation (`"m{{h}o)p$…#…"`) is a typed secret too.
    return quoted and len(set(value) & _PASSWORDISH_SYMBOLS) >= 2 and looks_like_password(value)


def _assignment_at(text: str, kw_start: int, kw_end: int, compares: bool) -> tuple[Assignment | None, int]:
    """The assignment whose name contains the keyword at [kw_start, kw_end), and the name's end.

    `compares` says whether the text has `==`/`!=` at all, so `"literal" == password` is only
    looked for when it can exist.
    """
    start, end = _expand(text, kw_start, kw_end)
    if text[max(0, start - 2):start] in ("${", "$(", "%(", "{{"):
        return None, end  # `${DB_PASSWORD:-x}`, `%(password)s`: a reference, not an assignment
    op = _OPERATOR.match(text, end)
    rev = None if op or not compares else _REVERSED.search(text, max(0, start - 220), start)
    if not op and not rev:
        # Most keyword mentions in prose: no operator, no comparison. A password word may
        # still be followed by its value in prose, after a few words or none at all.
        return _prose_password(text, start, end), end
    name = text[start:end]
    quoted_name = start > 0 and text[start - 1] in "\"'`"
    kind = _kind(_segments(name), lambda: _previous_word(text, start))
    if kind is None:
        return None, end
    if rev:
        return Assignment(kind, rev.group(2), True), end
    assert op is not None
    opname = op.group("op")
    if opname == "," and not (quoted_name and _ends_with_credential_word(name)):
        return None, end  # only `f("API_TOKEN", "literal")`, not any call with a credential-ish name
    if opname == ">" and not (start > 0 and text[start - 1] == "<"):
        return None, end
    found = _value_after(text, op.end(), opname)
    if not found:
        return None, end
    line_start = text.rfind("\n", 0, start) + 1
    literal = bool(_CONFIG_PREFIX.match(text, line_start, start)) or opname in _PROSE_OPERATORS
    direct = _direct(text, name, kind, op, found, literal)
    return Assignment(kind, found[0], found[1], literal, direct), end


# What may follow a bare value that stands alone: the end of the line or of a sentence, a
# separator, a comment.
_VALUE_END = lazy_compile(r"[ \t]*(?:$|[\r\n,;#&|)\]}]|\.(?:\s|$))", re.M)


def _direct(text: str, name: str, kind: str, op: re.Match[str], found: tuple[str, bool, int], literal: bool) -> bool:
    """Is a password or secret name given one concrete token by `:` or `=`? Quoted: a token
    without spaces. Bare: on a config line or after `:` (not an expression in code), and
    alone (`password: the one from the vault` is prose), or `NAME=value` run together as
    the environment takes it (`PGPASSWORD=pgadmin psql …`)."""
    value, quoted, end = found
    if op.group("op") not in ("=", ":") or end < 0:
        return False
    if kind != PASSWORD and _segments(name)[-1] not in _PLAIN_SECRET_ENDINGS:
        return False
    if not quoted and not (literal and (op.group() == "=" or _VALUE_END.match(text, end) is not None)):
        return False
    # Last, as the costliest (a long value splits into hundreds of segments); every test here
    # is a condition of the answer, so their order changes nothing else.
    return not any(s in _PASSWORD_WORDS or s in _TOKEN_WORDS or s.endswith(_PASSWORD_SUFFIXES)
                   for s in _segments(value))  # `"password": "Passwort"`: a label


# `mot de passe admin est …`, `password for root: …`: up to four words between a password
# word and a prose operator (`est :` too).
_QUALIFIED_OP = lazy_compile(
    r"(?:[ \t]+[A-Za-z][A-Za-z0-9'\-]{0,23}){1,4}?[ \t]*(?P<op>\b(?:(?:is|was)[ \t]+now|is|was|est|ist|es|vaut)\b"
    r"|:)(?:[ \t]*:)?[ \t]*")
# `changed my password to …`, `set the root password to …`: a value given by a verb of setting.
_SET_TO = lazy_compile(r"[ \t]+to[ \t]+")
_SETTING_VERB = lazy_compile(r"(?i)\b(?:set|sets|changed?|changes|reset|resets|updated?|updates)\b")
_BARE_GAP = lazy_compile(r"[ \t]+")
# Password names that are everyday words too: followed by a bare value (no operator as in `pass: …`,
# `pw=…`, no `pass for root: …`, `set the pass to …`) they name a password only where a name stands:
# at the start of a line or after a separator (`- pass …`, `bob / pass …`), after a word that says
# whose password (`admin pass …`, `wifi pw …`), after `user NAME` (`user sa pass …`, `wifi: HomeNet
# pass …`) or after `user@host`.
_VERB_NAMES = (["pass"], ["pw"])
_VERB_NAME_BEFORE = lazy_compile(
    r"(?i)(?:^|[,;:/|(*>=\t-]|\b(?:admin|root|sudo|user|wifi|wi-fi|db|database|e-?mail|mail|my|your|new|old|temp"
    r"|default|login|account|ssh|ftp|sftp|sql|server|router|vpn|app|master)|\b(?:user|username|login|usr|account"
    r"|wifi|wi-fi|ssid|network)[ \t]*[:=]?[ \t]*\S+|\S@\S+)[ \t]*$")


def _prose_password(text: str, start: int, end: int) -> Assignment | None:
    """A password word followed by its value without an operator (`passwd Xk9#mPq2vL`,
    `admin password R7v!kq2Lmz`) or with qualifier words before one (`le mot de passe admin
    est …`, `password for root: …`). Only password names count, and a bare value only when it
    reads as a typed password of several character classes, never as a word or a name."""
    gap = _BARE_GAP.match(text, end)
    if gap is None or end == start:
        return None
    segs = _segments(text[start:end])
    if _kind(segs, lambda: _previous_word(text, start)) != PASSWORD:
        return None
    qualified = _QUALIFIED_OP.match(text, end)
    if qualified is not None:
        found = _value_after(text, qualified.end(), qualified.group("op"))
        return Assignment(PASSWORD, found[0], found[1], True) if found else None
    set_to = _SET_TO.match(text, end)
    if set_to is not None and _SETTING_VERB.search(text, max(0, start - 30), start):
        found = _value_after(text, set_to.end(), "is")
        return Assignment(PASSWORD, found[0], found[1], True) if found else None
    line_before = text[max(text.rfind("\n", 0, start) + 1, start - 60):start]
    if segs in _VERB_NAMES and not _VERB_NAME_BEFORE.search(line_before):
        return None  # "the bill will pass 52-48", "fleas pass A-12b": a verb, not a name
    bare = _UNQUOTED.match(text, gap.end())
    if bare is None:
        return None
    value = bare.group().rstrip(".:")
    return Assignment(PASSWORD, value, False, True) if _typed_password(value) else None


def _typed_password(value: str) -> bool:
    """A bare value after a password word: eight characters or more, at least three classes
    of lower case, upper case, digits and symbols, not code and not a placeholder."""
    if len(value) < 8 or is_code_reference(value) or "/" in value:
        return False
    return sum(1 for present in char_classes(value) if present) >= 3 and looks_like_password(value)


def _keyword_spans(text: str) -> list[tuple[int, int]]:
    lower = text.lower()
    if len(lower) != len(text):  # rare case-mapping that changes length: map nothing
        return []
    spans = []
    present = _KEYWORD_SCANNER.present(lower)
    for kw in _KEYWORDS:
        if kw not in present:
            continue
        at = lower.find(kw)
        while at != -1:
            spans.append((at, at + len(kw)))
            at = lower.find(kw, at + len(kw))
    return sorted(spans)


def _iter_assignments(text: str) -> Iterator[Assignment]:
    """The credential assignments in `text` whose literal looks like a live credential, in
    order, found one at a time (a rule stops at the first of its kind)."""
    last_end = -1
    compares = "==" in text or "!=" in text
    for start, end in _keyword_spans(text):
        if start < last_end:
            continue  # the same identifier again (`PASSWORD_TOKEN`)
        found, last_end = _assignment_at(text, start, end, compares)
        if found and judge(*found):
            yield found


@lru_cache(maxsize=8)  # the password and the credential rules read the same text in a row
def _complete(text: str) -> list[tuple[Assignment, ...]]:
    """Where every assignment of `text` is kept once a rule has gone through them all (the
    password rule, finding none of its kind, leaves them to the credential rule)."""
    return []


def _has_assignment(text: str, kind: str) -> bool:
    """Does `text` assign a live credential of this kind? Stops at the first one."""
    known = _complete(text)
    if known:
        return any(a.kind == kind for a in known[0])
    found = []
    for assignment in _iter_assignments(text):
        if assignment.kind == kind:
            return True
        found.append(assignment)
    known.append(tuple(found))
    return False


def has_password_assignment(text: str) -> bool:
    return _has_assignment(text, PASSWORD)


def has_token_assignment(text: str) -> bool:
    return _has_assignment(text, TOKEN)
