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
    """While replaying, it remembers the last revision number it gave each item, so that an
    update does not look it up in the table (a long log's updates are most of its revisions).
    Only a replay may: its tables start empty and only it writes them, whereas a live group's
    isolated command can be rolled back after its revision was numbered. Bounded as the replay's
    item states are: cleared when full (a forgotten item is looked up again; 200k ids hold some
    tens of MB)."""

    name = "revisions"
    tables = ("memory_revisions",)
    LIMIT = 200_000

    def __init__(self) -> None:
        self._last: dict[str, int] | None = None  # item id -> last revision number, replaying

    def replaying(self, on: bool) -> None:
        self._last = {} if on else None

    def discard(self) -> None:
        if self._last is not None:
            self._last.clear()

    def apply(self, conn: apsw.Connection, event: Event, changes: list[ItemChange]) -> None:
        reason = revision_reason(event)
        if reason is None:
            return
        for change in changes:
            num = 1 if change.before is None else self._next_num(conn, change.after.id)
            snapshot = msgpack.packb(change.after.to_dict(), use_bin_type=True)
            conn.execute(INSERT_SQL, (change.after.id, num, event.seq, event.id, event.ts, reason,
                                      event.actor, snapshot))
            self._remember(change.after.id, num)

    def _next_num(self, conn: apsw.Connection, item_id: str) -> int:
        last = self._last.get(item_id) if self._last is not None else None
        if last is not None:
            return last + 1
        return conn.execute(NEXT_NUM_SQL, (item_id,)).fetchone()[0]

    def _remember(self, item_id: str, num: int) -> None:
        last = self._last
        if last is None:
            return
        if len(last) >= self.LIMIT:
            last.clear()
        last[item_id] = num
