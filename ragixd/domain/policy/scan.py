"""Running a rule set over one text, fast: shared views, one literal index, lazy work.

Owns the per-text views (normalised text, lower case, prose, long tokens) and the RuleIndex
that maps each prefilter literal to the rules it unlocks, so a text pays for one substring
test per distinct literal instead of one per rule, and regexes only run where they can match.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from .decode import decoded_views
from .normalize import normalize, prose_view
from .rules import Rule
from .secret_rules import strip_public_blocks

LONG_TOKEN = 16  # keys and tokens are at least this long; shorter words never need the secret scan


@dataclass(frozen=True)
class Views:
    """The texts rules read; `long` holds only whitespace-free runs of LONG_TOKEN or more chars."""

    text: str
    lower: str
    prose: str
    long: str
    long_lower: str

    @classmethod
    def of(cls, normalized: str) -> Views:
        lower = normalized.lower()
        prose = lower if lower.isascii() else prose_view(normalized)
        words = strip_public_blocks(normalized).split()
        long = "\n".join([w for w in words if len(w) >= LONG_TOKEN])
        return cls(normalized, lower, prose, long, long.lower() if long else "")

    def read(self, view: str) -> str:
        if view == "prose":
            return self.prose
        if view == "text":
            return self.text
        return self.long if view == "long" else self.lower

    def gate(self, view: str) -> str:
        """The lower-cased text a rule's literals are looked up in."""
        if view == "prose":
            return self.prose
        return self.long_lower if view == "long" else self.lower


class RuleIndex:
    """Rules grouped by view, with every prefilter literal mapped to the rules it unlocks."""

    def __init__(self, rules: Iterable[Rule]) -> None:
        self.rules = tuple(rules)
        always: dict[str, list[int]] = {}
        by_view: dict[str, dict[str, list[int]]] = {}
        for i, rule in enumerate(self.rules):
            keys = rule.needles or rule.anchors
            if not keys:
                always.setdefault(rule.reads, []).append(i)
                continue
            for literal in keys:
                by_view.setdefault(rule.reads, {}).setdefault(literal, []).append(i)
        self.always = always
        # Per gate text ("lower", "prose", "long"), every literal once, with the rules it unlocks.
        unlocks: dict[str, dict[str, list[int]]] = {}
        for view, by_literal in by_view.items():
            gate = "lower" if view == "text" else view
            for literal, indexes in by_literal.items():
                unlocks.setdefault(gate, {}).setdefault(literal, []).extend(indexes)
        self.forests = {gate: _LiteralForest(lits) for gate, lits in unlocks.items()}
        # ASCII text has prose == lower: one forest over both literal sets serves the pair.
        both: dict[str, list[int]] = {}
        for gate in ("lower", "prose"):
            for literal, indexes in unlocks.get(gate, {}).items():
                both.setdefault(literal, []).extend(indexes)
        self.both = _LiteralForest(both)
        self.meta = tuple((rule, rule.reads, "lower" if rule.reads == "text" else rule.reads)
                          for rule in self.rules)

    def candidates(self, views: Views) -> list[int]:
        """Indexes of the rules worth running on these views, in rule order."""
        chosen: set[int] = set()
        for view, indexes in self.always.items():
            if view != "long" or views.long:
                chosen.update(indexes)
        if views.prose is views.lower:
            self.both.collect(views.lower, chosen)
            if views.long_lower and "long" in self.forests:
                self.forests["long"].collect(views.long_lower, chosen)
            return sorted(chosen)
        for gate_name, forest in self.forests.items():
            gate = views.gate(gate_name)
            if gate:
                forest.collect(gate, chosen)
        return sorted(chosen)

    def fired(self, views: Views, skip: set[str], first_only: bool = False) -> list[Rule]:
        """Rules that match; with `first_only`, stop at the first hard match (the decision)."""
        out: list[Rule] = []
        for i in self.candidates(views):
            rule, reads, gate = self.meta[i]
            if rule.id in skip:
                continue
            if _run(rule, views.read(reads), views.gate(gate)):
                out.append(rule)
                if first_only and rule.severity == "hard":
                    break
        return out


class _LiteralForest:
    """Prefilter literals arranged so that a literal containing another is only looked for
    when the shorter one is present (`your response` after `your`, `system>` after `sys`).
    Synthetic parents (`your `, `<`, `]`) group long literals that share a stem."""

    SYNTHETIC = ("your ", "<", "]", "user", "sys", "instruction", "developer", "admin", "n't ", "not ", "never",
                 "this", "white", "visible", "time", "asked", "without", "note ", "message ", "access", "pass")

    def __init__(self, unlocks: dict[str, list[int]]) -> None:
        self.unlocks = {k: tuple(v) for k, v in unlocks.items()}
        nodes = sorted(set(unlocks) | {s for s in self.SYNTHETIC if any(s in lit for lit in unlocks)},
                       key=len)
        children: dict[str, list[str]] = {n: [] for n in nodes}
        roots: list[str] = []
        for i, lit in enumerate(nodes):
            parents = [p for p in nodes[:i] if p in lit and len(p) < len(lit)]
            if parents:
                children[max(parents, key=len)].append(lit)
            else:
                roots.append(lit)
        self.roots = tuple(roots)
        self.children = {k: tuple(v) for k, v in children.items() if v}

    def collect(self, text: str, chosen: set[int]) -> None:
        present = [lit for lit in self.roots if lit in text]
        while present:
            lit = present.pop()
            chosen.update(self.unlocks.get(lit, ()))
            kids = self.children.get(lit)
            if kids:
                present.extend(k for k in kids if k in text)


def _run(rule: Rule, text: str, gate: str) -> bool:
    if rule.check is not None:
        return rule.check(text)
    if not rule.anchors:
        return rule.matches(text)
    return any(rule.matches(text, a, b) for a, b in rule.windows(gate))


def scan(index: RuleIndex, text: str, first_only: bool = False) -> list[tuple[Rule, bool]]:
    """(rule, found only after decoding) for every rule that fires on `text` or its decodings."""
    normalized = normalize(text)
    views = Views.of(normalized)
    found = [(rule, False) for rule in index.fired(views, set(), first_only)]
    if first_only and any(rule.severity == "hard" for rule, _ in found):
        return found  # decided: no need to look inside encodings
    seen = {rule.id for rule, _ in found}
    encoded = views.long + ("\n" + normalized if "%" in normalized or "&" in normalized else "")
    for decoded in decoded_views(encoded) if encoded else ():
        for rule in index.fired(Views.of(normalize(decoded)), seen, first_only):
            found.append((rule, True))
            seen.add(rule.id)
        if first_only and any(rule.severity == "hard" for rule, _ in found):
            break
    return found
