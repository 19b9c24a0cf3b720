"""Opening SQLite connections through apsw with the pragmas ragix relies on."""

from __future__ import annotations

from pathlib import Path

import apsw

from ..errors import StoreError
from . import sqlfunctions

BUSY_TIMEOUT_MS = 30_000
# Read connections map the database file (up to this size) instead of read()ing it page by
# page: a search's scattered row and full-text page reads skip a system call and a copy each
# (session 12, 100k items: the vector candidates' rows 15 %, the full-text candidates 10 %
# faster; ~0.2-0.5 ms of CPU less per hybrid search through the daemon). The price is
# SQLite's: an I/O error while reading a mapped page stops the process (SIGBUS) instead of
# failing the query, and the pages read count in the daemon's resident (file-backed) memory.
READ_MMAP_BYTES = 1 << 34


def open_connection(path: str | Path, *, readonly: bool = False, synchronous: str = "FULL",
                    mmap_bytes: int = 0) -> apsw.Connection:
    """A connection in WAL mode. Writers use synchronous=FULL so a commit is an fsync; readers
    pass mmap_bytes (READ_MMAP_BYTES) to read the file through a memory map."""
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
        if mmap_bytes:
            conn.execute(f"PRAGMA mmap_size={int(mmap_bytes)}")
        sqlfunctions.register(conn)
    except apsw.Error as e:
        raise StoreError(f"cannot open database {path}: {e}") from e
    return conn


def table_names(conn: apsw.Connection) -> list[str]:
    rows = conn.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")
    return [r[0] for r in rows]
