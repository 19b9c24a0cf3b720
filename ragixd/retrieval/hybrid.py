"""Hybrid recall: full-text and vector candidates, fused, then nudged by tag overlap,
provenance quality, recency and usage. Deterministic for a fixed store and embedder: ties
are broken by item id.

Vectors add candidates of their own (they do not only re-rank full-text hits). Fusion is
reciprocal-rank fusion by default; min-max score blending is available for comparison.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Mapping

import apsw

from ..domain import scoring
from ..domain.item import MemoryItem
from ..errors import ConfigError, InvalidInput, RagixError
from ..store import queries
from ..store.filters import Filters
from ..store.projectors.items import row_to_item
from .vector_store import VectorStore

MODES = ("fts", "vector", "hybrid")


@dataclass(frozen=True)
class RecallConfig:
    fusion: str = "blend"        # "blend" (min-max scores) or "rrf" (reciprocal ranks)
    rrf_k: float = 60.0
    w_fts: float = 1.0           # weight of the full-text list in the fusion
    w_vector: float = 0.5        # weight of the vector list in the fusion
    candidates: int = 100        # candidates taken from each source (at least 4 × k)
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

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> "RecallConfig":
        known = set(cls.__dataclass_fields__)
        unknown = set(data) - known
        if unknown:
            raise ConfigError(f"unknown [recall] keys: {', '.join(sorted(unknown))}")
        ints = ("candidates", "neighbour_span", "neighbour_top")
        config = cls(**{k: (str(v) if k == "fusion" else int(v) if k in ints else float(v))
                        for k, v in data.items()})
        if config.fusion not in ("rrf", "blend"):
            raise ConfigError("[recall] fusion must be rrf or blend")
        return config


@dataclass
class Hit:
    item: MemoryItem
    score: float
    signals: dict[str, float] = field(default_factory=dict)


class HybridSearch:
    def __init__(self, config: RecallConfig, vectors: VectorStore | None = None, embedder: Any = None) -> None:
        self.config = config
        self.vectors = vectors
        self.embedder = embedder

    def search(self, conn: apsw.Connection, query: str, filters: Filters, k: int = 10,
               mode: str = "hybrid", now: datetime | None = None) -> tuple[list[Hit], str]:
        """Hits best first and the mode actually used (hybrid falls back to fts without vectors)."""
        if mode not in MODES:
            raise InvalidInput("mode", f"must be one of {', '.join(MODES)}")
        n = max(self.config.candidates, 4 * k)
        lexical = queries.search(conn, query, filters, n) if mode != "vector" else []
        semantic: list[tuple[MemoryItem, float]] = []
        used = mode
        if mode != "fts":
            try:
                semantic = self._vector_candidates(conn, query, filters, n)
            except RagixError:
                if mode == "vector":
                    raise
                used = "fts"
        if mode == "hybrid" and used == "hybrid" and not self._has_vectors():
            used = "fts"
        ranked = self._rank(query, lexical, semantic, now or datetime.now(timezone.utc))
        if self.config.w_neighbour > 0 and ranked:
            ranked = self._with_neighbours(conn, ranked, filters)
        return ranked[:k], used

    def _has_vectors(self) -> bool:
        return bool(self.vectors and self.embedder and self.vectors.indexes.get(self.embedder.model_name))

    def _vector_candidates(self, conn: apsw.Connection, query: str, filters: Filters,
                           n: int) -> list[tuple[MemoryItem, float]]:
        if not self._has_vectors() or not query.strip():
            return []
        vector = self.embedder.embed_batch([query])[0]
        found: list[tuple[MemoryItem, float]] = []
        want = n
        while True:
            raw = self.vectors.search(self.embedder.model_name, vector, want)
            found = _filter_rows(conn, raw, filters)
            if len(found) >= n or len(raw) < want or want >= 16 * n:
                return found[:n]
            want *= 4  # filters removed many: look further

    def _with_neighbours(self, conn: apsw.Connection, ranked: list[Hit], filters: Filters) -> list[Hit]:
        c = self.config
        by_id = {h.item.id: h for h in ranked}
        lent: dict[str, float] = {}
        for hit in ranked[: c.neighbour_top]:
            for item_id in _neighbour_ids(conn, hit.item, c.neighbour_span, filters):
                lent[item_id] = max(lent.get(item_id, 0.0), c.w_neighbour * hit.score)
        fresh = [i for i in lent if i not in by_id]
        for item in queries.get_items(conn, fresh, filters):
            by_id[item.id] = Hit(item, 0.0, {"fused": 0.0})
        for item_id, bonus in lent.items():
            if item_id not in by_id:
                continue
            hit = by_id[item_id]
            hit.signals["neighbour"] = bonus
            hit.score += bonus
        out = list(by_id.values())
        out.sort(key=lambda h: (-round(h.score, 12), h.item.id))
        return out

    def _rank(self, query: str, lexical: list[tuple[MemoryItem, float]],
              semantic: list[tuple[MemoryItem, float]], now: datetime) -> list[Hit]:
        c = self.config
        items = {i.id: i for i, _ in lexical}
        items.update({i.id: i for i, _ in semantic})
        if not items:
            return []
        fused = self._fuse(lexical, semantic)
        tags = scoring.query_tags(query)
        hits = []
        for item_id, item in items.items():
            signals = {
                "fused": fused.get(item_id, 0.0),
                "tag": scoring.tag_overlap(tags, item.tags),
                "provenance": scoring.provenance_quality(
                    item.provenance.source_kind, bool(item.provenance.source_id),
                    bool(item.provenance.content_hashes)),
                "recency": scoring.recency(item.updated_at, now, c.recency_half_life_days),
                "usage": scoring.usage_signal(item.usage_count, item.mention_count),
            }
            score = (signals["fused"] + c.w_tag * signals["tag"] + c.w_provenance * signals["provenance"]
                     + c.w_recency * signals["recency"] + c.w_usage * signals["usage"])
            hits.append(Hit(item, score, signals))
        hits.sort(key=lambda h: (-round(h.score, 12), h.item.id))
        return hits

    def _fuse(self, lexical: list[tuple[MemoryItem, float]],
              semantic: list[tuple[MemoryItem, float]]) -> dict[str, float]:
        c = self.config
        lists = [(lexical, c.w_fts), (semantic, c.w_vector)]
        lists = [(hits, w) for hits, w in lists if hits]
        if not lists:
            return {}
        if c.fusion == "blend":
            fused = scoring.blend([{i.id: s for i, s in hits} for hits, _ in lists], [w for _, w in lists])
            top = sum(w for _, w in lists)
        else:
            fused = scoring.rrf([[i.id for i, _ in hits] for hits, _ in lists], c.rrf_k, [w for _, w in lists])
            top = sum(w / (c.rrf_k + 1) for _, w in lists)
        return {key: value / top for key, value in fused.items()}


def source_key(source_id: str) -> str | None:
    """The source an item was cut from: its provenance source_id up to the last ':'
    ("notes.md:3" -> "notes.md", "chat-7:S2:14" -> "chat-7:S2"); None without one."""
    return source_id.rsplit(":", 1)[0] if ":" in source_id else None


NEAR_SQL = (
    "SELECT i.id, json_extract(i.provenance_json, '$.source_id') FROM memory_items i "
    "WHERE (i.created_at, i.rid) {op} (?, ?) AND {where} "
    "ORDER BY i.created_at {order}, i.rid {order} LIMIT ?"
)


def _neighbour_ids(conn: apsw.Connection, item: MemoryItem, span: int, filters: Filters) -> list[str]:
    """Ids of the items of the same source created just before and just after `item`."""
    source = source_key(item.provenance.source_id)
    if source is None:
        return []
    row = conn.execute("SELECT created_at, rid FROM memory_items WHERE id=?", (item.id,)).fetchone()
    if row is None:
        return []
    where, params = filters.where()
    out = []
    for op, order in (("<", "DESC"), (">", "ASC")):
        rows = conn.execute(NEAR_SQL.format(op=op, where=where, order=order), [*row, *params, span * 4])
        out.extend([item_id for item_id, sid in rows if source_key(sid or "") == source][:span])
    return out


def _filter_rows(conn: apsw.Connection, raw: list[tuple[int, float]], filters: Filters) -> list[tuple[MemoryItem, float]]:
    """Vector hits (rid, similarity) that pass the filters, as items, in similarity order."""
    if not raw:
        return []
    where, params = filters.where()
    sims = dict(raw)
    out: dict[int, MemoryItem] = {}
    rids = list(sims)
    for i in range(0, len(rids), 500):
        chunk = rids[i:i + 500]
        rows = conn.execute(
            f"SELECT {queries.ITEM_COLS} FROM memory_items i WHERE i.rid IN ({','.join('?' * len(chunk))}) "
            f"AND {where}", [*chunk, *params])
        for row in rows:
            rid, item = row_to_item(row)
            out[rid] = item
    ranked = sorted(out, key=lambda rid: (-sims[rid], out[rid].id))
    return [(out[rid], sims[rid]) for rid in ranked]
