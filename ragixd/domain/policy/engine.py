"""The write policy: content rules plus structural checks, folded into one Verdict.

Owns PolicyConfig, Verdict and Policy. A Verdict lists the rules that fired and a reason for
each; it never carries the text that matched, so a refused secret is never echoed or logged.
Pure: no I/O, no clock; the caller applies quarantine (tier stm, unverified, expiry).
"""

from __future__ import annotations

import dataclasses
import unicodedata
from collections.abc import Callable, Iterator, Mapping  # not typing's aliases: isinstance is several times slower there
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ...errors import ConfigError
from .injection_rules import injection_rules
from .lazy import lazy_compile
from .rules import (
    HARD,
    INJECTION,
    PROVENANCE,
    SECRET,
    SOFT,
    STRUCTURE,
    Rule,
    RuleHit,
    rule_from_dict,
)
from .scan import RuleIndex, scan
from .secret_rules import secret_rules

ACCEPT = "accept"
QUARANTINE = "quarantine"
REJECT = "reject"

_KIND_LABEL = {SECRET: "secret pattern", INJECTION: "injection pattern"}
_PLAIN_KEY = lazy_compile(r"^[A-Za-z_][\w.\-]{0,63}$")
_MAX_DEPTH = 12
_MEMO_MAX_CHARS = 64  # field values up to this long are remembered once found clean
_MEMO_SIZE = 4096
# Recall shows an item as its title's line and then its content: the end of the title is read
# joined to the start of the content, this many characters of each (a key, a credentialed URL,
# a key header and its first body line, an override's sentence), so that one cut between the
# two is read whole. Not more: the view is scanned on every write, and its cost is its length.
_JUNCTION_REACH = 128
_SPACE = lazy_compile(r"\s")


@dataclass(frozen=True)
class PolicyConfig:
    """Knobs of the write policy; `extra_rules` are regex rules given as dicts."""

    max_content_length: int = 3000
    require_provenance_for: tuple[str, ...] = ("mtm", "ltm")
    quarantine_expiry_hours: int = 24
    secret_rules_enabled: bool = True
    injection_rules_enabled: bool = True
    extra_rules: tuple[Mapping[str, Any], ...] = ()
    pointer_types: tuple[str, ...] = ("pointer",)
    # Seed §4.2: content derived from documents without hash or chunk references is untrusted.
    quarantine_unhashed_docs: bool = True
    # False: stop at the first hard match, which decides the verdict and keeps checks fast;
    # True: evaluate every rule (and every decoded run) and report all that match.
    exhaustive: bool = False

    def __post_init__(self) -> None:
        for name in ("require_provenance_for", "extra_rules", "pointer_types"):
            value = getattr(self, name)
            if isinstance(value, (str, bytes, Mapping)):
                raise ConfigError(f"policy.{name} must be a list")
            object.__setattr__(self, name, tuple(value))
        if self.max_content_length <= 0 or self.quarantine_expiry_hours <= 0:
            raise ConfigError("policy.max_content_length and quarantine_expiry_hours must be > 0")

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PolicyConfig:
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ConfigError(f"unknown policy setting(s): {', '.join(unknown)}")
        return cls(**dict(data))


@dataclass(frozen=True)
class Verdict:
    """The outcome of a policy check. Safe to log: it holds rule ids and reasons only."""

    decision: str
    hits: tuple[RuleHit, ...] = ()
    quarantine_expiry_hours: int | None = None

    @property
    def reasons(self) -> tuple[str, ...]:
        return tuple(h.reason for h in self.hits)

    @property
    def rule_ids(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(h.rule_id for h in self.hits))

    @property
    def rejected(self) -> bool:
        return self.decision == REJECT

    @property
    def quarantined(self) -> bool:
        return self.decision == QUARANTINE

    @property
    def accepted(self) -> bool:
        return self.decision == ACCEPT

    def to_dict(self) -> dict[str, Any]:
        return {"decision": self.decision, "rules": list(self.rule_ids), "reasons": list(self.reasons)}


_ACCEPTED = Verdict(ACCEPT)  # immutable: one instance serves every clean text


def _decide(hits: list[RuleHit], expiry_hours: int) -> Verdict:
    if not hits:
        return _ACCEPTED
    if any(h.severity == HARD for h in hits):
        return Verdict(REJECT, tuple(hits))
    if hits:
        return Verdict(QUARANTINE, tuple(hits), expiry_hours)
    return Verdict(ACCEPT)


def iter_text_fields(value: Any, path: str = "", depth: int = 0) -> Iterator[tuple[str, str]]:
    """(field path, text) for every string inside a proposal; lists of strings are joined."""
    out: list[tuple[str, str]] = []
    _collect_text_fields(value, path, depth, out)
    return iter(out)


# Values that hold no text: skipped without a call (most fields of an item are these or str).
_NO_TEXT = (int, float, type(None))


def _collect_text_fields(value: Any, path: str, depth: int, out: list[tuple[str, str]]) -> None:
    """iter_text_fields into a list: one call per container rather than a generator per value."""
    if depth > _MAX_DEPTH:
        return
    if isinstance(value, str):
        out.append((path or "content", value))
    elif isinstance(value, Mapping):
        for key, item in value.items():
            sub = f"{path}.{key}" if path else str(key)
            if isinstance(key, str) and not _plain_key(key):
                out.append((f"{sub}<key>", key))
            if isinstance(item, str) and depth < _MAX_DEPTH:
                out.append((sub or "content", item))
            elif not isinstance(item, _NO_TEXT):
                _collect_text_fields(item, sub, depth + 1, out)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        _collect_text_fields(dataclasses.asdict(value), path, depth + 1, out)
    elif isinstance(value, (list, tuple, set, frozenset)):
        items = list(value)
        if items and all(isinstance(i, str) for i in items):
            out.append((path, "\n".join(items)))
        else:
            for i, item in enumerate(items):
                _collect_text_fields(item, f"{path}[{i}]", depth + 1, out)


@lru_cache(maxsize=1024)  # field names repeat from one proposal to the next
def _plain_key(key: str) -> bool:
    return _PLAIN_KEY.match(key) is not None


class Policy:
    """Decides whether a memory write is accepted, quarantined or rejected.

    Extend by config (`PolicyConfig.extra_rules`) or by subclassing and overriding
    `build_rules`, calling super() and appending Rule objects.
    """

    def __init__(self, config: PolicyConfig | None = None) -> None:
        self.config = config or PolicyConfig()
        self.rules: tuple[Rule, ...] = tuple(self.build_rules())
        self._index = RuleIndex(self.rules)
        # RuleHits are immutable and depend only on (rule, field, decoded): built once each.
        self._hits: dict[tuple[str, str, bool], RuleHit] = {}
        # Short field values no rule fired on. Types, tiers, scopes, source kinds and tags come
        # back on nearly every write, and each would otherwise pay a scan's fixed cost again.
        self._clean: set[str] = set()
        ids = [r.id for r in self.rules]
        duplicates = sorted({i for i in ids if ids.count(i) > 1})
        if duplicates:
            raise ConfigError(f"duplicate policy rule id(s): {', '.join(duplicates)}")

    def build_rules(self) -> list[Rule]:
        rules: list[Rule] = []
        if self.config.secret_rules_enabled:
            rules += secret_rules()
        if self.config.injection_rules_enabled:
            rules += injection_rules()
        rules += [rule_from_dict(spec) for spec in self.config.extra_rules]
        return rules

    # -- content rules -------------------------------------------------------------------

    def _scan(self, text: str, fieldname: str, hits: dict[str, RuleHit]) -> None:
        short = len(text) <= _MEMO_MAX_CHARS
        if short and text in self._clean:
            return
        found = scan(self._index, text, not self.config.exhaustive)
        if not found and short:
            if len(self._clean) >= _MEMO_SIZE:  # values come from proposals: keep it bounded
                self._clean.clear()
            self._clean.add(text)
        for rule, decoded in found:
            if rule.id not in hits:
                hits[rule.id] = self._cached_hit(rule, fieldname, decoded)

    def clear_memo(self) -> None:
        """Forget the short values already found clean (benchmarks start each pass empty)."""
        self._clean.clear()

    def _cached_hit(self, rule: Rule, fieldname: str, decoded: bool) -> RuleHit:
        key = (rule.id, fieldname, decoded)
        hit = self._hits.get(key)
        if hit is None:
            if len(self._hits) >= 4096:  # field names come from proposals: keep it bounded
                self._hits.clear()
            hit = self._hits[key] = self._hit(rule, fieldname, decoded)
        return hit

    @staticmethod
    def _hit(rule: Rule, fieldname: str, decoded: bool) -> RuleHit:
        label = _KIND_LABEL.get(rule.kind, rule.kind)
        where = f"{fieldname}, after decoding" if decoded else fieldname
        reason = f"{label} {rule.id}: {rule.description} (in {where})"
        return RuleHit(rule.id, rule.kind, rule.severity, reason, fieldname)

    def check_text(self, text: str, field: str = "content") -> Verdict:
        """Only the content rules (secrets, injection, extra rules) on one text."""
        found = scan(self._index, text, not self.config.exhaustive)
        if not found:
            return _ACCEPTED
        hits: dict[str, RuleHit] = {}
        for rule, decoded in found:
            if rule.id not in hits:
                hits[rule.id] = self._cached_hit(rule, field, decoded)
        return _decide(list(hits.values()), self.config.quarantine_expiry_hours)

    # -- whole proposals -----------------------------------------------------------------

    # Texts that take every scan path once (ASCII, a long token, non-ASCII, encoded-looking).
    _WARM_TEXTS = (
        "a short plain note about the weekly deploy",
        "build id 7f3a9c0e5b1d4a2f8e6c9b0a1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d0e1f2 passed",
        "Sécurité du réseau : jeton 7f3a9c0e5b1d4a2f8e6c9b0a1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6 testé",
        "aGVsbG8gd29ybGQgdGhpcyBpcyBvbmx5IGEgd2FybSB1cCB0ZXh0IGZvciB0aGUgc2Nhbm5lcg==",
    )

    def warm(self, background: bool = False, compiled: Callable[[float], None] | None = None) -> None:
        """Build the lazily made parts (the native prefilter's databases) now, so the first
        write a daemon answers does not pay for them. With `background`, the databases the
        cache holds are loaded and the others compiled on a thread of their own (seconds on a
        new install or after new rules), the pure-Python gates deciding meanwhile with the same
        verdicts; `compiled(seconds)` is called when that compile is over."""
        native = self._index.native
        if native is not None and not (background and native.compile_in_background(compiled)):
            native.compile_all()
        for text in self._WARM_TEXTS:
            self.evaluate({"title": "warm-up", "content": text})
        self.clear_memo()

    def native_prefilter(self) -> str:
        """"native" when the native prefilter scans, "pure" when it is not installed (the
        pure-Python gates run alone), "compiling" while its databases are compiled in the
        background (the pure gates decide meanwhile), "failing" when it is built but its scans
        fail (each text then falls back to the pure gates: same verdicts, slower). The daemon
        logs it at start."""
        prefilter = self._index.native
        if prefilter is None:
            return "pure"
        if prefilter.compiling:
            return "compiling"
        return "native" if prefilter.prefilter([("ascii", "warm-up")], frozenset()) is not None else "failing"

    def evaluate(self, fields: Mapping[str, Any], trusted: bool = False) -> Verdict:
        """Every rule on a proposal or item dict; `trusted` skips the soft blocks only."""
        content_hits: dict[str, RuleHit] = {}
        for path, text in iter_text_fields(fields):
            self._scan(text, path, content_hits)
        junction = _junction(fields) if self.config.exhaustive or not content_hits else ""
        if junction:
            self._scan(junction, "title+content", content_hits)
        hits = list(content_hits.values()) + self._structure(fields)
        if trusted:
            hits = [h for h in hits if h.severity == HARD]
        return _decide(hits, self.config.quarantine_expiry_hours)

    def _structure(self, fields: Mapping[str, Any]) -> list[RuleHit]:
        cfg = self.config
        hits: list[RuleHit] = []
        content = fields.get("content")
        kind = str(fields.get("type") or "note")
        if isinstance(content, str) and len(content) > cfg.max_content_length and kind not in cfg.pointer_types:
            # Field values are never echoed in reasons: only counts and configured names.
            hits.append(RuleHit("structure.oversize", STRUCTURE, HARD,
                                f"content is {len(content)} characters, over the {cfg.max_content_length}"
                                " limit for non-pointer types; store it as a pointer", "content"))
        provenance = _provenance(fields)
        source_id = _visible(str(provenance.get("source_id") or ""))
        tier = str(fields.get("tier") or "stm")
        if not source_id and tier in cfg.require_provenance_for:
            hits.append(RuleHit("provenance.missing_for_tier", PROVENANCE, HARD,
                                f"tier {tier} requires provenance.source_id", "provenance.source_id"))
        elif not source_id:
            hits.append(RuleHit("quarantine.missing_source", PROVENANCE, SOFT,
                                "provenance.source_id is empty: quarantined to stm", "provenance.source_id"))
        if not _visible(str(fields.get("why_store") or "")):
            hits.append(RuleHit("quarantine.missing_why_store", STRUCTURE, SOFT,
                                "why_store is empty: quarantined to stm", "why_store"))
        unhashed = not provenance.get("content_hashes") and not provenance.get("chunk_ids")
        if cfg.quarantine_unhashed_docs and provenance.get("source_kind") == "doc" and source_id and unhashed:
            hits.append(RuleHit("quarantine.unhashed_document", PROVENANCE, SOFT,
                                "document-derived content without content_hashes or chunk_ids:"
                                " quarantined to stm", "provenance"))
        return hits


def _junction(fields: Mapping[str, Any]) -> str:
    """The end of the title and the start of the content as recall shows them (one line break
    between, memory-block markers neutralised), or "" without both. Each side is cut at a space
    or a line break, never inside a word."""
    from ..markers import neutralise  # markers imports this package's normaliser
    title, content = fields.get("title"), fields.get("content")
    if not isinstance(title, str) or not isinstance(content, str) or not title.strip() or not content.strip():
        return ""
    title = title.strip()
    tail, head = title[-_JUNCTION_REACH:], content[:_JUNCTION_REACH]
    if len(title) > _JUNCTION_REACH:
        space = _SPACE.search(tail)
        tail = tail[space.end():] if space else tail
    if len(content) > _JUNCTION_REACH:
        cut = max(head.rfind(" "), head.rfind("\n"))
        head = head[:cut] if cut > 0 else head
    return neutralise(f"{tail}\n{head}")


def _visible(value: str) -> str:
    """`value` stripped of whitespace, or "" when it holds no visible character: a source_id
    of format characters only (zero-width space, word joiner, BOM, soft hyphen: category Cf)
    and whitespace names no source."""
    value = value.strip()
    if value.isascii() or not value:
        return value
    if all(c.isspace() or unicodedata.category(c) == "Cf" for c in value):
        return ""
    return value


def _provenance(fields: Mapping[str, Any]) -> Mapping[str, Any]:
    value = fields.get("provenance") or fields.get("provenance_hint") or {}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        value = dataclasses.asdict(value)
    return value if isinstance(value, Mapping) else {}
