"""A Python regex rewritten as a looser one that a native multi-pattern scanner accepts.

Owns `superset_expression`: from a compiled `re` pattern, an expression (UTF-8 code points,
PCRE-like syntax) whose matches include every substring the pattern can match in any
context. Assertions (look-arounds, `^`, `$`, `\\b`) are dropped, which only adds matches,
so a match the rule finds in a window (where `endpos` cuts the look-ahead short) is still
one here. Unicode-dependent classes keep their exact ASCII part and take in every non-ASCII
character, so no Unicode table version can make them narrower than Python's; case-insensitive
letters do the same. Anything else (back-references, conditionals) gives None: the rule
cannot be prefiltered and always runs. Pure: no native code here.
"""

from __future__ import annotations

import re
from functools import lru_cache

try:  # Python 3.11 moved the parser; 3.10 still has it under its old name
    from re import _constants as _c  # type: ignore[attr-defined]
    from re import _parser as _p  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover
    import sre_constants as _c  # type: ignore[no-redef]
    import sre_parse as _p  # type: ignore[no-redef]

# Every character above ASCII, for a UTF-8 scan; every byte above ASCII, for a byte scan of
# text known to be ASCII (where these alternatives never match and cost the least).
_NON_ASCII = {True: r"\x{80}-\x{10ffff}", False: r"\x80-\xff"}
# A bounded repeat wider than this is scanned as unbounded: looser, and much cheaper to scan.
_MAX_SPAN = 3
# str.isspace for ASCII, which is what \s means in a str pattern on ASCII characters.
_SPACE = frozenset(b"\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f ")
_DIGIT = frozenset(b"0123456789")
_WORD = frozenset(b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
_ALL = frozenset(range(128))
_CATEGORIES = {
    _c.CATEGORY_DIGIT: _DIGIT, _c.CATEGORY_NOT_DIGIT: _ALL - _DIGIT,
    _c.CATEGORY_SPACE: _SPACE, _c.CATEGORY_NOT_SPACE: _ALL - _SPACE,
    _c.CATEGORY_WORD: _WORD, _c.CATEGORY_NOT_WORD: _ALL - _WORD,
}
_REPEATS = {_c.MAX_REPEAT, _c.MIN_REPEAT, getattr(_c, "POSSESSIVE_REPEAT", _c.MAX_REPEAT)}
_DROPPED = {_c.AT, _c.ASSERT, _c.ASSERT_NOT}


# Plain ints: `int & re.IGNORECASE` goes through the enum's operators, a hundred thousand
# times per policy built.
_IGNORECASE, _DOTALL, _ASCII = int(re.IGNORECASE), int(re.DOTALL), int(re.ASCII)


class Unsupported(Exception):
    """The pattern uses a construct with no looser equivalent here."""


def superset_expression(pattern: re.Pattern[str], utf8: bool = True, keep_negated: bool = False) -> str | None:
    """An expression matching at least every substring `pattern` matches, or None.

    `utf8`: for a scan of UTF-8 in code points; False, for a byte scan of ASCII text only.
    `keep_negated`: negated classes are written negated (`[^a-z]`) instead of as the
    characters they let through. A caseless scan then reads `[^a-z]` as PCRE does, leaving
    out the upper-case letters too: right where the scanned text stands for its lower-case
    form (a rule on the lower-case or prose view), too narrow where case matters.
    """
    if not isinstance(pattern.pattern, str):
        return None
    return _expression(pattern.pattern, pattern.flags, utf8, keep_negated)


@lru_cache(maxsize=4096)  # every policy built in a process translates the same rule patterns
def _expression(source: str, flags: int, utf8: bool, keep_negated: bool = False) -> str | None:
    try:
        tree = _p.parse(source, flags)
        return _Emitter(_NON_ASCII[utf8], keep_negated).seq(tree, flags)
    except (Unsupported, re.error, RecursionError):
        return None


class _Emitter:
    def __init__(self, non_ascii: str, keep_negated: bool = False) -> None:
        self.non_ascii = non_ascii
        self.keep_negated = keep_negated

    def seq(self, items, flags: int) -> str:  # type: ignore[no-untyped-def]
        return "".join(self.node(op, av, flags) for op, av in items)

    def node(self, op, av, flags: int) -> str:  # type: ignore[no-untyped-def]
        caseless = bool(flags & _IGNORECASE)
        if op in _DROPPED:
            return ""
        if op is _c.LITERAL:
            return self.literal(av, caseless)
        if op is _c.NOT_LITERAL:
            if self.keep_negated and av < 128:
                return self.negated({av})
            return self.klass(_ALL - ({av} if av < 128 else set()), True)
        if op is _c.ANY:
            return self.klass(_ALL if flags & _DOTALL else _ALL - {10}, True)
        if op is _c.IN:
            if self.keep_negated and av and av[0][0] is _c.NEGATE:
                return self.negated(_in(av[1:], flags)[0])
            return self.klass(*_in(av, flags))
        if op is _c.BRANCH:
            return "(?:" + "|".join(self.seq(alt, flags) for alt in av[1]) + ")"
        if op is _c.SUBPATTERN:
            _, add, remove, body = av
            return "(?:" + self.seq(body, (flags | add) & ~remove) + ")"
        if op is getattr(_c, "ATOMIC_GROUP", None):
            return "(?:" + self.seq(av, flags) + ")"
        if op in _REPEATS:
            low, high, body = av
            bound = f"{{{low},}}" if high == _c.MAXREPEAT or high - low > _MAX_SPAN else f"{{{low},{high}}}"
            return "(?:" + self.seq(body, flags) + ")" + bound
        raise Unsupported(str(op))

    def literal(self, code: int, caseless: bool) -> str:
        if code >= 128:
            # Under IGNORECASE a non-ASCII letter may match an ASCII one (Kelvin sign and k).
            return self.klass(_fold(set(range(65, 91)), True) if caseless else set(), True)
        if caseless and (65 <= code <= 90 or 97 <= code <= 122):
            # Some non-ASCII letters fold to ASCII ones (long s, Kelvin sign): take them all in.
            return self.klass(_fold({code}, True), True)
        return f"\\x{code:02x}"

    def negated(self, chars: set[int] | frozenset[int]) -> str:
        """Every character but these ASCII ones (their non-ASCII members, if any, are let
        through: only looser)."""
        if not chars:
            return self.klass(_ALL, True)
        return "[^" + "".join(_ranges(chars)) + "]"

    def klass(self, chars: set[int] | frozenset[int], non_ascii: bool) -> str:
        parts = _ranges(chars)
        if non_ascii:
            parts.append(self.non_ascii)
        if not parts:
            raise Unsupported("empty class")
        return "[" + "".join(parts) + "]"


def _ranges(chars: set[int] | frozenset[int]) -> list[str]:
    """The characters as class members, consecutive ones as ranges."""
    parts = []
    codes = sorted(chars)
    i = 0
    while i < len(codes):
        j = i
        while j + 1 < len(codes) and codes[j + 1] == codes[j] + 1:
            j += 1
        parts.append(f"\\x{codes[i]:02x}" if i == j else f"\\x{codes[i]:02x}-\\x{codes[j]:02x}")
        i = j + 1
    return parts


def _fold(chars: set[int], caseless: bool) -> set[int]:
    if not caseless:
        return chars
    out = set(chars)
    for c in chars:
        if 65 <= c <= 90 or 97 <= c <= 122:
            out.add(c ^ 0x20)
    return out


def _in(items, flags: int) -> tuple[set[int] | frozenset[int], bool]:  # type: ignore[no-untyped-def]
    """The ASCII characters a class matches, and whether it may match others."""
    caseless = bool(flags & _IGNORECASE)
    ascii_only = bool(flags & _ASCII)
    chars: set[int] = set()
    negate, non_ascii = False, caseless
    for op, av in items:
        if op is _c.NEGATE:
            negate = True
        elif op is _c.LITERAL:
            if av < 128:
                chars.add(av)
            else:
                non_ascii = True
        elif op is _c.RANGE:
            low, high = av
            chars.update(range(low, min(high, 127) + 1))
            non_ascii |= high >= 128
        elif op is _c.CATEGORY and av in _CATEGORIES:
            chars |= _CATEGORIES[av]
            non_ascii |= not ascii_only
        else:
            raise Unsupported(str(op))
    if negate:
        # Folding is left out on purpose: the complement of the unfolded set is the larger one.
        return _ALL - chars, True
    return _fold(chars, caseless), non_ascii
