"""Heuristics on candidate secret values: entropy, placeholders, code references.

Owns the question "does this string look like a live credential?". It never sees where the
value came from and never returns the value itself; callers only get booleans.
"""

from __future__ import annotations

import math
import re
from collections import Counter

# Substrings that mark documentation placeholders rather than live credentials.
_PLACEHOLDER_WORDS = (
    "your", "example", "sample", "dummy", "fake", "placeholder", "changeme", "change_me",
    "change-me", "replace", "insert", "redacted", "xxxx", "****", "....", "\u2026",
    "here", "goes", "notreal", "not_real", "not-a-real", "lorem", "foobar",
    "mysecret", "my_secret", "my-secret", "mytoken", "my_token", "my-token", "mypassword",
    "my_password", "my-password", "my_api", "my-api", "myapikey", "todo", "tbd", "process.env",
    "os.environ", "getenv",
)
# An interpolation inside a longer value: `prefix-${VAR}`, `{{ name }}`, `<your key>`.
_INTERPOLATION = re.compile(r"\$\{[A-Za-z_][\w.\-]*\}|\{\{\s*[\w.\-]+\s*\}\}|<[\w\s.\-]+>")
# Whole values that are defaults or type names, never a secret on their own.
_DUMMY_VALUES = frozenset({
    "password", "passwd", "pass", "pwd", "secret", "token", "apikey", "api_key", "api-key",
    "key", "changeit", "admin", "root", "test", "testing", "guest", "default", "none", "null",
    "nil", "undefined", "empty", "true", "false", "string", "str", "bytes", "required",
    "optional", "hidden", "masked", "sensitive", "ollama", "bearer", "basic", "value",
})
_TEMPLATE = re.compile(
    r"""^(?:\$\{?[A-Za-z_][\w.\-]*\}?|\{\{?\s*[\w.\-]+\s*\}?\}|%\(?[\w]*\)?[sd]|\{\d*\}
        |<[^<>]*>|\[[^\[\]]*\]|\(\s*\)|:[A-Za-z_]\w*|@[A-Za-z_][\w.]*@?)$""",
    re.X,
)
_MASK_RUN = re.compile(r"(?i)x{4,}|\*{3,}|\u2022{3,}|#{4,}|\.{3,}")
_DOTTED_PATH = re.compile(r"^[A-Za-z_$][\w$]*(?:(?:\.|::|->)[A-Za-z_$][\w$]*)+(?:\(\))?$")
_CODE_HINT = re.compile(r"[()\[\]{}]|^\$|^%|^&|^@|\benv\b|getenv|environ|secrets?\.|vault\.")


def shannon(value: str) -> float:
    """Bits per character of the value's own character distribution."""
    if not value:
        return 0.0
    n = len(value)
    return -sum(c / n * math.log2(c / n) for c in Counter(value).values())


def char_classes(value: str) -> tuple[bool, bool, bool, bool]:
    """(has lower, has upper, has digit, has symbol)."""
    lower = upper = digit = symbol = False
    for ch in value:
        if ch.islower():
            lower = True
        elif ch.isupper():
            upper = True
        elif ch.isdigit():
            digit = True
        else:
            symbol = True
    return lower, upper, digit, symbol


def class_transitions(value: str) -> float:
    """Share of adjacent alphanumeric pairs that switch between lower, upper and digit.

    Random base62 switches about 60% of the time, hex about 45%, words and CamelCase
    identifiers far less, which separates generated tokens from names.
    """
    kinds = [0 if c.islower() else 1 if c.isupper() else 2 for c in value if c.isalnum()]
    if len(kinds) < 2:
        return 0.0
    changes = sum(1 for a, b in zip(kinds, kinds[1:]) if a != b)
    return changes / (len(kinds) - 1)


def _ascending_run(value: str, limit: int = 7) -> bool:
    run = 1
    for a, b in zip(value, value[1:]):
        run = run + 1 if ord(b) - ord(a) == 1 else 1
        if run >= limit:
            return True
    return False


def _repeated_unit(value: str) -> bool:
    n = len(value)
    for size in range(1, n // 2 + 1):
        if n % size == 0 and value[:size] * (n // size) == value:
            return True
    return False


def is_placeholder(value: str) -> bool:
    """True for documentation stand-ins: templates, masks, dummy words, degenerate strings."""
    v = value.strip().strip("\"'`")
    if len(v) < 3:
        return True
    low = v.lower()
    if low in _DUMMY_VALUES or _TEMPLATE.match(v) or _MASK_RUN.search(v) or _INTERPOLATION.search(v):
        return True
    if any(w in low for w in _PLACEHOLDER_WORDS):
        return True
    if "example" in low or low.endswith("...") or low.startswith("..."):
        return True
    counts = Counter(low)
    if counts.most_common(1)[0][1] >= 0.5 * len(low) or len(counts) <= 3:
        return True
    return _ascending_run(low) or _repeated_unit(low)


def is_code_reference(value: str) -> bool:
    """An unquoted value that is an expression (call, env lookup, attribute path)."""
    v = value.strip()
    if _CODE_HINT.search(v):
        return True
    if _DOTTED_PATH.match(v):
        # `settings.SECRET_KEY` is a reference; `s.ZC9Ecf4M...` (a Vault token) is not.
        return not any(looks_random(part) for part in re.split(r"\.|::|->", v))
    return False


def is_hex(value: str) -> bool:
    return all(c in "0123456789abcdefABCDEF" for c in value)


def looks_random(value: str, min_len: int = 8) -> bool:
    """Does the value look machine-generated (a key or token) rather than a word or a name?"""
    v = value.strip()
    if len(v) < min_len or is_placeholder(v):
        return False
    lower, upper, digit, symbol = char_classes(v)
    alnum_classes = lower + upper + digit
    entropy = shannon(v)
    if alnum_classes == 1:
        if digit:
            return False  # bare numbers: ids, phone numbers, amounts
        letters = [c for c in v.lower() if c.isalpha()]
        vowels = sum(c in "aeiou" for c in letters) / max(1, len(letters))
        return len(v) >= 20 and entropy >= 3.8 and vowels < 0.28
    needed = 2.7 if len(v) < 16 else 3.2 if len(v) < 24 else 3.5
    if entropy < needed:
        return False
    return class_transitions(v) >= 0.18 or (symbol and entropy >= 3.6)


def looks_like_password(value: str) -> bool:
    """A literal password: not a placeholder, not a bare dictionary word."""
    v = value.strip()
    if len(v) < 6 or len(v) > 128 or is_placeholder(v):
        return False
    lower, upper, digit, symbol = char_classes(v)
    if digit and not (lower or upper or symbol):
        return len(v) >= 6 and len(set(v)) >= 4
    if (lower or upper) and (digit or symbol):
        return True
    if lower and upper:
        return class_transitions(v) >= 0.15 or len(v) >= 12
    return len(v) >= 16 and looks_random(v)
