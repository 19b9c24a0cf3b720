"""Running a rule set over one text, fast: shared views, one literal scan per view, lazy work.

Owns the per-text views (normalised text, lower case, prose, long tokens) and the RuleIndex
that maps each prefilter literal to the rules it unlocks. The literals of each view are found
in one pass (literals.LiteralScanner) instead of one substring test each, and regexes only
run for the rules a literal unlocked. ASCII text, whose prose view is its lower-case view,
is scanned once for both; the long-token view is only built when the text has a long run.
Most prose is "quiet" (no long token, nothing encoded, no gate literal, no prefilter passing)
and is accepted after that one scan, without running any rule. Where hyperscan imports, a
native scan per view (native.py) finds the same literals and also rules out the rules whose
pattern cannot match, so fewer regexes run; the verdicts are the same either way.
"""

from __future__ import annotations

from collections.abc import Iterable

from .decode import decoded_views, has_quoted_printable, has_utf7
from .literals import LiteralScanner
from .native import NativePrefilter, Scan, available
from .normalize import normalize, prose_of_lower
from .rejoin import JOINABLE_RULES, joined_lines, spaced_words, spelled_out
from .rules import INJECTION, LONG_TOKEN, Rule
from .secret_rules import strip_public_blocks


# ASCII whitespace as str.split() sees it becomes a space, everything else an "x": a text has
# a long token iff the translated bytes hold LONG_TOKEN x's in a row, found by one substring test.
_RUNS = bytes(0x20 if chr(c).isspace() else 0x78 for c in range(128)) + bytes([0x78]) * 128
_LONG_RUN = b"x" * LONG_TOKEN


def long_tokens(text: str) -> str:
    """The whitespace-free runs of LONG_TOKEN or more characters, one per line."""
    # Non-ASCII text is tested in UTF-8, where every byte of a non-ASCII character (Unicode
    # spaces too) reads as a token byte: runs only look longer, so "no run" stays exact.
    raw = text.encode("ascii") if text.isascii() else text.encode("utf-8", "replace")
    if _LONG_RUN not in raw.translate(_RUNS):
        return ""
    words = strip_public_blocks(text).split()
    return "\n".join([w for w in words if len(w) >= LONG_TOKEN])


class Views:
    """The texts rules read; `long` holds only whitespace-free runs of LONG_TOKEN or more chars."""

    __slots__ = ("found", "long", "long_lower", "lower", "native_long", "native_other", "prose", "text")

    def __init__(self, normalized: str) -> None:
        lower = normalized.lower()
        self.text = normalized
        self.lower = lower
        self.prose = prose_of_lower(lower)  # `lower` itself when they are the same text
        self.long = long = long_tokens(normalized)
        self.long_lower = long.lower() if long else ""
        # Gate name ("both" when prose is lower) -> its literals in the view, once scanned.
        self.found: dict[str, set[str]] = {}
        # The native prefilter's scans (long view, other views), each once made; False: none.
        self.native_long: Scan | bool | None = None
        self.native_other: Scan | bool | None = None

    @classmethod
    def of(cls, normalized: str) -> Views:
        return cls(normalized)

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


class _Gate:
    """One gate text's literals, with the rules each one unlocks. Given `within`, a scanner
    of a superset of its literals, it reads through that one and keeps its own literals of
    what it finds (the same answer, and one scanner fewer to build)."""

    def __init__(self, unlocks: dict[str, list[int]], within: _Gate | None = None) -> None:
        self.unlocks = {lit: tuple(sorted(set(ids))) for lit, ids in unlocks.items()}
        self.within = within
        self.own = None if within is None else frozenset(unlocks)
        self._scanner: LiteralScanner | None = None

    @property
    def scanner(self) -> LiteralScanner:
        """Built on first use: with the native prefilter, most processes never need it (it
        takes a tenth of a second or more to build)."""
        if self._scanner is None:
            self._scanner = self.within.scanner if self.within is not None else LiteralScanner(self.unlocks)
        return self._scanner

    def present(self, text: str) -> set[str]:
        found = self.scanner.present(text)
        return found if self.own is None else found & self.own

    def collect(self, text: str, chosen: set[int], found: set[str] | None = None) -> None:
        """Add the rules unlocked in `text`; `found`, if given, is its literals already found."""
        unlocks = self.unlocks
        for lit in self.present(text) if found is None else found:
            chosen.update(unlocks[lit])


_CHECK, _PATTERN, _ANCHORED = 0, 1, 2
_NOTHING: frozenset[str] = frozenset()


class RuleIndex:
    """Rules grouped by view, with every prefilter literal mapped to the rules it unlocks."""

    def __init__(self, rules: Iterable[Rule], native: bool = True) -> None:
        self.rules = tuple(rules)
        always: dict[str, list[int]] = {}
        unlocks: dict[str, dict[str, list[int]]] = {}  # per gate text: literal -> rules
        for i, rule in enumerate(self.rules):
            gate = "lower" if rule.reads == "text" else rule.reads
            lits = unlocks.setdefault(gate, {})
            keys = rule.needles or rule.anchors
            if not keys:
                always.setdefault(rule.reads, []).append(i)
            for literal in keys:
                lits.setdefault(literal, []).append(i)
        self.always = {view: tuple(ids) for view, ids in always.items()}
        # ASCII text has prose == lower: one scan over both literal sets serves the pair.
        both: dict[str, list[int]] = {}
        for gate in ("lower", "prose"):
            for literal, indexes in unlocks.get(gate, {}).items():
                both.setdefault(literal, []).extend(indexes)
        self.both = _Gate(both) if both else None
        # Other text scans its views apart; the prose one, nearly all of the pair's literals,
        # through the pair's scanner (the lower-cased view's few keep a scanner of their own).
        self.gates = {gate: _Gate(lits, self.both if gate == "prose" else None)
                      for gate, lits in unlocks.items() if lits}
        # Rules outside the long view that no literal gates: with a prefilter each, a text
        # that passes no gate and no prefilter needs no rule run at all (`quiet`).
        ungated = [self.rules[i] for view, ids in always.items() if view != "long" for i in ids]
        self.prefilters = tuple((rule.prefilter, rule.reads) for rule in ungated if rule.prefilter is not None)
        self.can_be_quiet = all(rule.prefilter is not None for rule in ungated)
        # How many rules at the head of the list read only the long-token view.
        self.lead = next((i for i, rule in enumerate(self.rules) if rule.reads != "long"), len(self.rules))
        self.meta = tuple(
            (rule, rule.reads, "lower" if rule.reads == "text" else rule.reads,
             _CHECK if rule.check is not None else _ANCHORED if rule.anchors else _PATTERN, rule.prefilter)
            for rule in self.rules)
        # With hyperscan, one native scan per view finds the gate literals (the same answer)
        # and rules out the rules whose pattern cannot match: fewer regexes run, same verdicts.
        self.native = NativePrefilter(self.rules, unlocks) if native and available() else None
        self._always_other = frozenset(i for view, ids in always.items() if view != "long" for i in ids)
        self._always_long = frozenset(always.get("long", ()))
        self._subsets: dict[str, RuleIndex | None] = {}

    def subset(self, name: str) -> RuleIndex | None:
        """The rules that read an undone split ("joined": JOINABLE_RULES on joined lines;
        "spaced": the injection rules on punctuation-joined words), or None when there are
        none. Built on first use, without the native prefilter: these views are short."""
        if name not in self._subsets:
            if name in ("joined", "spelled"):
                rules = [r for r in self.rules if r.id in JOINABLE_RULES]
            else:
                rules = [r for r in self.rules if r.kind == INJECTION]
            self._subsets[name] = RuleIndex(rules, native=False) if rules else None
        return self._subsets[name]

    def _native_long(self, views: Views) -> Scan | None:
        """The native scan of the long-token view (made once, kept on `views`), or None."""
        scan = views.native_long
        if scan is None:
            scan = views.native_long = self._scan_long(views) or False
        return scan or None

    def _native_other(self, views: Views) -> Scan | None:
        """The native scan of the other views (made once, kept on `views`), or None. Apart
        from the long view's: when a provider rule decides on a long token, it is never made."""
        scan = views.native_other
        if scan is None:
            scan = views.native_other = self._scan_others(views) or False
        return scan or None

    def _scan_long(self, views: Views) -> Scan | None:
        if self.native is None or not views.long:
            return None
        if views.long.isascii():
            return self.native.prefilter([("long_ascii", views.long)], self._always_long)
        return self.native.prefilter([("long", views.long), ("long_lower", views.long_lower)], self._always_long)

    def _scan_others(self, views: Views) -> Scan | None:
        if self.native is None:
            return None
        if views.text.isascii():  # then lower and prose are the text in lower case
            others = [("ascii", views.text)]
        elif views.prose is views.lower:
            others = [("text", views.text), ("both", views.lower)]
        else:
            others = [("text", views.text), ("lower", views.lower), ("prose", views.prose)]
        return self.native.prefilter(others, self._always_other)

    def quiet(self, views: Views, normalized: str) -> bool:
        """True when no rule can fire on the text or its decodings: no long token (so nothing
        to decode there either), nothing percent- or entity-encoded, no gate literal in any
        view and no prefilter passing. The common case for prose; one literal scan decides,
        and its answer is kept on `views` for the rules when it does not."""
        if views.long or "%" in normalized or "&" in normalized or "+A" in normalized:
            return False
        if self._native_other(views) is not None:
            # Quiet when every rule left has a prefilter and none passes.
            meta = self.meta
            return all(meta[i][4] is not None and not meta[i][4](views.read(meta[i][1]))
                       for i in self._other_candidates(views))
        if not self.can_be_quiet:
            return False
        if views.prose is views.lower:
            if self.both is not None:
                found = views.found["both"] = self.both.scanner.present(views.lower)
                if found:
                    return False
        else:
            for gate_name, gate in self.gates.items():
                if gate_name != "long":
                    found = views.found[gate_name] = gate.present(views.gate(gate_name))
                    if found:
                        return False
        return not any(prefilter(views.read(reads)) for prefilter, reads in self.prefilters)

    def _long_candidates(self, views: Views) -> set[int]:
        """The rules unlocked by the long-token view (none when the text has no long token)."""
        chosen: set[int] = set()
        long_scan = self._native_long(views) if views.long else None
        if long_scan is not None:
            return (long_scan.unlocked | self._always_long) - long_scan.ruled_out
        if views.long:
            chosen.update(self.always.get("long", ()))
            long_gate = self.gates.get("long")
            if long_gate is not None:
                long_gate.collect(views.long_lower, chosen)
        return chosen

    def _other_candidates(self, views: Views) -> set[int]:
        """The rules unlocked by every other view."""
        other_scan = self._native_other(views)
        if other_scan is not None:
            return (other_scan.unlocked | self._always_other) - other_scan.ruled_out
        chosen: set[int] = set()
        for view, indexes in self.always.items():
            if view != "long":
                chosen.update(indexes)
        if views.prose is views.lower:
            if self.both is not None and views.lower:
                self.both.collect(views.lower, chosen, views.found.get("both"))
            return chosen
        for gate_name, gate in self.gates.items():
            text = views.gate(gate_name)
            if text and gate_name != "long":
                gate.collect(text, chosen, views.found.get(gate_name))
        return chosen

    def candidates(self, views: Views) -> list[int]:
        """Indexes of the rules worth running on these views, in rule order."""
        return sorted(self._long_candidates(views) | self._other_candidates(views))

    def fired(self, views: Views, skip: set[str] | frozenset[str] = _NOTHING,
              first_only: bool = False) -> list[Rule]:
        """Rules that match; with `first_only`, stop at the first hard match (the decision).

        The rules run in rule order either way. The leading rules that read the long-token
        view (the provider formats) are gated and run first: when one of them decides, the
        scan of the other views for the rules after them is never made.
        """
        out: list[Rule] = []
        lead = self.lead
        long_ids = self._long_candidates(views)
        if lead and long_ids:
            first = sorted(i for i in long_ids if i < lead)
            if self._run(first, views, skip, first_only, out):
                return out
        rest = sorted(i for i in long_ids | self._other_candidates(views) if i >= lead)
        self._run(rest, views, skip, first_only, out)
        return out

    def _run(self, indexes: list[int], views: Views, skip: set[str] | frozenset[str], first_only: bool,
             out: list[Rule]) -> bool:
        """Run these rules in order, appending those that match; True once decided."""
        meta = self.meta
        for i in indexes:
            rule, reads, gate, how, prefilter = meta[i]
            if skip and rule.id in skip:
                continue
            if prefilter is not None and not prefilter(views.read(reads)):
                continue
            if how == _CHECK:
                hit = rule.check(views.read(reads))  # type: ignore[misc]
            elif how == _PATTERN:
                hit = rule.matches(views.read(reads))
            else:
                text = views.read(reads)
                hit = any(rule.matches(text, a, b) for a, b in rule.windows(views.gate(gate)))
            if hit:
                out.append(rule)
                if first_only and rule.severity == "hard":
                    return True
        return False


def _undone_splits(index: RuleIndex, normalized: str) -> list[tuple[RuleIndex, str]]:
    """The (rules, view) pairs of the views that undo a split, for those this text has."""
    out: list[tuple[RuleIndex, str]] = []
    joined = joined_lines(normalized)
    if joined:
        rules = index.subset("joined")
        if rules is not None:
            out.append((rules, joined))
    spelled = spelled_out(normalized)
    if spelled:
        rules = index.subset("spelled")
        if rules is not None:
            out.append((rules, spelled))
    spaced = spaced_words(normalized)
    if spaced:
        rules = index.subset("spaced")
        if rules is not None:
            out.append((rules, spaced))
    return out


def scan(index: RuleIndex, text: str, first_only: bool = False) -> list[tuple[Rule, bool]]:
    """(rule, found only after decoding) for every rule that fires on `text` or its decodings."""
    if not index.rules:  # no content rule (configured off): nothing to read the text for
        return []
    normalized = normalize(text)
    views = Views(normalized)
    quiet = index.quiet(views, normalized)
    fired = [] if quiet else index.fired(views, _NOTHING, first_only)
    found = [(rule, False) for rule in fired]
    if first_only and fired and fired[-1].severity == "hard":
        return found  # decided: no need to look inside encodings
    seen = {rule.id for rule in fired}
    for rules, view in _undone_splits(index, normalized):
        for rule in rules.fired(Views(view), seen, first_only):
            found.append((rule, False))
            seen.add(rule.id)
            if first_only and rule.severity == "hard":
                return found
    if quiet:
        return found
    whole = "%" in normalized or "&" in normalized or has_quoted_printable(normalized) or has_utf7(normalized)
    encoded = views.long + ("\n" + normalized if whole else "")
    decoded = decoded_views(encoded) if encoded else ()
    if decoded:
        # One scan over every decoding, a line each: its cost grows with the characters
        # decoded, not with the number of runs (a text of many short runs stays cheap).
        for rule in index.fired(Views(normalize("\n".join(decoded))), seen, first_only):
            found.append((rule, True))
            seen.add(rule.id)
    return found
