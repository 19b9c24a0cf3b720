"""The links projection: typed relations between items."""

from __future__ import annotations

import apsw

from ...domain import events as ev
from ...domain.events import Event
from .base import ItemChange

LINKS_DDL = """
CREATE TABLE memory_links (
    src_id     TEXT NOT NULL,
    dst_id     TEXT NOT NULL,
    rel        TEXT NOT NULL,
    created_at TEXT NOT NULL,
    seq        INTEGER NOT NULL,
    PRIMARY KEY (src_id, dst_id, rel)
) WITHOUT ROWID;
CREATE INDEX idx_links_dst ON memory_links(dst_id);
"""
INSERT_SQL = "INSERT OR IGNORE INTO memory_links VALUES (?, ?, ?, ?, ?)"


class LinksProjector:
    name = "links"
    tables = ("memory_links",)

    def apply(self, conn: apsw.Connection, event: Event, changes: list[ItemChange]) -> None:
        if event.type == ev.LINK_CREATED:
            p = event.payload
            conn.execute(INSERT_SQL, (p["src"], p["dst"], p["rel"], event.ts, event.seq))
        elif event.type == ev.ITEM_SUPERSEDED:
            p = event.payload
            conn.execute(INSERT_SQL, (p["by"], p["id"], "supersedes", event.ts, event.seq))
