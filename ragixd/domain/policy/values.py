"""Heuristics on candidate secret values: entropy, placeholders, code references.

Owns the question "does this string look like a live credential?". It never sees where the
value came from and never returns the value itself; callers only get booleans.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from itertools import repeat
from operator import add, ne

from .lazy import lazy_compile

# Substrings that mark documentation placeholders rather than live credentials.
# Substrings that mark documentation placeholders rather than live credentials. Long ones
# count anywhere; short ones only inside word-like segments (`your-token-here`, `YOURKEY`),
# because a random token contains "tbd" or "here" by chance often enough to matter.
_PLACEHOLDER_WORDS = (
    "example", "sample", "dummy", "placeholder", "changeme", "change_me", "change-me", "replace",
    "insert", "redacted", "xxxx", "****", "....", "\u2026", "notreal", "not_real", "not-a-real",
    "lorem", "foobar", "mysecret", "my_secret", "my-secret", "mytoken", "my_token", "my-token",
    "mypassword", "my_password", "my-password", "my_api", "my-api", "myapikey", "process.env",
    "os.environ", "getenv",
)
_PLACEHOLDER_WORD = lazy_compile("|".join(re.escape(w) for w in _PLACEHOLDER_WORDS))
_SHORT_PLACEHOLDER_WORDS = ("your", "here", "goes", "fake", "todo", "tbd", "test key", "mock")
_SHORT_PLACEHOLDER = lazy_compile("|".join(re.escape(w) for w in _SHORT_PLACEHOLDER_WORDS))
_SEGMENTS = lazy_compile(r"[A-Za-z0-9]+")
# Digit runs between two letters; the look-behind follows the first digit so that the regex
# engine can skip ahead to digits.
_INTERLEAVED_DIGITS = lazy_compile(r"\d(?<=[A-Za-z]\d)\d*(?=[A-Za-z])")
# An interpolation inside a longer value: `prefix-${VAR}`, `{{ name }}`, `<your key>`.
_INTERPOLATION = lazy_compile(
    r"\$\{[A-Za-z_][\w.\-]*\}|\{\{\s*[\w.\-]+\s*\}\}|<[\w\s.\-]+>|\{[A-Za-z_][\w.\[\]'()]+\}|\$\([^)]*\)")
# Whole values that are defaults or type names, never a secret on their own.
_DUMMY_VALUES = frozenset({
    "password", "passwd", "pass", "pwd", "secret", "token", "apikey", "api_key", "api-key",
    "key", "changeit", "admin", "root", "test", "testing", "guest", "default", "none", "null",
    "nil", "undefined", "empty", "true", "false", "string", "str", "bytes", "required",
    "optional", "hidden", "masked", "sensitive", "ollama", "bearer", "basic", "value",
})
_TEMPLATE = lazy_compile(
    r"""^(?:\$\{?[A-Za-z_][\w.\-]*\}?|\{\{?\s*[\w.\-]+\s*\}?\}|%\(?[\w]*\)?[sd]|\{\d*\}
        |<[^<>]*>|\[[^\[\]]*\]|\(\s*\)|:[A-Za-z_]\w*|@[A-Za-z_][\w.]*@?)$""",
    re.X,
)
# Case-insensitive only for the x's, spelled out so that the regex can skip to a candidate.
_MASK_RUN = lazy_compile(r"[xX]{4,}|\*{3,}|\u2022{3,}|#{4,}|\.{3,}")
_MASK_SEEDS = ("xxxx", "***", "\u2022\u2022\u2022", "####", "...")
_WORD_PARTS = lazy_compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
_DOTTED_PATH = lazy_compile(r"^[A-Za-z_$][\w$]*(?:(?:\.|::|->)[A-Za-z_$][\w$]*)+(?:\(\))?$")
_CODE_HINT = lazy_compile(r"[()\[\]{}]|^\$|^%|^&|^@|\benv\b|getenv|environ|secrets?\.|vault\.")


@lru_cache(maxsize=65536)
def _entropy_term(count: int, n: int) -> float:
    return count / n * math.log2(count / n)


def _counts(value: str) -> list[int]:
    """How often each distinct character occurs, in order of first occurrence."""
    return list(map(value.count, dict.fromkeys(value)))


def shannon(value: str) -> float:
    """Bits per character of the value's own character distribution."""
    if not value:
        return 0.0
    # Terms summed in order of first occurrence, as a Counter would: the same float.
    return -sum(map(_entropy_term, _counts(value), repeat(len(value))))


_DIGIT = lazy_compile(r"\d")
_SYMBOL = lazy_compile(r"[^A-Za-z0-9]")
_NON_ALNUM = lazy_compile(r"[^A-Za-z0-9]+")
# Runs like `abcdefg` or `1234567` mark keyboard fillers, not secrets.
_ASCENDING = tuple(seq[i:i + 7] for seq in ("0123456789", "abcdefghijklmnopqrstuvwxyz")
                   for i in range(len(seq) - 6))


def char_classes(value: str) -> tuple[bool, bool, bool, bool]:
    """(has lower, has upper, has digit, has symbol)."""
    return (value != value.upper(), value != value.lower(), _DIGIT.search(value) is not None,
            _SYMBOL.search(value) is not None)


def class_transitions(value: str) -> float:
    """Share of adjacent alphanumeric pairs that switch between lower, upper and digit.

    Random base62 switches about 60% of the time, hex about 45%, words and CamelCase
    identifiers far less, which separates generated tokens from names.
    """
    alnum = _alnum(value)
    if len(alnum) < 2:
        return 0.0
    classes = alnum.translate(_CLASS_OF)
    return sum(map(ne, classes, classes[1:])) / (len(alnum) - 1)


# Each ASCII letter or digit as its class: "a" lower, "A" upper, "0" digit.
_CLASS_OF = str.maketrans("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
                          "a" * 26 + "A" * 26 + "0" * 10)


def _alnum(value: str) -> str:
    """The value's ASCII letters and digits."""
    return value if value.isascii() and value.isalnum() else _NON_ALNUM.sub("", value)


# Every ascending run of 7 digits holds "3456"; every run of 7 letters holds one of the
# other pairs (it covers one of the letters g, n, u and a neighbour of it).
_ASCENDING_SEEDS = ("3456", "fg", "gh", "mn", "no", "tu", "uv")


def _ascending_run(value: str) -> bool:
    return any(s in value for s in _ASCENDING_SEEDS) and any(seq in value for seq in _ASCENDING)


def without_keyboard_runs(value: str) -> str:
    """The value without its ascending runs of 7 or more letters or digits (`klmnopqrst`,
    `1234567`), which a person typing a stand-in key leaves and a generator almost never does."""
    low = value.lower()
    keep = []
    i, n = 0, len(low)
    while i < n:
        j = i + 1
        while j < n and low[j].isalnum() and low[j - 1].isalnum() and ord(low[j]) == ord(low[j - 1]) + 1:
            j += 1
        if j - i < 7:
            keep.append(value[i:j])
        i = j
    return "".join(keep)


def _repeated_unit(value: str) -> bool:
    """`abcabcabc`: a string is a repetition iff it reappears inside itself doubled."""
    return (value + value).find(value, 1) < len(value)


_CONSONANT_RUN = lazy_compile(r"[bcdfghjklmnpqrstvwxz]{5,}")


def _is_word(part: str) -> bool:
    """Pronounceable: some vowels, not too many, never five consonants in a row."""
    low = part.lower()
    vowels = sum(c in "aeiou" for c in low) / len(low)
    return len(low) >= 3 and 0.16 <= vowels <= 0.75 and not _CONSONANT_RUN.search(low)


# The most frequent English letter pairs. Names and identifiers are built from words, so most
# of their adjacent letter pairs are common ones; random tokens hit this set about 1 time in 6.
_COMMON_BIGRAMS = frozenset(
    "th he in er an re nd on en at ou ed ha to or it is hi es ng ve ar st te al se ea ti le nt sa as me ne"
    " ro de ra co ri ic ce li ch io el ma si om ur ca la ta di ho et nc ec il ns pe no fo ot tr ly pr ac ge"
    " ll us be lo ut ss so un wa rs ie wi wh ad ol em ee ow po rt mo ni ts pa im mi ai su os id am iv ia fi"
    " ci vi pl ig tu ev ld ry mp sh ul op ag ap gr ke ex sp ab bl ct ty ck oo ok ki ey wo rd ds ue ew ks"
    " ms ps ys da do du ga go gu ja jo ju ka ku lu mu nu pu ru tu ya yo bo bu fa fe fu ga gi ha hu ka ko"
    " oa oi ui ua au eo iu oe od og ob oc of ok ov ox ud ug um up ur ys ze zo".split()
)


def is_wordlike(value: str, share: float = 0.5) -> bool:
    """Mostly made of words, like `GraphOptimizationLevel` or `md5WithRSAEncryption`.

    Judged by letter pairs: at least half of them must be common English bigrams, and
    letters must make up most of the value. Generated tokens rarely pass both.
    """
    parts = [p for p in _WORD_PARTS.findall(value) if len(p) >= 3 and p.isalpha()]
    letters = sum(map(len, parts))
    pairs = letters - len(parts)
    if pairs < 3 or letters < 0.6 * len(_alnum(value)):
        return False
    # Pairs across the joining space are never common bigrams, so they count for nothing.
    joined = " ".join(parts).lower()
    common = sum(map(_COMMON_BIGRAMS.__contains__, map(add, joined, joined[1:])))
    return common >= share * pairs


_DIGITS_INSIDE_WORD = lazy_compile(r"[A-Za-z]\d+[A-Za-z]")
_NOT_NAME_CHAR = lazy_compile(r"[^\w.=:/\- ]")
_WORD_OR_SPACE = lazy_compile(r"[\w\s]")


def is_compound_name(value: str) -> bool:
    """Several words joined by separators or case, with digits only at the end: a name.

    `frame_images`, `sys.maxsize`, `copy=False`, `viGpibSendIFC` are names; `hunter2` (one
    word) and `sup3rstr0ng` (digits inside words) are passwords.
    """
    if _DIGITS_INSIDE_WORD.search(value) or _NOT_NAME_CHAR.search(value):
        return False
    words = [p for p in _WORD_PARTS.findall(value) if p.isalpha() and _is_word(p)]
    return len(words) >= 2


@lru_cache(maxsize=8)  # judge() then looks_random() ask about the same value in a row
def is_placeholder(value: str, strict: bool = True) -> bool:
    """True for documentation stand-ins: templates, masks, dummy words, degenerate strings.

    `strict=False` is for tokens whose shape already proves they are credentials: only
    masks, dummy words and near-constant strings count as placeholders there.
    """
    v = value.strip().strip("\"'`")
    if len(v) < 3:
        return True
    low = v.lower()
    if low in _DUMMY_VALUES or _TEMPLATE.match(v) or _INTERPOLATION.search(v):
        return True
    # Every mask run holds one of these; most values hold none, and skip the regex.
    mask = _MASK_RUN.search(v) if any(m in low for m in _MASK_SEEDS) else None
    if mask and (strict or len(mask.group()) >= 6):
        return True
    if _PLACEHOLDER_WORD.search(low) or low.endswith("...") or low.startswith("..."):
        return True
    for segment in _SEGMENTS.findall(v):
        if (segment.isalpha() and _SHORT_PLACEHOLDER.search(segment.lower())
                and (segment.isupper() or segment.islower() or is_wordlike(segment))):
            return True
    distinct = set(low)
    dominance = 0.5 if strict else 0.7
    if len(distinct) <= 3:
        return True
    # The commonest character occurs at most len - (distinct - 1) times: count only if that
    # bound reaches the dominance share.
    if (len(low) - len(distinct) + 1 >= dominance * len(low)
            and max(map(low.count, distinct)) >= dominance * len(low)):
        return True
    return _repeated_unit(low) or _mostly_ascending(low)


def _mostly_ascending(low: str) -> bool:
    """A stand-in typed along the keyboard: a short value with an ascending run (`abcdefgh`,
    `sk-1234567890`), or a long one that is mostly such runs. A long token with a run inside
    (`1a2b3c4d5e6f7890abcdef1234567890abcdef`, a test key) keeps its shape."""
    if not _ascending_run(low):
        return False
    return len(low) < 24 or len(without_keyboard_runs(low)) < 0.5 * len(low)


def is_code_reference(value: str) -> bool:
    """An unquoted value that is an expression (call, env lookup, attribute path)."""
    v = value.strip()
    if _CODE_HINT.search(v):
        return True
    if _DOTTED_PATH.match(v):
        # `settings.SECRET_KEY` is a reference; `s.ZC9Ecf4M...` (a Vault token) is not.
        return not any(looks_random(part) for part in re.split(r"\.|::|->", v))
    return False


_HEX = lazy_compile(r"[0-9a-fA-F]*")


def is_hex(value: str) -> bool:
    return _HEX.fullmatch(value) is not None


def vowel_share(value: str) -> float:
    """Share of letters that are vowels: about 0.4 in English words, 0.2 in random letters."""
    low = value.lower()
    letters = sum(map(str.isalpha, low)) if not low.isalpha() else len(low)
    return sum(map(low.count, "aeiou")) / max(1, letters)


def looks_random(value: str, min_len: int = 8, relaxed: bool = False) -> bool:
    """Does the value look machine-generated (a key or token) rather than a word or a name?

    `relaxed` is for values already in a credential context (`api_token = "…"`): any
    non-word mix of letters and digits with some entropy counts there.
    """
    v = value.strip()
    if len(v) < min_len:
        return False
    lower, upper, digit, symbol = char_classes(v)
    alnum_classes = lower + upper + digit
    if alnum_classes == 1:
        if digit or len(v) < (12 if relaxed else 20) or shannon(v) < (3.3 if relaxed else 3.8):
            return False  # bare numbers (ids, amounts), short one-case words
        if vowel_share(v) >= 0.28:
            return False
    elif relaxed:
        if len(set(v)) < 6 or shannon(v) < 2.6:
            return False
    else:
        entropy = shannon(v)
        # Hex carries at most 4 bits a character, base62 about 6: judge each by its alphabet.
        hexish = is_hex(_NON_ALNUM.sub("", v))
        needed = (2.7, 3.0, 3.2) if hexish else (2.7, 3.2, 3.5)
        if entropy < needed[0 if len(v) < 16 else 1 if len(v) < 24 else 2]:
            return False
        if class_transitions(v) < 0.18 and not (symbol and entropy >= 3.6):
            return False
    if is_placeholder(v):
        return False
    # Digits scattered between letters (`a9Fq2`) are how generators write, not how people name.
    # In a credential context only clearly worded values (`MySecretValue`) are names.
    return len(_INTERLEAVED_DIGITS.findall(v)) >= 2 or not is_wordlike(v, 0.65 if relaxed else 0.5)


def is_random_number(value: str) -> bool:
    """A long run of digits drawn at random (a numeric client id or key: 15 to 24 digits),
    not a timestamp, an amount or a filler: most digits occur, none dominates, no ascending
    or repeated run. A random 16-digit string has at least 2.5 bits per character 19 times
    in 20; `1700000000123456` has 2.4, a date-time 2.4 and less."""
    v = value.strip()
    return (15 <= len(v) <= 24 and v.isascii() and v.isdigit() and shannon(v) >= 2.5
            and not is_placeholder(v))


def looks_like_password(value: str) -> bool:
    """A literal password: not a placeholder, not a bare dictionary word."""
    v = value.strip()
    if len(v) < 6 or len(v) > 128 or is_placeholder(v) or is_compound_name(v):
        return False
    lower, upper, digit, symbol = char_classes(v)
    if digit and not (lower or upper or symbol):
        return len(v) >= 6 and len(set(v)) >= 4
    if (lower or upper) and digit:
        return True
    if (lower or upper) and symbol:
        return len(set(_WORD_OR_SPACE.sub("", v)) & set("!@#$%^&*~?+")) >= 1
    if lower and upper:
        return not is_wordlike(v) and class_transitions(v) >= 0.3
    return len(v) >= 16 and looks_random(v)


# Placeholder words that a person would not type as their password. Unlike
# _PLACEHOLDER_WORDS, "mysecret…" and "mypassword…" are not here: as a whole value they are
# weak passwords, not documentation.
_STAND_IN_WORDS = lazy_compile(
    r"example|sample|dummy|placeholder|changeme|change_me|change-me|replace|insert|redacted|notreal"
    r"|not_real|not-a-real|lorem|foobar|process\.env|os\.environ|getenv")
_STAND_IN_SEGMENTS = frozenset({"here", "goes", "fake", "todo", "tbd", "mock", "xxx"})
# Type names: `password: SecretStr`, `secret: Optional`, not a value.
_CAMEL_CASE = lazy_compile(r"^(?:[A-Z][a-z0-9]*){2,}$")
_TYPE_NAMES = frozenset({"int", "bool", "float", "dict", "list", "tuple", "set", "any", "object", "text", "char",
                         "varchar", "uuid", "integer", "boolean", "number", "callable", "sequence", "mapping",
                         "iterable"})


def is_plain_password(value: str) -> bool:
    """A single concrete token assigned to a password or secret name (`sunshine`, `pgadmin`,
    `hunter2hunter2`), as opposed to what documentation and code put there: placeholders,
    masks, templates, dummy and type names, paths, degenerate strings."""
    v = value.strip()
    if len(v) < 4 or len(v) > 128 or any(c.isspace() for c in v) or "/" in v or "\\" in v:
        return False
    low = v.lower()
    if low in _DUMMY_VALUES or _TEMPLATE.match(v) or _INTERPOLATION.search(v):
        return False
    if low in _TYPE_NAMES or _CAMEL_CASE.match(v):
        return False  # `password: SecretStr`: a type annotation
    if any(m in low for m in _MASK_SEEDS) and _MASK_RUN.search(v):
        return False
    if _STAND_IN_WORDS.search(low) or low.endswith("...") or len(set(low)) <= 2:
        return False
    segments = [segment.lower() for segment in _SEGMENTS.findall(v)]
    return not any(seg in _STAND_IN_SEGMENTS or seg.startswith("your") for seg in segments)
