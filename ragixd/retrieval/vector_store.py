"""The usearch projection: one vector index per embedding model, keyed by item row id.

It follows the log after each commit (item.embedded adds or replaces a vector; archiving or
superseding removes the item from every index), remembers the last seq it reflects, and
saves checkpoints beside the database. On open it loads each index file and catches up from
the log; a missing or damaged file is rebuilt from the log, which holds every vector.
Archived and superseded items are therefore never returned.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Iterable

import apsw
import numpy as np

from ..domain import events as ev
from ..domain.events import Event
from ..embed.hashing import is_hash_model
from ..errors import ConfigError
from ..logs import get
from ..store import log
from ..vectors.index import VectorIndex
from .embedding import vector_from_bytes

logger = get("ragixd.vectors")
REMOVING = (ev.ITEM_ARCHIVED, ev.ITEM_SUPERSEDED)
# An index's layout past 10k vectors: "auto" gives the hash embedder's models the column-scan
# table (exact for short queries, where a graph finds two thirds of the top 10) and every other
# model the HNSW graph; "graph" or "scan" gives every model that one.
LAYOUTS = ("auto", "graph", "scan")


def layout_from_mapping(data: dict) -> str:
    """The layout of a [vectors] config table; ConfigError naming what is wrong."""
    unknown = sorted(set(data) - {"layout"})
    if unknown:
        raise ConfigError(f"unknown [vectors] keys: {', '.join(unknown)} (known: layout)")
    layout = data.get("layout", "auto")
    if layout not in LAYOUTS:
        raise ConfigError(f"[vectors] layout = {layout!r}: must be one of {', '.join(LAYOUTS)}")
    return layout


def _safe_name(model: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in model)


def _in_log(conn: apsw.Connection, seq: int, event_hash: str) -> bool:
    """Whether a checkpoint at `seq` (with its event's hash, when the sidecar has one) is of
    this log: a seq past the head, or another event there, means the index was saved from a
    log that is not this one, and it is rebuilt instead of trusted."""
    if seq == 0:
        return True
    row = conn.execute("SELECT hash FROM memory_events WHERE seq = ?", (seq,)).fetchone()
    return row is not None and (not event_hash or row[0] == event_hash)


class VectorStore:
    def __init__(self, directory: Path, checkpoint_every_s: float = 30.0, layout: str = "auto") -> None:
        if layout not in LAYOUTS:
            raise ValueError(f"layout must be one of {', '.join(LAYOUTS)}, not {layout!r}")
        self.layout = layout
        self.directory = Path(directory)
        self.indexes: dict[str, VectorIndex] = {}
        self.seq = 0
        self.seq_hash = ""  # the hash of the log's event at seq, kept in each checkpoint
        self.checkpoint_every_s = checkpoint_every_s
        self._last_save = time.monotonic()
        self._lock = threading.RLock()

    def _index(self, model: str, dimension: int) -> VectorIndex:
        index = self.indexes.get(model)
        if index is None:
            self.directory.mkdir(parents=True, exist_ok=True)
            index = VectorIndex(self.directory / f"{_safe_name(model)}.usearch", dimension, model=model,
                                layout=self.layout_of(model))
            self.indexes[model] = index
        return index

    def layout_of(self, model: str) -> str:
        """The layout this store gives `model`'s index past 10k vectors."""
        if self.layout != "auto":
            return self.layout
        return "scan" if is_hash_model(model) else "graph"

    def current_layout(self, model: str) -> str:
        """How `model`'s vectors are held now: "flat" (up to 10k, or no index yet), else its
        index's layout."""
        index = self.indexes.get(model)
        return "flat" if index is None or index.is_flat else index.layout

    # -- opening and catching up -------------------------------------------------------------

    def open(self, conn: apsw.Connection) -> dict[str, int]:
        """Load every model's index named in the store, then catch up from the log."""
        models = conn.execute("SELECT model, max(dimension) FROM item_vectors GROUP BY model").fetchall()
        start = None
        loaded: dict[str, int] = {}
        for model, dimension in models:
            index = self._index(model, dimension)
            checkpoint = index.load()
            if checkpoint is not None and not _in_log(conn, checkpoint, index.checkpoint_hash):
                checkpoint = None  # saved from another log: one restored from a backup, or cut short
            if checkpoint is None:
                index.clear()
                checkpoint = 0
                logger.info("vectors.rebuild", model=model)
            loaded[model] = checkpoint
            start = checkpoint if start is None else min(start, checkpoint)
        self.seq = start or 0
        replayed = self.catch_up(conn, loaded)
        logger.info("vectors.open", models=sorted(loaded), seq=self.seq, replayed=replayed)
        return loaded

    def catch_up(self, conn: apsw.Connection, loaded: dict[str, int] | None = None,
                 progress: log.Progress | None = None) -> int:
        """Apply the log's events after the current seq (per model checkpoint when given);
        `progress` hears ("vectors", seq reached, head seq) after each batch."""
        count = 0
        batch: list[Event] = []
        head, head_hash = log.head(conn).seq, log.head(conn).hash
        for event in log.read(conn, self.seq):
            if event.type in (ev.ITEM_EMBEDDED, *REMOVING):
                batch.append(event)
            if len(batch) >= 5000:
                count += self._apply(conn, batch, loaded)
                batch = []
                if progress:
                    progress("vectors", event.seq, head)
        count += self._apply(conn, batch, loaded)
        self.seq, self.seq_hash = head, head_hash
        if progress:
            progress("vectors", head, head)
        return count

    # -- following commits -------------------------------------------------------------------

    def apply(self, conn: apsw.Connection, events: list[Event]) -> None:
        """Apply committed events (called by the writer after each commit)."""
        relevant = [e for e in events if e.type in (ev.ITEM_EMBEDDED, *REMOVING)]
        with self._lock:
            self._apply(conn, relevant)
            if events and events[-1].seq >= self.seq:
                self.seq, self.seq_hash = events[-1].seq, events[-1].hash
        if time.monotonic() - self._last_save > self.checkpoint_every_s:
            self.save()

    def _apply(self, conn: apsw.Connection, events: list[Event], loaded: dict[str, int] | None = None) -> int:
        if not events:
            return 0
        ids = {e.payload["id"] for e in events}
        rows = _rows_for(conn, ids)
        adds: dict[str, dict[int, np.ndarray]] = {}
        for e in events:
            found = rows.get(e.payload["id"])
            if found is None:
                continue
            rid, archived = found
            if e.type == ev.ITEM_EMBEDDED:
                model = e.payload["model"]
                if loaded is not None and e.seq <= loaded.get(model, 0):
                    continue  # this index's checkpoint already holds it
                vector = vector_from_bytes(e.payload["vector"], e.payload["dimension"])
                self._index(model, e.payload["dimension"])
                adds.setdefault(model, {})[rid] = vector
            else:
                for model, pending in adds.items():
                    pending.pop(rid, None)
                for index in self.indexes.values():
                    index.remove([rid])
        archived = {rid for rid, is_archived in rows.values() if is_archived}
        for model, pending in adds.items():
            keep = {rid: v for rid, v in pending.items() if rid not in archived}
            if keep:
                self.indexes[model].add(np.fromiter(keep, dtype=np.uint64), np.stack(list(keep.values())))
        return len(events)

    def save(self) -> None:
        with self._lock:
            for index in self.indexes.values():
                try:
                    index.save(self.seq, self.seq_hash)
                except Exception:  # a failed checkpoint only costs a longer catch-up
                    logger.exception("vectors.save_failed", model=index.model)
            self._last_save = time.monotonic()

    def reset(self) -> None:
        """Forget every vector (after a rebuild of the store the log is read again)."""
        with self._lock:
            for index in self.indexes.values():
                index.clear()
            self.seq, self.seq_hash = 0, ""

    # -- reading -----------------------------------------------------------------------------

    def search(self, model: str, vector: np.ndarray, k: int) -> list[tuple[int, float]]:
        index = self.indexes.get(model)
        if index is None or len(index) == 0:
            return []
        return index.search(vector, k)

    def exact(self, model: str, vector: np.ndarray, keys: list[int], k: int) -> list[tuple[int, float]]:
        index = self.indexes.get(model)
        return index.exact(vector, keys, k) if index is not None else []

    def overlaps(self, model: str) -> bool:
        """Whether this model's index search gains from running beside other work: only an
        HNSW graph's leaves the GIL throughout."""
        index = self.indexes.get(model)
        return index is not None and index.is_graph

    def counts(self) -> dict[str, int]:
        return {model: len(index) for model, index in self.indexes.items()}


def _rows_for(conn: apsw.Connection, ids: Iterable[str]) -> dict[str, tuple[int, bool]]:
    out: dict[str, tuple[int, bool]] = {}
    ids = list(ids)
    for i in range(0, len(ids), 500):
        chunk = ids[i:i + 500]
        rows = conn.execute(
            f"SELECT id, rid, archived FROM memory_items WHERE id IN ({','.join('?' * len(chunk))})", chunk)
        for item_id, rid, archived in rows:
            out[item_id] = (rid, bool(archived))
    return out
