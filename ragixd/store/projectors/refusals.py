"""The refusals projection: the audit trail of refused writes (hashes and reasons, no content)."""

from __future__ import annotations

import json

import apsw

from ...domain import events as ev
from ...domain.events import Event
from .base import ItemChange

REFUSALS_DDL = """
CREATE TABLE refused_writes (
    seq          INTEGER PRIMARY KEY,
    ts           TEXT NOT NULL,
    actor        TEXT NOT NULL,
    op           TEXT NOT NULL,
    source       TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    rules        TEXT NOT NULL,
    reasons      TEXT NOT NULL
);
"""
INSERT_SQL = "INSERT OR IGNORE INTO refused_writes VALUES (?, ?, ?, ?, ?, ?, ?, ?)"


class RefusalsProjector:
    name = "refusals"
    tables = ("refused_writes",)

    def apply(self, conn: apsw.Connection, event: Event, changes: list[ItemChange]) -> None:
        if event.type != ev.WRITE_REFUSED:
            return
        p = event.payload
        conn.execute(INSERT_SQL, (event.seq, event.ts, event.actor, p["op"], p["source"],
                                  p["content_hash"], json.dumps(p["rules"]), json.dumps(p["reasons"])))
