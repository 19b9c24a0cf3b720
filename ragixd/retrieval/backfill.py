"""Back-filling vectors off the write path: for slow embedders (Ollama, ONNX), and for a model
added to a store that already has items. Computed vectors are submitted as commands, so they
land in the log like every other change and replay never calls a model."""

from __future__ import annotations

import threading
import time
from typing import Any, Callable

import apsw

from ..domain.commands import RecordEmbedding
from ..domain.item import MemoryItem
from ..embed.protocol import Embedder
from ..errors import RagixError
from ..logs import get
from ..store.projectors.items import row_to_item
from ..store.queries import ITEM_COLS
from .embedding import embedding_text, vector_to_bytes

logger = get("ragixd.backfill")

MISSING_SQL = (
    f"SELECT {ITEM_COLS} FROM memory_items i LEFT JOIN item_vectors v ON v.model=? AND v.rid=i.rid "
    "WHERE +i.archived=0 AND (v.rid IS NULL OR v.content_hash != i.content_hash) ORDER BY i.rid LIMIT ?"
)
PROGRESS_SQL = (
    "SELECT (SELECT count(*) FROM memory_items WHERE archived=0), "
    "(SELECT count(*) FROM memory_items i JOIN item_vectors v ON v.model=? AND v.rid=i.rid "
    " AND v.content_hash=i.content_hash WHERE i.archived=0)"
)

Submit = Callable[[list[Any]], list[Any]]  # commands -> results, after commit


def missing(conn: apsw.Connection, model: str, limit: int) -> list[MemoryItem]:
    return [row_to_item(r)[1] for r in conn.execute(MISSING_SQL, (model, limit))]


def progress(conn: apsw.Connection, model: str) -> dict[str, int]:
    items, embedded = conn.execute(PROGRESS_SQL, (model,)).fetchone()
    return {"items": items, "embedded": embedded, "missing": items - embedded}


def embed_commands(embedder: Embedder, items: list[MemoryItem]) -> list[RecordEmbedding]:
    vectors = embedder.embed_batch([embedding_text(i) for i in items])
    return [RecordEmbedding(i.id, embedder.model_name, vector_to_bytes(v), int(v.shape[0]), i.content_hash)
            for i, v in zip(items, vectors)]


class Backfiller:
    """A thread that keeps one model's vectors complete. `caught_up_seq` is the head seq at
    the start of the last pass that found nothing missing (min_seq waits for it)."""

    def __init__(self, embedder: Embedder, reader: Callable[[], apsw.Connection],
                 head: Callable[[], int], submit: Submit, batch: int = 32, idle_s: float = 0.5,
                 retry_s: float = 30.0) -> None:
        self.embedder = embedder
        self.reader = reader
        self.head = head
        self.submit = submit
        self.batch = batch
        self.idle_s = idle_s
        self.retry_s = retry_s
        self.caught_up_seq = 0
        self.indexed_seq = 0  # the last caught_up_seq seen with the vector index at or past it
        self.available = True
        self.last_error = ""
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True,
                                        name=f"ragixd-backfill-{embedder.model_name}")

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        self._thread.join(10)

    def wake(self) -> None:
        self._wake.set()

    def run_once(self) -> int:
        """One pass: embed up to `batch` missing items; return how many were recorded."""
        start = self.head()
        if start == self.caught_up_seq and start > 0:
            return 0  # nothing committed since a pass that found nothing missing: no scan
        todo = missing(self.reader(), self.embedder.model_name, self.batch)
        if not todo:
            self.caught_up_seq = max(self.caught_up_seq, start)
            return 0
        results = self.submit(embed_commands(self.embedder, todo))
        return sum(1 for r in results if isinstance(r, dict) and r.get("status") == "embedded")

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                done = self.run_once()
                self.available, self.last_error = True, ""
            except RagixError as err:
                self.available, self.last_error = False, err.message
                logger.warning("backfill.unavailable", model=self.embedder.model_name, error=err.message)
                self._wait_to_retry()
                continue
            except Exception as err:  # never let a model error kill the daemon
                self.available, self.last_error = False, str(err)
                logger.exception("backfill.failed", model=self.embedder.model_name)
                self._wait_to_retry()
                continue
            if done == 0:
                self._wake.wait(self.idle_s)
                self._wake.clear()

    def _wait_to_retry(self) -> None:
        """Wait retry_s before trying the model again, or less: until the embedder has
        answered someone else meanwhile (a search's query embedded: its `last_error` cleared),
        so the items written during an outage are embedded within a second of its end, not
        up to retry_s later while searches already work."""
        deadline = time.monotonic() + self.retry_s
        failing = bool(getattr(self.embedder, "last_error", ""))  # the embedder says it failed
        while not self._stop.is_set():
            left = deadline - time.monotonic()
            if left <= 0 or (failing and getattr(self.embedder, "last_error", "") == ""):
                return
            self._stop.wait(min(1.0, left))

    def wait_caught_up(self, seq: int, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while self.caught_up_seq < seq and self.available:
            if time.monotonic() > deadline:
                return False
            self.wake()
            time.sleep(0.01)
        return True
