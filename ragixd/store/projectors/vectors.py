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
UPSERT_SQL = "INSERT OR REPLACE INTO item_vectors VALUES (?, ?, ?, ?, ?)"


class VectorsProjector:
    name = "vectors"
    tables = ("item_vectors",)

    def apply(self, conn: apsw.Connection, event: Event, changes: list[ItemChange]) -> None:
        if event.type != ev.ITEM_EMBEDDED:
            return
        p = event.payload
        row = conn.execute("SELECT rid FROM memory_items WHERE id=?", (p["id"],)).fetchone()
        if row:
            conn.execute(UPSERT_SQL, (p["model"], row[0], p["dimension"], p["content_hash"], event.seq))
