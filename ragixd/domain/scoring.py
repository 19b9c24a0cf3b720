"""Scoring formulas for recall: provenance quality, recency, tag overlap, usage, and the
fusion of ranked lists. Pure functions over plain values."""

from __future__ import annotations

import math
from datetime import datetime
from typing import Hashable, Iterable, Mapping, Sequence

from . import clock
from .text import STOP_WORDS, fold, words


def provenance_quality(source_kind: str, has_source: bool, has_hashes: bool) -> float:
    """Seed 002's table: doc+hashes 1.0, tool+hashes 0.8, doc 0.7, chat+hashes 0.5, chat 0.2."""
    if source_kind == "doc":
        return 1.0 if has_hashes else 0.7
    if source_kind == "tool":
        return 0.8 if has_hashes else 0.4
    if source_kind == "mixed":
        return 0.6 if has_hashes else 0.35
    base = 0.5 if has_hashes else 0.2
    return base + (0.1 if has_source else 0.0)


def recency(updated_at: str, now: datetime, half_life_days: float = 14.0) -> float:
    """exp(-λ·days) with λ = ln 2 / half-life: 1.0 now, 0.5 after one half-life."""
    try:
        days = max(0.0, (now - clock.parse_ts(updated_at)).total_seconds() / 86400.0)
    except ValueError:
        return 0.5
    return math.exp(-math.log(2) / half_life_days * days)


def usage_signal(usage_count: int, mention_count: int) -> float:
    """Seed 001's mention signal extended with usage: saturates at 10 uses or mentions."""
    return min(1.0, (usage_count + max(0, mention_count - 1)) / 10.0)


def query_tags(query: str, min_len: int = 3) -> set[str]:
    """Lower-cased, folded words of at least `min_len` characters, without stop words."""
    return {w for w in (fold(t) for t in words(query)) if len(w) >= min_len and w not in STOP_WORDS}


def tag_overlap(query: set[str], item_tags: Iterable[str]) -> float:
    """Share of the item's tags named by the query (0 when either side is empty)."""
    tags = {fold(t) for t in item_tags}
    if not query or not tags:
        return 0.0
    hits = sum(1 for t in tags if t in query or any(part in query for part in t.replace("-", " ").split()))
    return hits / len(tags)


def rrf(rankings: Sequence[Sequence[Hashable]], k: float = 60.0,
        weights: Sequence[float] | None = None) -> dict[Hashable, float]:
    """Reciprocal-rank fusion: sum over lists of w / (k + rank), rank starting at 1."""
    weights = weights or [1.0] * len(rankings)
    out: dict[Hashable, float] = {}
    for ranking, weight in zip(rankings, weights):
        for rank, key in enumerate(ranking, start=1):
            out[key] = out.get(key, 0.0) + weight / (k + rank)
    return out


def blend(scores: Sequence[Mapping[Hashable, float]], weights: Sequence[float],
          ratio: Sequence[bool] | None = None) -> dict[Hashable, float]:
    """Normalise each score map to [0, 1] and add them with weights (absent = 0).

    A map marked in `ratio` is divided by its best score (negative scores count as 0): for
    scores whose ratios mean something, such as BM25, where min-max scaling would map the
    weakest real match to 0 — level with items that did not match at all. The others are
    min-max scaled: for similarities whose offset means nothing (cosines bunched in a band)."""
    out: dict[Hashable, float] = {}
    for n, (mapping, weight) in enumerate(zip(scores, weights)):
        if not mapping:
            continue
        hi = max(mapping.values())
        lo = 0.0 if ratio and ratio[n] else min(mapping.values())
        span = hi - lo
        for key, value in mapping.items():
            norm = max(value - lo, 0.0) / span if span > 0 else 1.0
            out[key] = out.get(key, 0.0) + weight * norm
    return out
