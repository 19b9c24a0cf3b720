"""The event log: append-only, hash-chained `memory_events`. The only source of truth.

It owns the memory_events table and the triggers that refuse UPDATE and DELETE. It never
applies events to projections: that is the projectors' job.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator

import apsw

from ..domain import encoding
from ..domain.events import Event, NewEvent, upcast
from ..domain.ids import new_event_id

LOG_DDL = """
CREATE TABLE IF NOT EXISTS memory_events (
    seq       INTEGER PRIMARY KEY,
    id        TEXT NOT NULL UNIQUE,
    type      TEXT NOT NULL,
    v         INTEGER NOT NULL,
    ts        TEXT NOT NULL,
    actor     TEXT NOT NULL,
    payload   BLOB NOT NULL,
    prev_hash TEXT NOT NULL,
    hash      TEXT NOT NULL
);
CREATE TRIGGER IF NOT EXISTS memory_events_no_update BEFORE UPDATE ON memory_events
BEGIN SELECT RAISE(ABORT, 'memory_events is append-only'); END;
CREATE TRIGGER IF NOT EXISTS memory_events_no_delete BEFORE DELETE ON memory_events
BEGIN SELECT RAISE(ABORT, 'memory_events is append-only'); END;
"""

INSERT_SQL = (
    "INSERT INTO memory_events(seq, id, type, v, ts, actor, payload, prev_hash, hash) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
HEAD_SQL = "SELECT seq, hash FROM memory_events ORDER BY seq DESC LIMIT 1"
READ_SQL = (
    "SELECT seq, id, type, v, ts, actor, payload, prev_hash, hash FROM memory_events "
    "WHERE seq > ? ORDER BY seq LIMIT ?"
)


@dataclass(frozen=True)
class Head:
    seq: int
    hash: str


GENESIS = Head(0, encoding.GENESIS_HASH)


def create(conn: apsw.Connection) -> None:
    conn.execute(LOG_DDL)


def head(conn: apsw.Connection) -> Head:
    row = conn.execute(HEAD_SQL).fetchone()
    return Head(row[0], row[1]) if row else GENESIS


def append(conn: apsw.Connection, head_: Head, new: list[NewEvent], ts: str, actor: str) -> tuple[list[Event], Head]:
    """Append events after `head_` (inside the caller's transaction); return them and the new head."""
    out: list[Event] = []
    for item in new:
        form, payload = encoding.encode_canonical(item.payload)
        seq = head_.seq + 1
        event = Event(seq, new_event_id(), item.type, item.version(), ts, actor, form, head_.hash)
        digest = encoding.event_hash(event.header(), payload)
        conn.execute(INSERT_SQL, (seq, event.id, event.type, event.v, ts, actor, payload, head_.hash, digest))
        event = Event(event.seq, event.id, event.type, event.v, ts, actor, event.payload,
                      head_.hash, digest, len(payload))
        out.append(event)
        head_ = Head(seq, digest)
    return out, head_


def _row_event(row: tuple) -> Event:
    seq, id_, type_, v, ts, actor, payload, prev_hash, hash_ = row
    return Event(seq, id_, type_, v, ts, actor, encoding.decode(payload), prev_hash, hash_, len(payload))


def read(conn: apsw.Connection, after: int = 0, batch: int = 5000) -> Iterator[Event]:
    """Events after seq `after`, in order, upcast to current versions."""
    while True:
        rows = conn.execute(READ_SQL, (after, batch)).fetchall()
        if not rows:
            return
        for row in rows:
            yield upcast(_row_event(row))
        after = rows[-1][0]


# (phase, done, total): long walks over the log report how far they are.
Progress = Callable[[str, int, int], None]
PROGRESS_EVERY = 10_000


def verify_chain(conn: apsw.Connection, progress: Progress | None = None) -> tuple[int | None, str, int]:
    """Walk the chain; return (first broken seq or None, why, events checked)."""
    prev = GENESIS
    checked = 0
    total = head(conn).seq if progress else 0
    cursor = conn.execute(
        "SELECT seq, id, type, v, ts, actor, payload, prev_hash, hash FROM memory_events ORDER BY seq")
    for seq, id_, type_, v, ts, actor, payload, prev_hash, hash_ in cursor:
        checked += 1
        if seq != prev.seq + 1:
            return seq, f"seq gap after {prev.seq}", checked
        if prev_hash != prev.hash:
            return seq, "prev_hash does not match the previous event's hash", checked
        payload = bytes(payload)
        if encoding.event_hash([seq, id_, type_, v, ts, actor, prev_hash], payload) != hash_:
            return seq, "hash does not match the event's content", checked
        try:
            if encoding.encode(encoding.decode(payload)) != payload:
                return seq, "payload is not in canonical encoding", checked
        except Exception:
            return seq, "payload cannot be decoded", checked
        prev = Head(seq, hash_)
        if progress and checked % PROGRESS_EVERY == 0:
            progress("chain", checked, total)
    if progress:
        progress("chain", checked, total)
    return None, "", checked
