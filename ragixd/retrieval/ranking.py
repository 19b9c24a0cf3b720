"""Ranking the candidates of one hybrid search on their light rows: each fused score nudged by
tag overlap, provenance quality, recency and usage. Plain Python over rows already read: no I/O.

Only the candidates that could still reach the best few are scored. Each signal lies in
[0, 1], so a candidate's score is at most its fused score plus the sum of the signal weights;
once that falls below the score of the `keep`-th best scored so far, neither it nor any
candidate fused lower can enter the best `keep`. Those wait, and are scored only if a
neighbour lends them context (see HybridSearch._with_neighbours). A signal added after the
ranking (the entity signal, HybridSearch._with_entities) widens the bound of the candidates
that will get it by its weight.
"""

from __future__ import annotations

import heapq
import json
from dataclasses import dataclass
from datetime import datetime

from ..domain import scoring
from ..store.queries import Candidate

SIGNALS = ("fused", "tag", "provenance", "recency", "usage")
# Left between a waiting candidate's best possible score and the keep-th best: far above the
# rounding of a sum of five terms, and above the 12 digits ties are broken at.
_MARGIN = 1e-9
_loads = json.JSONDecoder().decode


@dataclass
class Scored:
    """A hit while ranking, before its item is decoded: a candidate's light row, or only the
    row id and id of an item lent context by a neighbour. Its signals are kept as plain floats
    (fused, tag, provenance, recency, usage) and become a mapping only for the hits returned."""
    rid: int
    id: str
    score: float
    parts: tuple[float, ...]
    cand: Candidate | None = None
    neighbour: float | None = None
    entity: float | None = None

    def signals(self) -> dict[str, float]:
        out = dict(zip(SIGNALS, self.parts))
        if self.neighbour is not None:
            out["neighbour"] = self.neighbour
        if self.entity is not None:
            out["entity"] = self.entity
        return out


def order(hit: Scored) -> tuple[float, str]:
    """Sort key: best score first, ties by id."""
    return (-round(hit.score, 12), hit.id)


class Ranking:
    """The candidates of one search with their fused scores, scored on demand."""

    def __init__(self, cands: dict[int, Candidate], fused: dict[int, float], query: str, now: datetime,
                 weights: tuple[float, float, float, float], half_life_days: float,
                 named: set[int] | None = None, later: float = 0.0) -> None:
        self.cands = cands
        self.fused = fused
        self.weights = weights
        self.signals = Signals(scoring.query_tags(query), now, half_life_days)
        # A recency above 1 (a half-life below 0) breaks the bound: then everything is scored.
        self.reach = sum(max(w, 0.0) for w in weights) if half_life_days > 0 else float("inf")
        # `named` candidates gain `later` after this ranking (the entity signal): their bound
        # is that much higher.
        self.named = named or set()
        self.later = max(later, 0.0) if self.named else 0.0
        self.waiting: dict[int, Candidate] = {}

    def best(self, keep: int) -> list[Scored]:
        """Best first, every candidate that could be among the best `keep` (and maybe more);
        the others wait (see late)."""
        fused, reach, keep = self.fused, self.reach, max(keep, 1)
        by_fused = sorted(self.cands.values(), key=lambda cand: -fused.get(cand.rid, 0.0))
        hits: list[Scored] = []
        kept: list[float] = []  # the best `keep` scores so far, smallest first
        named, later = self.named, self.later
        for at, cand in enumerate(by_fused):
            if len(kept) >= keep:
                bound = fused.get(cand.rid, 0.0) + reach
                if bound + later < kept[0] - _MARGIN:  # nor any after it, even a named one
                    self.waiting.update((c.rid, c) for c in by_fused[at:])
                    break
                if bound < kept[0] - _MARGIN and cand.rid not in named:
                    self.waiting[cand.rid] = cand
                    continue
            hit = self.score(cand)
            hits.append(hit)
            if len(kept) < keep:
                heapq.heappush(kept, hit.score)
            elif hit.score > kept[0]:
                heapq.heapreplace(kept, hit.score)
        hits.sort(key=order)
        return hits

    def late(self, rid: int) -> Scored | None:
        """A waiting candidate scored now (None if `rid` is not one)."""
        cand = self.waiting.pop(rid, None)
        return self.score(cand) if cand is not None else None

    def score(self, cand: Candidate) -> Scored:
        w_tag, w_provenance, w_recency, w_usage = self.weights
        base = self.fused.get(cand.rid, 0.0)
        tag, provenance, recency, usage = self.signals.of(cand)
        score = base + w_tag * tag + w_provenance * provenance + w_recency * recency + w_usage * usage
        return Scored(cand.rid, cand.id, score, (base, tag, provenance, recency, usage), cand)


class Signals:
    """The per-item signals of one search, remembered by their inputs: candidates share tag
    sets, provenance shapes and often timestamps, and each costs a parse."""

    def __init__(self, query_tags: set[str], now: datetime, half_life_days: float) -> None:
        self.query_tags = query_tags
        self.now = now
        self.half_life_days = half_life_days
        self.tags: dict[str, float] = {}
        self.recency: dict[str, float] = {}

    def of(self, cand: Candidate) -> tuple[float, float, float, float]:
        """(tag, provenance, recency, usage) of a candidate."""
        tag = self.tags.get(cand.tags)
        if tag is None:
            tag = scoring.tag_overlap(self.query_tags, _loads(cand.tags)) if self.query_tags else 0.0
            self.tags[cand.tags] = tag
        recency = self.recency.get(cand.updated_at)
        if recency is None:
            recency = scoring.recency(cand.updated_at, self.now, self.half_life_days)
            self.recency[cand.updated_at] = recency
        return (tag, scoring.provenance_quality(cand.source_kind, bool(cand.source_id), cand.hashes > 0),
                recency, scoring.usage_signal(cand.usage_count, cand.mention_count))
