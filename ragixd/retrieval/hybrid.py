"""Hybrid recall: full-text and vector candidates, fused, then nudged by tag overlap,
provenance quality, recency and usage. Deterministic for a fixed store and embedder: ties
are broken by item id.

Vectors add candidates of their own (they do not only re-rank full-text hits). Fusion is
score blending by default (BM25 by its ratio to the best, similarities min-max); reciprocal-rank
fusion is available for comparison. Vector neighbours below the embedder's min_similarity are
not candidates.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import apsw
import numpy as np

from ..domain import scoring
from ..domain.item import MemoryItem, source_key
from ..errors import ConfigError, InvalidInput, RagixError
from ..nowait import no_waiting, waiting_allowed
from ..store import neighbours, queries
from ..store.filters import Filters
from ..store.queries import Candidate
from . import entities
from .ranking import Ranking, Scored, order
from .vector_store import VectorStore

MODES = ("fts", "vector", "hybrid")
# Filters keeping at most this many items are searched exactly: ~7 µs a vector (fetching it
# from the index and widening f16), so at most ~14 ms, where the approximate index searched
# 16x deeper and filtered after costs ~35 ms at 100k items and still misses most of them.
EXACT_MAX = 2000
# The vector list's weight for an embedder that names none: a learned sentence model.
MODEL_VECTOR_WEIGHT = 0.75
# The fewest hits a search ranks for (the default k): fewer asked for are the first of these.
DEPTH_FLOOR = 10


@dataclass(frozen=True)
class RecallConfig:
    fusion: str = "blend"        # "blend" (normalised scores) or "rrf" (reciprocal ranks)
    rrf_k: float = 60.0
    w_fts: float = 1.0           # weight of the full-text list in the fusion
    # Weight of the vector list in the fusion; None: the embedder's own (`fusion_weight`: 0.5
    # for the hash embedder, MODEL_VECTOR_WEIGHT for a learned model, whose neighbours are
    # worth more: onnx hybrid measured R@10 0.746 / 0.750 / 0.737 on LoCoMo and nDCG@10 0.777 /
    # 0.786 / 0.791 on BEIR at 0.5 / 0.75 / 1.0).
    w_vector: float | None = None
    candidates: int = 50         # candidates taken from each source (at least 4 × k)
    # Full-text candidates are the items holding every query word when there are at least
    # this many times k of them (a cheap intersection), else the best holding any word;
    # 0 asks for `candidates` of them.
    all_words_enough: int = 1
    w_tag: float = 0.05          # tag overlap between query words and item tags
    w_provenance: float = 0.03   # seed 002's provenance quality
    w_recency: float = 0.02      # exp decay on updated_at
    recency_half_life_days: float = 30.0
    w_usage: float = 0.02        # usage and mention counts
    # Context: items written just before or after a strong hit (the turns around a chat
    # message, the chunks around a passage) inherit this share of its score.
    w_neighbour: float = 0.5
    neighbour_span: int = 2       # how many items of the same source on each side
    neighbour_top: int = 20       # how many of the best hits lend their context
    # Entities: hits whose item lists an entity the query names ("what did Alice say about …"
    # and items of entities ["Alice"]) gain this much, after the context is lent (the turns
    # around a hit do not inherit it). See entities.py.
    w_entity: float = 0.4

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> RecallConfig:
        known = set(cls.__dataclass_fields__)
        unknown = set(data) - known
        if unknown:
            raise ConfigError(f"unknown [recall] keys: {', '.join(sorted(unknown))}")
        ints = ("candidates", "all_words_enough", "neighbour_span", "neighbour_top")
        config = cls(**{k: (str(v) if k == "fusion" else int(v) if k in ints else float(v))
                        for k, v in data.items()})
        if config.fusion not in ("rrf", "blend"):
            raise ConfigError("[recall] fusion must be rrf or blend")
        config.check()
        return config

    def check(self) -> None:
        """Every weight a finite number >= 0, and the counts and scales that must be positive."""
        for name in self.__dataclass_fields__:
            value = getattr(self, name)
            if name == "fusion" or value is None:
                continue
            if not math.isfinite(value) or value < 0:
                raise ConfigError(f"[recall] {name} must be a finite number >= 0, not {value}")
        for name in ("rrf_k", "candidates", "recency_half_life_days"):
            if getattr(self, name) <= 0:
                raise ConfigError(f"[recall] {name} must be > 0")
        if self.w_fts == 0 and self.w_vector == 0:
            raise ConfigError("[recall] w_fts and w_vector cannot both be 0: nothing would rank the hits")


@dataclass
class Hit:
    item: MemoryItem
    score: float
    signals: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class _Started:
    """A query's vector search under way on the side: the query being embedded, then searched
    exactly over `subset` (a small filtered one) or else in the index; `first` gives
    (vector, neighbours)."""
    embedder: Any
    subset: list[int] | None
    first: Future


class HybridSearch:
    def __init__(self, config: RecallConfig, vectors: VectorStore | None = None, embedder: Any = None) -> None:
        self.config = config
        self.vectors = vectors
        self.embedder = embedder
        # Where index searches run beside full-text ones (threads start at the first search).
        self._side = ThreadPoolExecutor(max_workers=2, thread_name_prefix="ragix-vsearch")

    def search(self, conn: apsw.Connection, query: str, filters: Filters, k: int = 10,
               mode: str = "hybrid", now: datetime | None = None) -> tuple[list[Hit], str]:
        """Hits best first and the mode actually used (hybrid falls back to fts without vectors).

        Candidates are ranked on light rows (ids, tags, provenance, dates, counts); only the
        final k items are decoded.
        """
        if mode not in MODES:
            raise InvalidInput("mode", f"must be one of {', '.join(MODES)}")
        with queries.snapshot(conn):
            return self._search(conn, query, filters, k, mode, now)

    def _search(self, conn: apsw.Connection, query: str, filters: Filters, want: int, mode: str,
                now: datetime | None) -> tuple[list[Hit], str]:
        # Candidates are gathered and ranked as for at least DEPTH_FLOOR hits, whatever fewer are
        # asked for, so that the best k of a search are the first k of the same search asked for
        # more (up to the floor): a caller showing the top 3 sees the top 3 of the top 10.
        k = max(want, DEPTH_FLOOR)
        n = max(self.config.candidates, 4 * k)
        used = mode
        started = None
        beside: Future | None = None  # the full-text candidates, when read on the side
        if mode != "fts":
            try:
                if self._searchable(query):
                    subset = self._subset(conn, filters)
                    vector = None
                    if mode == "hybrid" and not self.vectors.overlaps(self.embedder.model_name):
                        # the table's search runs here (see _start_vectors): the full-text
                        # query on the side meanwhile. The query is embedded first: embedding
                        # is Python, which would wait for the GIL behind the full-text query's
                        # (hybrid at 1M in process, p50, alternating: 7.28 -> 6.78 ms; no change
                        # at 100k)
                        vector = self.embedder.embed_batch([query])[0]
                        beside = self._beside(queries.search_candidates, conn, query, filters, n,
                                              self.config.all_words_enough * k)
                    started = self._start_vectors(query, subset, n, vector)
            except RagixError:
                if mode == "vector":
                    raise
                used = "fts"
            except BaseException:
                if beside is not None:  # it reads this connection: not past the snapshot's end
                    beside.exception()
                raise
        if beside is not None:
            lexical = beside.result()
        else:
            lexical = (queries.search_candidates(conn, query, filters, n, self.config.all_words_enough * k)
                       if mode != "vector" else [])
        semantic: list[tuple[Candidate, float]] = []
        if started is not None:
            try:
                semantic = self._vector_candidates(conn, started, filters, n, k, {c.rid: c for c, _ in lexical})
            except RagixError:
                if mode == "vector":
                    raise
                used = "fts"
        if mode == "hybrid" and used == "hybrid" and not self._has_vectors():
            used = "fts"
        c = self.config
        lending = c.w_neighbour > 0
        ranking = self._ranking(query, lexical, semantic, now or datetime.now(UTC))
        ranked = ranking.best(max(k, c.neighbour_top) if lending else k)
        if lending and ranked:
            ranked = self._with_neighbours(conn, ranking, ranked, filters)
        if c.w_entity > 0 and ranked:
            ranked = self._with_entities(conn, query, ranking.named, ranked)
        top = ranked[:want]
        items = queries.items_by_rid(conn, [h.rid for h in top])
        return [Hit(items[h.rid], h.score, h.signals()) for h in top if h.rid in items], used

    def vector_weight(self) -> float:
        """The vector list's weight in the fusion: the config's, else the embedder's own."""
        if self.config.w_vector is not None:
            return self.config.w_vector
        return float(getattr(self.embedder, "fusion_weight", MODEL_VECTOR_WEIGHT))

    def close(self) -> None:
        """Stop the side threads."""
        self._side.shutdown(wait=True)

    def _has_vectors(self) -> bool:
        return bool(self.vectors and self.embedder and self.vectors.indexes.get(self.embedder.model_name))

    @staticmethod
    def _subset(conn: apsw.Connection, filters: Filters) -> list[int] | None:
        """The row ids a narrowing filter keeps, when they are few enough to search exactly
        (see _start_vectors); None to search the index."""
        return queries.filtered_rids(conn, filters, EXACT_MAX) if filters.narrowing else None

    def _searchable(self, query: str) -> bool:
        """Whether the query has vectors to search (a blank text has nothing to be near)."""
        if not self._has_vectors() or not query.strip():
            return False
        is_blank = getattr(self.embedder, "is_blank", None)
        return not (is_blank is not None and is_blank(query))

    def _start_vectors(self, query: str, subset: list[int] | None, n: int,
                       vector: np.ndarray | None = None) -> _Started:
        """Start embedding the query (unless `vector` is its embedding already) and searching
        its neighbours on the side, beside the full-text query, or do it now when the index
        search would not leave the GIL.

        A filter that keeps few items (`subset`: a rare tag, an empty tier) is answered exactly
        over those items instead: the approximate index would have to be searched far past
        them."""
        embedder = self.embedder
        if self.vectors.overlaps(embedder.model_name):
            return _Started(embedder, subset, self._beside(self._embed_and_search, embedder, query, subset, n))
        # A table's search is many short numpy calls, each giving up and retaking the GIL:
        # beside Python they wait for it, so it runs here, and the full-text query (mostly
        # SQLite's, outside the GIL) on the side (hybrid at 100k items, in process, p50:
        # table beside 5.1 ms, in turn 4.2; full text beside 3.8-4.2, in turn 4.0-4.8).
        done: Future = Future()
        done.set_result(self._embed_and_search(embedder, query, subset, n, vector))
        return _Started(embedder, subset, done)

    def _embed_and_search(self, embedder: Any, query: str, subset: list[int] | None,
                          n: int, vector: np.ndarray | None = None) -> tuple[Any, list[tuple[int, float]]]:
        if vector is None:
            vector = embedder.embed_batch([query])[0]
        if subset is not None:
            return vector, self.vectors.exact(embedder.model_name, vector, subset, n)
        return vector, self.vectors.search(embedder.model_name, vector, n)

    def _beside(self, fn: Any, *args: Any) -> Future:
        """Run fn(*args) on the side thread, waiting or not as the caller may (see nowait)."""
        if waiting_allowed():
            return self._side.submit(fn, *args)

        def without_waiting() -> Any:
            with no_waiting():
                return fn(*args)
        return self._side.submit(without_waiting)

    def _vector_candidates(self, conn: apsw.Connection, started: _Started, filters: Filters, n: int, k: int,
                           known: dict[int, Candidate]) -> list[tuple[Candidate, float]]:
        """Up to n nearest items that pass the filters, best first (at least the k asked for
        when there are that many); `known` ones passed them already. Exactly over a small
        filtered subset; otherwise from the index search started beside the full-text one,
        looking further while too few passed the filters."""
        vector, raw = started.first.result()
        floor = getattr(started.embedder, "min_similarity", None)
        raw = _above(floor, raw)
        if started.subset is not None:
            return self._passing(conn, raw, filters, known)[:n]
        want = n
        # Best first: once one falls below the floor, every one after it does too, and a list
        # cut short by the floor reads as an exhausted index (no wider search).
        while True:
            ranked = self._passing(conn, raw, filters, known)
            if len(ranked) >= n or len(raw) < want or want >= 16 * n:
                return ranked[:n]
            if len(ranked) >= k and want >= 4 * n:
                return ranked  # enough for the answer: a wider search costs more than it adds
            want *= 4  # filters removed many: look further
            raw = _above(floor, self.vectors.search(started.embedder.model_name, vector, want))

    @staticmethod
    def _passing(conn: apsw.Connection, raw: list[tuple[int, float]], filters: Filters,
                 known: dict[int, Candidate]) -> list[tuple[Candidate, float]]:
        """The (candidate, similarity) pairs of `raw` that pass the filters, best first."""
        found = {**queries.candidates(conn, [rid for rid, _ in raw if rid not in known], filters),
                 **{rid: known[rid] for rid, _ in raw if rid in known}}
        return sorted(((found[rid], sim) for rid, sim in raw if rid in found),
                      key=lambda pair: (-pair[1], pair[0].id))

    def _with_neighbours(self, conn: apsw.Connection, ranking: Ranking, ranked: list[Scored],
                         filters: Filters) -> list[Scored]:
        """The hits with the context lent by the best ones to their neighbours (candidates left
        waiting by the ranking are scored when lent some)."""
        c = self.config
        by_rid = {h.rid: h for h in ranked}
        anchors = [(h, source_key(h.cand.source_id)) for h in ranked[: c.neighbour_top] if h.cand]
        anchors = [(h, source) for h, source in anchors if source is not None]
        found = neighbours.near(conn, [(h.cand, source) for h, source in anchors], c.neighbour_span * 4,
                                c.neighbour_span, filters)
        lent: dict[int, float] = {}
        for (hit, _source), around in zip(anchors, found):
            for near in around:
                lent[near.rid] = max(lent.get(near.rid, 0.0), c.w_neighbour * hit.score)
                if near.rid not in by_rid:
                    by_rid[near.rid] = ranking.late(near.rid) or Scored(near.rid, near.id, 0.0, (0.0,))
        for rid, bonus in lent.items():
            hit = by_rid[rid]
            hit.neighbour = bonus
            hit.score += bonus
        out = list(by_rid.values())
        out.sort(key=order)
        return out

    def _with_entities(self, conn: apsw.Connection, query: str, named: set[int],
                       ranked: list[Scored]) -> list[Scored]:
        """The hits, those whose item lists an entity the query names (`named`: the candidates
        that do; neighbours lent context are read here) raised by w_entity."""
        weight = self.config.w_entity
        lifted = named | entities.named(conn, query, [h.rid for h in ranked if h.cand is None])
        if not lifted:
            return ranked
        for hit in ranked:
            if hit.rid in lifted:
                hit.entity = weight
                hit.score += weight
        return sorted(ranked, key=order)

    def _ranking(self, query: str, lexical: list[tuple[Candidate, float]],
                 semantic: list[tuple[Candidate, float]], now: datetime) -> Ranking:
        c = self.config
        cands = {cand.rid: cand for cand, _ in lexical}
        cands.update({cand.rid: cand for cand, _ in semantic})
        fused = self._fuse(lexical, semantic) if cands else {}
        named = (entities.named_among(query, ((cand.rid, cand.entities) for cand in cands.values()))
                 if c.w_entity > 0 else set())
        return Ranking(cands, fused, query, now, (c.w_tag, c.w_provenance, c.w_recency, c.w_usage),
                       c.recency_half_life_days, named, c.w_entity)

    def _fuse(self, lexical: list[tuple[Candidate, float]],
              semantic: list[tuple[Candidate, float]]) -> dict[int, float]:
        c = self.config
        lists = [(lexical, c.w_fts, True), (semantic, self.vector_weight(), False)]
        lists = [(hits, w, ratio) for hits, w, ratio in lists if hits and w > 0]  # weight 0: left out
        if not lists:
            return {}
        if c.fusion == "blend":  # BM25 scores by their ratio to the best, similarities min-max
            fused = scoring.blend([{i.rid: s for i, s in hits} for hits, _, _ in lists],
                                  [w for _, w, _ in lists], [ratio for _, _, ratio in lists])
            top = sum(w for _, w, _ in lists)
        else:
            fused = scoring.rrf([[i.rid for i, _ in hits] for hits, _, _ in lists], c.rrf_k, [w for _, w, _ in lists])
            top = sum(w / (c.rrf_k + 1) for _, w, _ in lists)
        return {key: value / top for key, value in fused.items()}


def _above(floor: float | None, raw: list[tuple[int, float]]) -> list[tuple[int, float]]:
    """The neighbours similar enough to count (the embedder's min_similarity, if it has one)."""
    return raw if floor is None else [(rid, sim) for rid, sim in raw if sim >= floor]
