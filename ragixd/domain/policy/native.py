"""The optional native prefilter: every rule's regex and every gate literal, scanned natively.

Owns NativePrefilter, which compiles with hyperscan (when it imports) the gate literals, the
shapes of the rules given as callables that have one (rules.Rule.shape) and the looser form
of each rule's pattern (superset.py), and answers for a text which rules a literal unlocked
(exactly as the literal scan would) and which rules cannot match there (their shape or looser
pattern is not found). Each text the rules read has two databases: the gates (literals and
shapes), scanned first, and the patterns, scanned only when a rule still in play has one
(most prose unlocks none); a long token's target holds both in one, as it nearly always
unlocks a provider rule. A rule whose pattern does not translate or compile, and a callable
without a shape, is never ruled out. Without hyperscan, or on any native error, it answers
None and the pure-Python gates decide alone, with the same verdicts.
"""

from __future__ import annotations

import hashlib
import json
import sys
import threading
import time
from collections.abc import Sequence
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any, Callable, Protocol

from .rules import Rule
from .superset import superset_expression

try:
    import hyperscan
except ImportError:  # another platform: the pure-Python gates are the whole engine
    hyperscan = None

# What each scan target holds: the patterns of the rules reading these views, and the
# literals of these gates. For ASCII text, "ascii" scans the text itself, caseless, and
# stands for "text", "lower" and "prose" (lower and prose are then the text in lower case);
# "long_ascii" likewise stands for the long-token view and its lower case.
_TARGETS = {
    "ascii": (("text", "lower", "prose"), ("lower", "prose")),
    "text": (("text",), ()),
    "lower": (("lower",), ("lower",)),
    "prose": (("prose",), ("prose",)),
    "both": (("lower", "prose"), ("lower", "prose")),
    "long_ascii": (("long",), ("long",)),
    "long": (("long",), ()),
    "long_lower": ((), ("long",)),
}
# In the caseless targets, the text-view patterns keep their case (they read the text as is).
_CASELESS = {"ascii", "long_ascii"}


def available() -> bool:
    """Is the native scanner importable here?"""
    return hyperscan is not None


class DatabaseCache(Protocol):
    """Where compiled databases may be kept between processes (the daemon gives a directory;
    compiling costs a second or two, loading a few milliseconds). Best effort both ways."""

    def get(self, key: str) -> bytes | None: ...

    def put(self, key: str, data: bytes) -> None: ...


_cache: DatabaseCache | None = None


def use_cache(cache: DatabaseCache | None) -> None:
    """Keep compiled databases in `cache` from now on (None: compile in memory only)."""
    global _cache
    _cache = cache


def _cache_key(*parts: Any) -> str:
    version = getattr(hyperscan, "__version__", "") if hyperscan else ""
    text = repr((version, hyperscan.__file__ if hyperscan else "", _code_fingerprint(), parts))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@lru_cache(maxsize=1)  # read when a database is first looked up, not at import
def _code_fingerprint() -> str:
    """What turns rules into databases, besides the rules: this module and the translator (and
    the Python whose regex parser the translator reads). A change to either is a new key."""
    here = Path(__file__).resolve().parent
    try:
        parts = [sys.version] + [(here / name).read_text(encoding="utf-8") for name in ("native.py", "superset.py")]
    except OSError:  # installed without its sources: the compiled code stands for them
        parts = [sys.version, repr(_build.__code__.co_code), repr(superset_expression.__code__.co_code)]
    return hashlib.sha256("\x00".join(parts).encode("utf-8")).hexdigest()


def _fingerprint(rules: Sequence[Rule]) -> str:
    """The rules as the databases read them, written out: their patterns and shapes (source and
    flags), the view each reads and whether its pattern may be compiled. The literals that gate
    them are part of each database's key apart."""
    def source(pattern: Any) -> Any:
        return None if pattern is None else (pattern.pattern, pattern.flags)
    text = repr([(source(r.pattern), source(r.shape), r.reads, r.native) for r in rules])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _from_cache(key: str) -> tuple[Any, list[int]] | None:
    """(database, rules whose pattern it holds) from the cache, or None."""
    if _cache is None:
        return None
    try:
        blob = _cache.get(key)
        if not blob:
            return None
        size = int.from_bytes(blob[:4], "big")
        rules = [int(r) for r in json.loads(blob[4:4 + size])]
        data = blob[4 + size:]
        return (hyperscan.loadb(data, hyperscan.HS_MODE_BLOCK) if data else None), rules
    except Exception:  # a damaged or foreign entry: compile instead
        return None


def _to_cache(key: str, db: Any, rules: list[int]) -> None:
    if _cache is None:
        return
    try:
        head = json.dumps(rules).encode("ascii")
        _cache.put(key, len(head).to_bytes(4, "big") + head + (hyperscan.dumpb(db) if db is not None else b""))
    except Exception:  # noqa: BLE001 - caching is an optimisation only
        return


class Scan:
    """What one scan found: rules a literal unlocked, and rules that cannot match."""

    __slots__ = ("ruled_out", "unlocked")

    def __init__(self, unlocked: set[int], ruled_out: set[int]) -> None:
        self.unlocked = unlocked
        self.ruled_out = ruled_out


class NativePrefilter:
    """The rule set's databases, two per scan target, compiled on first use: the gates (every
    literal, and the shape of each rule given as a callable that has one) and the patterns.
    Most texts unlock no rule that has a pattern, and then the second scan is never made."""

    def __init__(self, rules: tuple[Rule, ...], unlocks: dict[str, dict[str, list[int]]]) -> None:
        self.rules = rules
        self.reads = tuple(r.reads for r in rules)
        # What the databases are made of, as written: the key under which the cache keeps them.
        # Translating the rules for the scanner (~0.35 s) waits for a database the cache lacks.
        self.fingerprint = _fingerprint(rules)
        self.unlocks = {gate: tuple((lit, tuple(sorted(set(ids)))) for lit, ids in sorted(lits.items()))
                        for gate, lits in unlocks.items()}
        self._databases: dict[str, Any] = {}
        self._building: threading.Thread | None = None  # compiling what the cache lacked
        self._built: threading.Event | None = None  # set once that compile is over

    def compile_all(self) -> None:
        """Build every target's databases now (each is otherwise built on first use)."""
        for target in _TARGETS:
            if target not in self._databases:
                self._databases[target] = self._compile(target)

    def compile_in_background(self, done: Callable[[float], None] | None = None) -> bool:
        """Load every target's databases the cache holds (milliseconds), and compile the others
        on a thread of their own (seconds: a new install, new rules). Until they are built, a
        scan that needs one answers None and the pure-Python gates decide, with the same
        verdicts, so nothing waits for the compile. Calls `done(seconds)` when it is over;
        True when a compile was started."""
        missing = []
        for target in _TARGETS:
            if target not in self._databases:
                found = self._compile(target, cached_only=True)
                if found is NOT_CACHED:
                    missing.append(target)
                else:
                    self._databases[target] = found
        if not missing:
            return False

        built = threading.Event()

        def build() -> None:
            started = time.monotonic()
            try:
                for target in missing:
                    self._databases[target] = self._compile(target)
            finally:
                built.set()
            if done is not None:
                done(time.monotonic() - started)
        self._built = built
        self._building = threading.Thread(target=build, name="policy-compile", daemon=True)
        self._building.start()
        return True

    @cached_property
    def expressions(self) -> dict[bool, tuple[str | None, ...]]:
        """Each rule's pattern, loosened for the scanner: UTF-8 expressions for any text, byte
        expressions (cheaper to scan) for ASCII text; None where it has none."""
        return {utf8: tuple(superset_expression(r.pattern, utf8) if r.pattern is not None and r.native else None
                            for r in self.rules) for utf8 in (True, False)}

    @cached_property
    def shapes(self) -> dict[bool, tuple[str | None, ...]]:
        """A shape is read as written (negated classes stay negated, so a caseless scan reads
        them as the lower-cased text would); only rules on the lower-cased views have one."""
        return {utf8: tuple(superset_expression(r.shape, utf8, keep_negated=True)
                            if r.shape is not None and r.pattern is None and r.reads in _LOWERED else None
                            for r in self.rules) for utf8 in (True, False)}

    @cached_property
    def shaped(self) -> frozenset[int]:
        return frozenset(i for i, e in enumerate(self.shapes[True]) if e is not None)

    @property
    def compiling(self) -> bool:
        """Are databases still being compiled on their own thread?"""
        return self._built is not None and not self._built.is_set()

    def _pair(self, target: str) -> Any:
        databases = self._databases.get(target, False)
        if databases is False:
            if self.compiling:
                return None  # on its way: the pure-Python gates decide this text
            databases = self._databases[target] = self._compile(target)
        return databases

    def scan(self, target: str, text: str) -> Scan | None:
        """The scan of `text` as `target` (rules a literal unlocked, rules whose pattern
        cannot match there), or None when there is nothing to say."""
        databases = self._pair(target)
        if databases is None:
            return None
        gates, patterns = _run(databases[0], text), _run(databases[1], text)
        if gates is None or patterns is None:
            return None
        ruled_out = databases[0][3].difference(gates[1]) | databases[1][3].difference(patterns[1])
        return Scan(gates[0], set(ruled_out.difference(self.shaped)))

    def prefilter(self, targets: Sequence[tuple[str, str]], always: frozenset[int]) -> Scan | None:
        """One Scan for these (target, text) pairs, the texts of the views a rule set reads:
        the gate scans first (literals, shapes), then a pattern scan only where a rule still
        in play (unlocked or in `always`, not ruled out by its shape) has a pattern. Its
        `ruled_out` only names rules in play; None when a scan has nothing to say."""
        if len(targets) == 1:
            return self._prefilter_one(targets[0][0], targets[0][1], always)
        unlocked: set[int] = set()
        first: list[tuple[frozenset[int], set[int]]] = []  # (rules compiled, rules found) per gate scan
        second: list[tuple[Any, str]] = []
        for target, text in targets:
            databases = self._pair(target)
            if databases is None:
                return None
            found = _run(databases[0], text)
            if found is None:
                return None
            unlocked |= found[0]
            first.append((databases[0][3], found[1]))
            second.append((databases[1], text))
        # Set operations on the few rules in play, never on every compiled rule.
        in_play = unlocked | always
        ruled_out: set[int] = set()
        for compiled, possible in first:
            if compiled:
                ruled_out |= compiled.intersection(in_play).difference(possible)
        if ruled_out:
            in_play -= ruled_out
        for database, text in second:
            missing = _patterns_missing(database, text, in_play)
            if missing is None:
                return None
            ruled_out |= missing
        return Scan(unlocked, ruled_out)

    def _prefilter_one(self, target: str, text: str, always: frozenset[int]) -> Scan | None:
        """`prefilter` of one pair (an ASCII text, whose one caseless scan stands for all its
        views: the common case), with the bookkeeping of several left out."""
        databases = self._pair(target)
        if databases is None:
            return None
        gates, patterns = databases
        found = _run(gates, text)
        if found is None:
            return None
        unlocked, possible = found
        in_play = unlocked | always
        ruled_out = gates[3].intersection(in_play).difference(possible) if gates[3] else set()
        if ruled_out:
            in_play -= ruled_out
        missing = _patterns_missing(patterns, text, in_play)
        if missing is None:
            return None
        return Scan(unlocked, ruled_out | missing if missing else ruled_out)

    def _compile(self, target: str, cached_only: bool = False) -> Any:
        """The target's two databases, None when they do not compile; with `cached_only`,
        NOT_CACHED when one would have to be compiled."""
        ascii_text = target in _CASELESS
        literals = tuple(pair for gate in _TARGETS[target][1] for pair in self.unlocks.get(gate, ()))

        def translated() -> tuple[tuple, tuple]:  # (the gates' patterns, the patterns')
            shapes, patterns = self._patterns(self.shapes, target), self._patterns(self.expressions, target)
            if target in _LONG:  # a long token nearly always unlocks a provider rule: one scan
                return shapes + patterns, ()
            return shapes, patterns
        key = (self.fingerprint, target)
        first = _database((*key, "gates", literals), lambda: translated()[0], literals, ascii_text, cached_only)
        second = _database((*key, "patterns"), lambda: translated()[1], (), ascii_text, cached_only)
        if first is NOT_CACHED or second is NOT_CACHED:
            return NOT_CACHED
        return None if first is None or second is None else (first, second)

    def _patterns(self, expressions: dict[bool, tuple[str | None, ...]],
                  target: str) -> tuple[tuple[int, str, bool], ...]:
        views = _TARGETS[target][0]
        ascii_text = target in _CASELESS
        return tuple((i, e, self.reads[i] != "text") for i, e in enumerate(expressions[not ascii_text])
                     if e is not None and self.reads[i] in views)


# The views that are the text in lower case: a caseless scan of the text stands for them.
_LOWERED = ("lower", "prose")
# Targets scanned for their gates and patterns at once (else the patterns wait for a gate).
_LONG = ("long_ascii", "long", "long_lower")


def _patterns_missing(database: Any, text: str, in_play: set[int]) -> frozenset[int] | set[int] | None:
    """The rules in play whose pattern `text` does not hold (a scan only if one has a
    pattern), or None when the scan cannot be made."""
    wanted = database[3].intersection(in_play)
    if not wanted:
        return wanted
    found = _run(database, text)
    return None if found is None else wanted.difference(found[1])


def _run(database: Any, text: str) -> tuple[set[int], set[int]] | None:
    """One database's scan of `text`: (rules a literal unlocked, rules whose pattern or
    shape was found), or None when it cannot be made."""
    db, literal_rules, base, _compiled, always, local = database
    if db is None:  # the target holds no literal and no pattern
        return set(always), set()
    try:
        # Every scan needs scratch space, made here for all databases alike: one loaded from
        # the cache comes without any, and a scan leaves the GIL, so each thread (the writer,
        # the readers' recall guard) has its own or a second scan at once would fail.
        scratch = getattr(local, "scratch", None)
        if scratch is None:
            scratch = local.scratch = hyperscan.Scratch(db)
        data = text.encode("utf-8")
        hits: list[int] = []
        db.scan(data, match_event_handler=_collect, context=hits, scratch=scratch)
    except Exception:  # lone surrogates, a failed scratch allocation: no filter
        return None
    unlocked = set(always)
    possible = set()
    for i in hits:
        if i >= base:
            possible.add(i - base)
        else:
            unlocked.update(literal_rules[i])
    return unlocked, possible


def _collect(pattern_id: int, start: int, end: int, flags: int, hits: list[int]) -> None:
    hits.append(pattern_id)


NOT_CACHED = object()  # a database the cache does not hold, asked for without compiling it
# Databases built so far (compiled, loaded, or found empty), shared by policies built from the
# same rules: (patterns, literals, ascii_text) -> _build's answer.
_BUILT: dict[tuple, Any] = {}
_BUILT_MAX = 64


def forget_built() -> None:
    """Forget the databases built in this process: the next policy loads or compiles them again."""
    _BUILT.clear()


def _database(key: tuple, patterns: Callable[[], tuple[tuple[int, str, bool], ...]],
              literals: tuple[tuple[str, tuple[int, ...]], ...], ascii_text: bool, cached_only: bool = False) -> Any:
    """_build's answer for the database `key` names, built once; with `cached_only`, NOT_CACHED
    rather than a compile. `patterns()` gives the translated rules, asked for only to compile."""
    found = _BUILT.get(key, NOT_CACHED)
    if found is NOT_CACHED:
        found = _build(_cache_key(key), patterns, literals, ascii_text, cached_only)
        if found is not NOT_CACHED:
            if len(_BUILT) >= _BUILT_MAX:  # rule sets come from config: keep it bounded
                _BUILT.clear()
            _BUILT[key] = found
    return found


def _build(key: str, patterns: Callable[[], tuple[tuple[int, str, bool], ...]],
           literals: tuple[tuple[str, tuple[int, ...]], ...], ascii_text: bool,
           cached_only: bool = False) -> tuple[Any, tuple[tuple[int, ...], ...], int, frozenset[int],
                                               tuple[int, ...], threading.local | None] | None | object:
    """(database, rules per literal id, base, rules whose pattern is in it, rules always unlocked,
    each thread's scratch space), the database None when there is nothing to scan for; None
    when it does not compile.

    Literal i has id i; the pattern of rule r has id base + r. With `ascii_text`, the text is
    ASCII and scanned as bytes, and literals and the patterns flagged True match either case
    (they read the text lower-cased); else it is scanned as UTF-8 and matched as given.
    """
    if hyperscan is None:
        return None
    kept: list[str] = []
    literal_rules: list[tuple[int, ...]] = []
    always: list[int] = []
    for lit, rules in literals:
        if not lit:
            always.extend(rules)  # "" is in every text
        elif not ascii_text or (lit == lit.lower() and lit.isascii()):  # else never in lower-cased ASCII
            kept.append(lit)
            literal_rules.append(rules)
    base = len(literal_rules)
    cached = _from_cache(key)
    if cached is not None:
        db, rules = cached
        if db is None:  # kept as holding nothing to scan for
            return None, (), 0, frozenset(), tuple(always), None
        return db, tuple(literal_rules), base, frozenset(rules), tuple(always), threading.local()
    if cached_only:
        return NOT_CACHED
    # Written out only to compile (a cached start never needs them: ~0.15 s of every start).
    exprs = ["".join(f"\\x{b:02x}" for b in lit.encode("utf-8")).encode("ascii") for lit in kept]
    ids = list(range(len(kept)))
    flags = [_literal_flags(ascii_text)] * len(kept)
    wanted = [(rule, expression, _pattern_flags(ascii_text and fold, not ascii_text))
              for rule, expression, fold in patterns()]
    if not exprs and not wanted:  # nothing to scan for: nothing to compile, and kept as such
        _to_cache(key, None, [])
        return None, (), 0, frozenset(), tuple(always), None
    # Everything in one compile first; only when that fails is each pattern tried on its own
    # (a compile per pattern costs more than the whole database).
    db = _compiled(exprs, ids, flags, base, wanted)
    if db is None:
        wanted = [(rule, e, flag) for rule, e, flag in wanted if _compiles(e, flag)]
        db = _compiled(exprs, ids, flags, base, wanted)
        if db is None:
            return None
    if db is False:
        _to_cache(key, None, [])
        return None, (), 0, frozenset(), tuple(always), None
    rules = [rule for rule, _e, _f in wanted]
    _to_cache(key, db, rules)
    return db, tuple(literal_rules), base, frozenset(rules), tuple(always), threading.local()


def _compiled(exprs: list[bytes], ids: list[int], flags: list[int], base: int,
              wanted: list[tuple[int, str, int]]) -> Any:
    """The database of these literals and patterns; None if it does not compile, False if
    there is nothing in it."""
    all_exprs = exprs + [e.encode("ascii") for _r, e, _f in wanted]
    if not all_exprs:
        return False
    db = hyperscan.Database()
    try:
        db.compile(expressions=all_exprs, ids=ids + [base + r for r, _e, _f in wanted],
                   elements=len(all_exprs), flags=flags + [f for _r, _e, f in wanted])
    except hyperscan.error:
        return None
    return db


def _literal_flags(caseless: bool) -> int:
    return hyperscan.HS_FLAG_SINGLEMATCH | (hyperscan.HS_FLAG_CASELESS if caseless else 0)


def _pattern_flags(caseless: bool, utf8: bool) -> int:
    flags = hyperscan.HS_FLAG_SINGLEMATCH | hyperscan.HS_FLAG_PREFILTER
    flags |= hyperscan.HS_FLAG_UTF8 if utf8 else 0
    return flags | (hyperscan.HS_FLAG_CASELESS if caseless else 0)


@lru_cache(maxsize=1024)
def _compiles(expression: str, flags: int) -> bool:
    """Does hyperscan take this expression on its own (no empty match, not too large)?"""
    try:
        hyperscan.Database().compile(expressions=[expression.encode("ascii")], ids=[0], elements=1,
                                     flags=[flags])
    except hyperscan.error:
        return False
    return True
