"""The vector bookkeeping projection: which items have a vector under which model, and for
which content. The vectors themselves live in the log and in the usearch index files."""

from __future__ import annotations

import apsw

from ...domain import events as ev
from ...domain.events import Event
from .base import ItemChange

VECTORS_DDL = """
CREATE TABLE item_vectors (
    model        TEXT NOT NULL,
    rid          INTEGER NOT NULL,
    dimension    INTEGER NOT NULL,
    content_hash TEXT NOT NULL,
    seq          INTEGER NOT NULL,
    PRIMARY KEY (model, rid)
) WITHOUT ROWID;
"""
# One statement finds the item's row id and records its vector (nothing when the item is
# unknown): half the statements of a lookup then an insert, one per embedded event.
UPSERT_SQL = ("INSERT OR REPLACE INTO item_vectors (model, rid, dimension, content_hash, seq) "
              "SELECT ?, rid, ?, ?, ? FROM memory_items WHERE id = ?")


class VectorsProjector:
    name = "vectors"
    tables = ("item_vectors",)

    def apply(self, conn: apsw.Connection, event: Event, changes: list[ItemChange]) -> None:
        if event.type != ev.ITEM_EMBEDDED:
            return
        p = event.payload
        conn.execute(UPSERT_SQL, (p["model"], p["dimension"], p["content_hash"], event.seq, p["id"]))
