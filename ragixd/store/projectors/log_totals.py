"""Running totals of the log (events and payload bytes), so that stats never scans the log.

Derived from the log like every projection: rebuilt by replay and compared by verify. One
statement per event, inside the event's transaction (and savepoint, when a group isolates its
commands), so a command rolled back leaves the totals as they were.
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
ADD_SQL = "UPDATE log_totals SET events = events + 1, payload_bytes = payload_bytes + ? WHERE id = 1"


class LogTotalsProjector:
    name = "log_totals"
    tables = ("log_totals",)

    def apply(self, conn: apsw.Connection, event: Event, changes: list[ItemChange]) -> None:
        conn.execute(ADD_SQL, (event.size,))


def totals(conn: apsw.Connection) -> tuple[int, int]:
    """(events, payload bytes) of the log."""
    row = conn.execute("SELECT events, payload_bytes FROM log_totals WHERE id = 1").fetchone()
    return (row[0], row[1]) if row else (0, 0)
