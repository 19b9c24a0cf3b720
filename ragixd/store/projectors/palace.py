"""The palace projection: one location (domain/room/shelf/card) per item."""

from __future__ import annotations

import apsw

from ...domain import events as ev
from ...domain.events import Event
from .base import ItemChange

PALACE_DDL = """
CREATE TABLE memory_palace_locations (
    item_id     TEXT PRIMARY KEY,
    domain      TEXT NOT NULL,
    room        TEXT NOT NULL,
    shelf       TEXT NOT NULL,
    card        TEXT NOT NULL,
    assigned_at TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX idx_palace_path ON memory_palace_locations(domain, room, shelf);
"""
UPSERT_SQL = "INSERT OR REPLACE INTO memory_palace_locations VALUES (?, ?, ?, ?, ?, ?)"


class PalaceProjector:
    name = "palace"
    tables = ("memory_palace_locations",)

    def apply(self, conn: apsw.Connection, event: Event, changes: list[ItemChange]) -> None:
        if event.type == ev.PALACE_ASSIGNED:
            p = event.payload
            conn.execute(UPSERT_SQL, (p["id"], p["domain"], p["room"], p["shelf"], p["card"], event.ts))
