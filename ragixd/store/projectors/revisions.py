"""The revisions projection: a full snapshot of an item after each change that makes one."""

from __future__ import annotations

import msgpack

import apsw

from ...domain.events import Event
from ...domain.reducer import revision_reason
from .base import ItemChange

REVISIONS_DDL = """
CREATE TABLE memory_revisions (
    rev          INTEGER PRIMARY KEY,
    item_id      TEXT NOT NULL,
    revision_num INTEGER NOT NULL,
    seq          INTEGER NOT NULL,
    event_id     TEXT NOT NULL,
    changed_at   TEXT NOT NULL,
    reason       TEXT NOT NULL,
    actor        TEXT NOT NULL,
    snapshot     BLOB NOT NULL   -- msgpack of the item as it was after the change
);
CREATE UNIQUE INDEX idx_revisions_item ON memory_revisions(item_id, revision_num);
"""
NEXT_NUM_SQL = "SELECT coalesce(max(revision_num), 0) + 1 FROM memory_revisions WHERE item_id=?"
INSERT_SQL = (
    "INSERT INTO memory_revisions(item_id, revision_num, seq, event_id, changed_at, reason, actor, snapshot) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)


class RevisionsProjector:
    name = "revisions"
    tables = ("memory_revisions",)

    def apply(self, conn: apsw.Connection, event: Event, changes: list[ItemChange]) -> None:
        reason = revision_reason(event)
        if reason is None:
            return
        for change in changes:
            num = 1 if change.before is None else conn.execute(NEXT_NUM_SQL, (change.after.id,)).fetchone()[0]
            snapshot = msgpack.packb(change.after.to_dict(), use_bin_type=True)
            conn.execute(INSERT_SQL, (change.after.id, num, event.seq, event.id, event.ts, reason,
                                      event.actor, snapshot))
