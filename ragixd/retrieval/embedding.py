"""Embedding items: the text an item is embedded from, the inline enricher that adds an
item.embedded event to every write whose text changed, and vector (de)serialisation.

Vectors travel in events as float32 little-endian bytes, so replay never calls a model.
"""

from __future__ import annotations

from typing import Any, Iterable

import numpy as np

from ..domain import events as ev
from ..domain.commands import Context
from ..domain.item import MemoryItem, apply_patch, item_from_dict
from ..embed.protocol import Embedder

TEXT_FIELDS = ("title", "content", "tags", "entities")


def embedding_text(item: MemoryItem) -> str:
    parts = [item.title, item.content]
    if item.tags:
        parts.append(" ".join(item.tags))
    if item.entities:
        parts.append(" ".join(item.entities))
    return "\n".join(p for p in parts if p)


def vector_to_bytes(vector: np.ndarray) -> bytes:
    return np.asarray(vector, dtype="<f4").tobytes()


def vector_from_bytes(data: bytes, dimension: int) -> np.ndarray:
    vec = np.frombuffer(data, dtype="<f4")
    if vec.shape[0] != dimension:
        raise ValueError(f"vector has {vec.shape[0]} values, expected {dimension}")
    return vec.astype(np.float32)


def embedded_event(item_id: str, content_hash: str, model: str, vector: np.ndarray) -> ev.NewEvent:
    return ev.NewEvent(ev.ITEM_EMBEDDED, {
        "id": item_id, "model": model, "dimension": int(vector.shape[0]),
        "vector": vector_to_bytes(vector), "content_hash": content_hash,
    })


def items_needing_vectors(events: Iterable[ev.NewEvent], view: Any, ts: str) -> list[MemoryItem]:
    """Items created, or updated in a field that feeds the embedding, by these events."""
    out = []
    for e in events:
        if e.type == ev.ITEM_CREATED:
            out.append(item_from_dict(e.payload["item"]))
        elif e.type == ev.ITEM_UPDATED and any(f in e.payload["patch"] for f in TEXT_FIELDS):
            current = view.get_item(e.payload["id"])
            if current is not None:
                out.append(apply_patch(current, e.payload["patch"], ts))
    return out


class InlineEmbedding:
    """An enricher for fast embedders (the hash embedder): vectors are computed as the write
    is decided and appended in the same transaction."""

    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder

    def __call__(self, events: list[ev.NewEvent], view: Any, ctx: Context) -> list[ev.NewEvent]:
        items = items_needing_vectors(events, view, ctx.ts)
        if not items:
            return []
        vectors = self.embedder.embed_batch([embedding_text(i) for i in items])
        return [embedded_event(i.id, i.content_hash, self.embedder.model_name, v)
                for i, v in zip(items, vectors)]
