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

import itertools
import re
from collections.abc import Iterable

from .assignments import PASSWORD_KEYWORDS
from .decode import decoded_views
from .literals import LiteralScanner
from .native import NativePrefilter, Scan, available
from .normalize import normalize, prose_view
from .providers import PROVIDER_TOKENS
from .rules import INJECTION, Rule
from .secret_rules import strip_public_blocks

LONG_TOKEN = 16  # keys and tokens are at least this long; shorter words never need the secret scan

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

    __slots__ = ("found", "long", "long_lower", "lower", "native", "prose", "text")

    def __init__(self, normalized: str) -> None:
        lower = normalized.lower()
        self.text = normalized
        self.lower = lower
        self.prose = lower if lower.isascii() else prose_view(normalized)
        self.long = long = long_tokens(normalized)
        self.long_lower = long.lower() if long else ""
        # Gate name ("both" when prose is lower) -> its literals in the view, once scanned.
        self.found: dict[str, set[str]] = {}
        # The native prefilter's scans (long view, other views), once made; False: none.
        self.native: tuple[Scan | None, Scan] | bool | None = None

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
    """One gate text's literals, with the rules each one unlocks."""

    def __init__(self, unlocks: dict[str, list[int]]) -> None:
        self.unlocks = {lit: tuple(sorted(set(ids))) for lit, ids in unlocks.items()}
        self.scanner = LiteralScanner(unlocks)

    def collect(self, text: str, chosen: set[int], found: set[str] | None = None) -> None:
        """Add the rules unlocked in `text`; `found`, if given, is its literals already found."""
        unlocks = self.unlocks
        for lit in self.scanner.present(text) if found is None else found:
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
        self.gates = {gate: _Gate(lits) for gate, lits in unlocks.items() if lits}
        # ASCII text has prose == lower: one scan over both literal sets serves the pair.
        both: dict[str, list[int]] = {}
        for gate in ("lower", "prose"):
            for literal, indexes in unlocks.get(gate, {}).items():
                both.setdefault(literal, []).extend(indexes)
        self.both = _Gate(both) if both else None
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
        self._subsets: dict[str, RuleIndex | None] = {}

    def subset(self, name: str) -> RuleIndex | None:
        """The rules that read an undone split ("joined": JOINABLE_RULES on joined lines;
        "spaced": the injection rules on punctuation-joined words), or None when there are
        none. Built on first use, without the native prefilter: these views are short."""
        if name not in self._subsets:
            if name == "joined":
                rules = [r for r in self.rules if r.id in JOINABLE_RULES]
            else:
                rules = [r for r in self.rules if r.kind == INJECTION]
            self._subsets[name] = RuleIndex(rules, native=False) if rules else None
        return self._subsets[name]

    def _native_scans(self, views: Views) -> tuple[Scan | None, Scan] | None:
        """The native scans of these views (made once, kept on `views`), or None without them."""
        scans = views.native
        if scans is None:
            scans = views.native = self._scan_natively(views)
        return scans or None  # type: ignore[return-value]

    def _scan_natively(self, views: Views) -> tuple[Scan | None, Scan] | bool:
        native = self.native
        if native is None:
            return False
        if views.text.isascii():  # then lower and prose are the text in lower case
            others = [native.scan("ascii", views.text)]
        elif views.prose is views.lower:
            others = [native.scan("text", views.text), native.scan("both", views.lower)]
        else:
            others = [native.scan("text", views.text), native.scan("lower", views.lower),
                      native.scan("prose", views.prose)]
        long_scans: list[Scan | None] = []
        if views.long:
            if views.long.isascii():
                long_scans = [native.scan("long_ascii", views.long)]
            else:
                long_scans = [native.scan("long", views.long), native.scan("long_lower", views.long_lower)]
        if None in others or None in long_scans:
            return False
        return (_merge(long_scans) if long_scans else None), _merge(others)  # type: ignore[arg-type]

    def quiet(self, views: Views, normalized: str) -> bool:
        """True when no rule can fire on the text or its decodings: no long token (so nothing
        to decode there either), nothing percent- or entity-encoded, no gate literal in any
        view and no prefilter passing. The common case for prose; one literal scan decides,
        and its answer is kept on `views` for the rules when it does not."""
        if views.long or "%" in normalized or "&" in normalized:
            return False
        if self._native_scans(views) is not None:
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
                    found = views.found[gate_name] = gate.scanner.present(views.gate(gate_name))
                    if found:
                        return False
        return not any(prefilter(views.read(reads)) for prefilter, reads in self.prefilters)

    def _long_candidates(self, views: Views) -> set[int]:
        """The rules unlocked by the long-token view (none when the text has no long token)."""
        chosen: set[int] = set()
        scans = self._native_scans(views) if views.long else None
        if scans is not None:
            long_scan = scans[0]
            assert long_scan is not None
            return (long_scan.unlocked | set(self.always.get("long", ()))) - long_scan.ruled_out
        if views.long:
            chosen.update(self.always.get("long", ()))
            long_gate = self.gates.get("long")
            if long_gate is not None:
                long_gate.collect(views.long_lower, chosen)
        return chosen

    def _other_candidates(self, views: Views) -> set[int]:
        """The rules unlocked by every other view."""
        scans = self._native_scans(views)
        if scans is not None:
            return (scans[1].unlocked | self._always_other) - scans[1].ruled_out
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


# -- views that undo a split: a key broken by a line break, words joined by punctuation ------

# The secret rules whose shapes are distinctive enough to read across a joined line break:
# prefixed provider keys, URLs with credentials and password assignments. The generic ones
# (high-entropy tokens, token assignments) would see two ordinary lines as one token.
JOINABLE_RULES = frozenset({f"secret.{row[0]}" for row in PROVIDER_TOKENS}
                           | {"secret.url_credentials", "secret.password_assignment"})
# One line break, optionally with spaces or tabs around it, between two token characters.
# The regex starts with the line break, a literal the regex engine skips to (a look-behind
# at every position costs ~5x more); the character before the break is tested apart.
_BREAK = re.compile(r"\n[ \t]*(?=[A-Za-z0-9_+/=\-])")
_TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_+/=-")
# A break is worth joining when the join could complete what a rule of JOINABLE_RULES reads:
# a key (the runs of key characters on both sides make LONG_TOKEN or more with a digit), a
# URL with credentials (a "://" before the break and an "@" around it) or a password
# assignment (a password word earlier on the line). Wrapped prose and code lines
# (`…the\nend`, `x = f(a)\ny = 2`) are not joined, which keeps the view small.
_KEY_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_+/-")
_KEY_CLASSES = bytes(0x6B if chr(c) in _KEY_CHARS else 0x20 for c in range(256))
_DIGIT_CLASSES = bytes(0x64 if chr(c) in "0123456789" else 0x20 for c in range(256))
_REACH = 256  # characters looked at on each side of a break


def _worth_joining(text: str, keys: bytes, digits: bytes, a: int, b: int, password_words: tuple[str, ...]) -> bool:
    left = keys.rfind(b" ", max(0, a - _REACH), a) + 1
    right = keys.find(b" ", b, b + _REACH)
    right = min(len(text), b + _REACH) if right == -1 else right
    if (a - left) + (right - b) >= LONG_TOKEN and (b"d" in digits[left:a] or b"d" in digits[b:right]):
        return True
    line = text.rfind("\n", max(0, a - _REACH), a) + 1
    if text.find("://", line, a) != -1 and text.find("@", line, b + _REACH) != -1:
        return True
    if password_words:
        before = text[line:a].lower()
        return any(word in before for word in password_words)
    return False


def joined_lines(text: str) -> str:
    """The lines around each line break that splits a key-looking run, with those breaks
    removed (`AKIA…\n…` -> `AKIA……`), one block a line; "" when there is none. Tags are
    joined by line breaks when scanned, so a key split across tags reads whole here too."""
    if "\n" not in text:
        return ""
    breaks = _BREAK.finditer(text)
    first = next(breaks, None)
    if first is None:
        return ""
    text = strip_public_blocks(text)  # public keys and certificates: random, wrapped, not secret
    if text is not first.string:
        breaks = _BREAK.finditer(text)
    else:
        breaks = itertools.chain((first,), breaks)
    cuts: list[tuple[int, int]] = []
    raw = text.encode("ascii", "replace")  # one byte per character: positions are the text's
    keys, digits = raw.translate(_KEY_CLASSES), raw.translate(_DIGIT_CLASSES)
    lower = text.lower()
    password_words = tuple(w for w in PASSWORD_KEYWORDS if w in lower)
    always = bool(password_words) or "://" in text  # else a break needs a digit near it
    for m in breaks:
        a, b = m.span()
        while a > 0 and text[a - 1] in " \t\r":
            a -= 1
        if not a or text[a - 1] not in _TOKEN_CHARS:
            continue
        if (always or b"d" in digits[max(0, a - _REACH):b + _REACH]) and _worth_joining(
                text, keys, digits, a, b, password_words):
            cuts.append((a, b))
    if not cuts:
        return ""
    blocks: list[str] = []
    pieces: list[str] = []
    block_end = pos = -1
    for a, b in cuts:
        line_start = text.rfind("\n", 0, a) + 1
        if pieces and line_start > block_end:  # a new block: close the previous one
            blocks.append("".join(pieces) + text[pos:block_end])
            pieces = []
        if not pieces:
            pos = line_start
        pieces.append(text[pos:a])
        pos = b
        block_end = text.find("\n", b)
        if block_end == -1:
            block_end = len(text)
    blocks.append("".join(pieces) + text[pos:block_end])
    return "\n".join(blocks)


# Letters joined by these (`ignore-all-previous-instructions`, `ignore.all.previous…`,
# `ignore_all_previous_instructions`) read as words separated by spaces for the injection rules.
_WORD_JOINER = re.compile(r"(?<=[A-Za-z])[\-./](?=[A-Za-z])")
# Three words or more joined so, found in the text's bytes with every ASCII letter read as
# "a" and every joiner as "-" (one C-level pass; a regex over the text itself is ~10x slower).
_WORD_CLASSES = bytes(0x61 if chr(c).isascii() and chr(c).isalpha() else 0x2D if chr(c) in "-./_" else 0x20
                      for c in range(256))
_JOINED_CHAIN = re.compile(rb"a-a+-a")
_CHAIN_CONTEXT = (80, 120)  # characters kept before and after a chain, on its line
# Underscores also join the words of code identifiers (`ignore_previous_rules=False`): a chain
# with one is read as words only where it stands as prose, not touching code punctuation.
_CODE_BEFORE = frozenset(".=(,[`'\"")
_CODE_AFTER = frozenset("(=[`'\"")


def _code_identifier(text: str, a: int, b: int) -> bool:
    """Does the underscore chain text[a:b] stand as an identifier in code (an assignment, a
    call, an argument, an attribute path, a quoted name, a `def …:` or `if …:` line)?"""
    if "." in text[a:b]:
        return True  # an attribute path: `cfg.ignore_previous_rules`
    before = text[:a].rstrip(" \t")[-1:]
    rest = text[b:b + 40].lstrip(" \t")
    after = rest[:1]
    return (before in _CODE_BEFORE or after in _CODE_AFTER
            or (after == ":" and rest[1:2] in ("", "\n", "\r")))


def spaced_words(text: str) -> str:
    """Each run of three or more words joined by `-`, `.`, `/` or `_`, with its context on its
    line (a phrase rule needs what leads to the words and what follows them), the joiners read
    as spaces, one a line; "" when there is none."""
    # One byte per character (non-ASCII ones read "?"), so positions are the text's.
    classes = text.encode("ascii", "replace").translate(_WORD_CLASSES)
    chain = _JOINED_CHAIN.search(classes)
    if chain is None:
        return ""
    before, after = _CHAIN_CONTEXT
    windows: list[tuple[int, int]] = []
    source = text
    while chain is not None:
        a, b = chain.span()
        while b < len(classes) and classes[b] in b"a-":  # the rest of the chain
            b += 1
        chain = _JOINED_CHAIN.search(classes, b)
        if "_" in text[a:b]:
            if _code_identifier(text, a, b):
                continue
            source = source[:a] + source[a:b].replace("_", " ") + source[b:]  # same length
        lo = max(a - before, text.rfind("\n", max(0, a - before), a) + 1)
        line_end = text.find("\n", b, b + after)
        hi = min(len(text), b + after) if line_end == -1 else line_end
        if windows and lo <= windows[-1][1]:
            windows[-1] = (windows[-1][0], hi)
        else:
            windows.append((lo, hi))
    return _WORD_JOINER.sub(" ", "\n".join(source[lo:hi] for lo, hi in windows))


def _merge(scans: list[Scan]) -> Scan:
    if len(scans) == 1:
        return scans[0]
    return Scan(set().union(*(s.unlocked for s in scans)), set().union(*(s.ruled_out for s in scans)))


def _undone_splits(index: RuleIndex, normalized: str) -> list[tuple[RuleIndex, str]]:
    """The (rules, view) pairs of the views that undo a split, for those this text has."""
    out: list[tuple[RuleIndex, str]] = []
    joined = joined_lines(normalized)
    if joined:
        rules = index.subset("joined")
        if rules is not None:
            out.append((rules, joined))
    spaced = spaced_words(normalized)
    if spaced:
        rules = index.subset("spaced")
        if rules is not None:
            out.append((rules, spaced))
    return out


def scan(index: RuleIndex, text: str, first_only: bool = False) -> list[tuple[Rule, bool]]:
    """(rule, found only after decoding) for every rule that fires on `text` or its decodings."""
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
    encoded = views.long + ("\n" + normalized if "%" in normalized or "&" in normalized else "")
    decoded = decoded_views(encoded) if encoded else ()
    if decoded:
        # One scan over every decoding, a line each: its cost grows with the characters
        # decoded, not with the number of runs (a text of many short runs stays cheap).
        for rule in index.fired(Views(normalize("\n".join(decoded))), seen, first_only):
            found.append((rule, True))
            seen.add(rule.id)
    return found
