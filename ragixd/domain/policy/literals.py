"""Which of many literals occur in a text: one regex pass instead of one substring test each.

Owns LiteralScanner, the prefilter behind every rule gate. Testing `literal in text` for a few
hundred literals costs a few hundred passes over the text; the scanner makes one. A few
characters are chosen as anchors (rare ones, by a fixed table of how common characters are
in English prose and code, picked as a greedy set cover so that every literal holds one) and
each literal is anchored at its rarest anchor character. The compiled regex is an alternation
of the anchor characters, so the regex engine skips every other character with a bitmap
test, and only at an anchor looks ahead for the rest of the literal (a trie) and back for
the part before the anchor.

The answer is exact: the same set as `{l for l in literals if l in text}`. At one position
the regex reports a single literal; literals contained in it are implied, and literals that
could sit on the same anchor position (checked once, at build time) are confirmed with `in`.
Literals made only of characters too common to stop at are tested with `in` directly, as
are single characters (a memchr).

Cost, for scale: the engine pays about one bitmap test per character plus one attempt per
anchor character met; on the policy's ~200 gate literals that is several times cheaper than
one `in` per literal, but still a few tens of microseconds per kB in CPython.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .lazy import lazy_compile

# Approximate share (per cent) of each character in mixed English prose and code: what it
# costs to stop at it. A general table, not measured on any corpus the rules are tested on.
_CHAR_FREQ = {
    " ": 16.0, "e": 10.0, "t": 7.4, "a": 6.6, "o": 6.2, "i": 5.9, "n": 5.7, "s": 5.4, "r": 5.1,
    "h": 4.1, "l": 3.4, "d": 3.2, "c": 2.6, "u": 2.4, "m": 2.1, "p": 1.8, "f": 1.8, "g": 1.6,
    "w": 1.4, "y": 1.4, "b": 1.2, "\n": 1.2, ".": 1.1, ",": 1.0, "v": 0.9, "k": 0.7, "-": 0.5,
    "_": 0.4, '"': 0.4, "'": 0.4, "=": 0.3, ":": 0.3, "/": 0.3, "(": 0.3, ")": 0.3, "x": 0.2,
    "j": 0.15, "q": 0.1, "z": 0.1, "\t": 0.1,
}
_DIGIT_FREQ = 0.4
_OTHER_FREQ = 0.05
# Rough costs, per character of text: stopping at an anchor character that makes up 1% of the
# text (the engine tries the literals there), and one `in` test for a literal.
_STOP_COST = 1.9
_IN_COST = 2.0


def char_frequency(char: str) -> float:
    if char in _CHAR_FREQ:
        return _CHAR_FREQ[char]
    return _DIGIT_FREQ if char.isdigit() else _OTHER_FREQ


def _anchor_chars(literals: list[str]) -> set[str]:
    """The characters worth stopping at (a greedy set cover): repeatedly the one that costs
    least per literal it covers, while it costs less than testing those literals with `in`.
    Literals without one of them are tested with `in`."""
    chosen: set[str] = set()
    left = [lit for lit in literals if len(lit) > 1]
    while left:
        covers: dict[str, int] = {}
        for lit in left:
            for char in set(lit):
                covers[char] = covers.get(char, 0) + 1
        best = min(covers, key=lambda c: (_STOP_COST * char_frequency(c) / covers[c], c))
        if _STOP_COST * char_frequency(best) >= _IN_COST * covers[best]:
            break
        chosen.add(best)
        left = [lit for lit in left if best not in lit]
    return chosen


def _anchor(literal: str, anchors: set[str]) -> int:
    """Index of the literal's rarest anchor character (the first of equally rare ones)."""
    return min((i for i in range(len(literal)) if literal[i] in anchors),
               key=lambda i: (char_frequency(literal[i]), i))


def _same_spot(a: str, ka: int, b: str, kb: int) -> bool:
    """Can `a` and `b` both occur with their anchors on the same text position?"""
    shift = ka - kb  # where b starts, relative to the start of a
    lo, hi = max(0, shift), min(len(a), shift + len(b))  # the span of `a` that `b` overlaps
    return a[lo:hi] == b[lo - shift:hi - shift]


_WINDOW = 3  # characters either side of the anchor that bucket a group's members


def _sharing(members: list[tuple[str, int]]) -> dict[str, tuple[str, ...]]:
    """For each (literal, anchor index) of one anchor character's group, the other members
    that may sit on the same anchor position without being inside it. Two can only if the few
    characters either side of their anchors agree where both have them (one side's is then a
    prefix of the other's), so members are bucketed by those and only compatible buckets are
    compared in full."""
    def around(lit: str, k: int) -> tuple[str, str]:
        return lit[max(0, k - _WINDOW):k][::-1], lit[k + 1:k + 1 + _WINDOW]

    def agree(x: str, y: str) -> bool:
        return x.startswith(y) or y.startswith(x)

    order = {lit: n for n, (lit, _) in enumerate(members)}
    buckets: dict[tuple[str, str], list[tuple[str, int]]] = {}
    for lit, k in members:
        buckets.setdefault(around(lit, k), []).append((lit, k))
    shared = {}
    for a, ka in members:
        before, after = around(a, ka)
        if len(before) == len(after) == _WINDOW:  # every compatible key is a pair of prefixes
            keys = [(before[:i], after[:j]) for i in range(_WINDOW + 1) for j in range(_WINDOW + 1)]
            keys = [key for key in keys if key in buckets]
        else:
            keys = [(b, n) for b, n in buckets if agree(b, before) and agree(n, after)]
        near = sorted((item for key in keys for item in buckets[key]), key=lambda item: order[item[0]])
        shared[a] = tuple(b for b, kb in near if b != a and b not in a and _same_spot(a, ka, b, kb))
    return shared


def _contained(lits: list[str]) -> dict[str, tuple[str, ...]]:
    """For each literal, the other literals it contains (each literal's substrings of the
    lengths present, looked up in a set: far fewer steps than testing every pair)."""
    known = set(lits)
    lengths = sorted({len(lit) for lit in lits})
    contained = {}
    for lit in lits:
        size = len(lit)
        inside = {lit[i:i + n] for n in lengths if n < size for i in range(size - n + 1)}
        contained[lit] = tuple(sorted(inside & known))
    return contained


class LiteralScanner:
    """The set of given literals that occur in a text, found in one pass."""

    def __init__(self, literals: Iterable[str]) -> None:
        lits = sorted(set(literals))
        self.literals = tuple(lits)
        anchors = _anchor_chars(lits)
        self.plain = tuple(lit for lit in lits if len(lit) == 1 or not anchors.intersection(lit))
        plain = set(self.plain)
        anchored = [lit for lit in lits if lit not in plain]
        groups: dict[str, list[tuple[str, int]]] = {}
        for lit in anchored:
            k = _anchor(lit, anchors)
            groups.setdefault(lit[k], []).append((lit, k))
        # Literals found when `lit` is found, and literals that may hide on its anchor position.
        self.implied = _contained(lits)
        self.shared: dict[str, tuple[str, ...]] = {}
        for members in groups.values():
            self.shared.update(_sharing(members))
        self.leaves: list[str] = [""]  # group number -> literal (groups count from 1)
        branches = [re.escape(char) + "(?=" + self._trie(members) + ")"
                    for char, members in sorted(groups.items(), key=lambda g: -char_frequency(g[0]))]
        self.pattern = lazy_compile("|".join(branches)) if branches else None

    def _trie(self, members: list[tuple[str, int]]) -> str:
        """Alternation matching, after the anchor, the rest of each literal; each literal
        ends in a look-behind for its whole text and an empty group that names it."""
        root: dict = {}
        for lit, k in members:
            node = root
            for char in lit[k + 1:]:
                node = node.setdefault(char, {})
            node.setdefault("", []).append((lit, k))

        def emit(node: dict) -> str:
            parts = [re.escape(char) + emit(child) for char, child in sorted(node.items()) if char]
            for lit, k in node.get("", ()):
                self.leaves.append(lit)
                parts.append(("(?<=" + re.escape(lit) + ")()") if k else "()")
            return parts[0] if len(parts) == 1 else "(?:" + "|".join(parts) + ")"

        return emit(root)

    def any_present(self, text: str) -> bool:
        """Exactly `any(lit in text for lit in literals)`, stopping at the first found."""
        for lit in self.plain:
            if lit in text:
                return True
        return self.pattern is not None and self.pattern.search(text) is not None

    def present(self, text: str) -> set[str]:
        """Exactly `{lit for lit in literals if lit in text}`."""
        found = {lit for lit in self.plain if lit in text}
        if self.pattern is None:
            return found
        leaves, implied, shared = self.leaves, self.implied, self.shared
        for group in {m.lastindex for m in self.pattern.finditer(text)}:
            lit = leaves[group]  # type: ignore[index]
            found.add(lit)
            found.update(implied[lit])
            for other in shared[lit]:
                if other not in found and other in text:
                    found.add(other)
                    found.update(implied[other])
        return found
