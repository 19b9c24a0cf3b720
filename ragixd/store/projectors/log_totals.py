"""Running totals of the log (events and payload bytes), so that stats never scans the log.

Derived from the log like every projection: rebuilt by replay and compared by verify. Sizes
are collected per seq as events are applied and added once per group, at its flush, counting
only seqs up to the group's last committed event: when a group isolates its commands, one that
fails leaves events whose seqs either the next command reuses (its sizes replace them) or lie
past the group's head (they are not counted).
"""

from __future__ import annotations

import apsw

from ...domain.events import Event
from .base import ItemChange

LOG_TOTALS_DDL = """
CREATE TABLE log_totals (id INTEGER PRIMARY KEY CHECK (id = 1), events INTEGER NOT NULL,
                         payload_bytes INTEGER NOT NULL);
INSERT INTO log_totals VALUES (1, 0, 0);
"""
ADD_SQL = "UPDATE log_totals SET events = events + ?, payload_bytes = payload_bytes + ? WHERE id = 1"


class LogTotalsProjector:
    name = "log_totals"
    tables = ("log_totals",)

    def __init__(self) -> None:
        self._sizes: dict[int, int] = {}

    def apply(self, conn: apsw.Connection, event: Event, changes: list[ItemChange]) -> None:
        self._sizes[event.seq] = event.size

    def flush(self, conn: apsw.Connection, upto: int, index_text: bool = True) -> None:
        sizes, self._sizes = self._sizes, {}
        kept = [size for seq, size in sizes.items() if seq <= upto]
        if kept:
            conn.execute(ADD_SQL, (len(kept), sum(kept)))

    def discard(self) -> None:
        self._sizes = {}


def totals(conn: apsw.Connection) -> tuple[int, int]:
    """(events, payload bytes) of the log."""
    row = conn.execute("SELECT events, payload_bytes FROM log_totals WHERE id = 1").fetchone()
    return (row[0], row[1]) if row else (0, 0)
