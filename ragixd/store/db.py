"""Opening SQLite connections through apsw with the pragmas ragix relies on."""

from __future__ import annotations

from pathlib import Path

import apsw

from ..errors import StoreError

BUSY_TIMEOUT_MS = 30_000


def open_connection(path: str | Path, *, readonly: bool = False, synchronous: str = "FULL") -> apsw.Connection:
    """A connection in WAL mode. Writers use synchronous=FULL so a commit is an fsync."""
    flags = apsw.SQLITE_OPEN_READONLY if readonly else apsw.SQLITE_OPEN_READWRITE | apsw.SQLITE_OPEN_CREATE
    try:
        conn = apsw.Connection(str(path), flags=flags)
        conn.setbusytimeout(BUSY_TIMEOUT_MS)
        if not readonly:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute(f"PRAGMA synchronous={synchronous}")
        conn.execute("PRAGMA foreign_keys=OFF")
        conn.execute("PRAGMA temp_store=MEMORY")
        conn.execute("PRAGMA cache_size=-65536")
    except apsw.Error as e:
        raise StoreError(f"cannot open database {path}: {e}") from e
    return conn


def table_names(conn: apsw.Connection) -> list[str]:
    rows = conn.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")
    return [r[0] for r in rows]
