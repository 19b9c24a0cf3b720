"""The store's own secrets: random keys kept beside the log, never in it, never projected.

Owns `store_keys` (a table rebuild leaves alone) and the audit key, with which the audit of a
refused write fingerprints the refused text (domain/encoding.refusal_digest): an event that
may be tailed, published or copied then holds no plain hash from which a short secret (a
password) could be confirmed by guessing.
"""

from __future__ import annotations

import secrets

import apsw

KEYS_TABLE = "store_keys"
KEYS_DDL = f"CREATE TABLE IF NOT EXISTS {KEYS_TABLE} (name TEXT PRIMARY KEY, value BLOB NOT NULL) WITHOUT ROWID"
AUDIT_KEY = "audit"
KEY_BYTES = 32


def audit_key(conn: apsw.Connection) -> bytes:
    """This store's audit key, made on first use (and kept for every later process)."""
    conn.execute(KEYS_DDL)
    with conn:
        conn.execute(f"INSERT OR IGNORE INTO {KEYS_TABLE} VALUES (?, ?)", (AUDIT_KEY, secrets.token_bytes(KEY_BYTES)))
        row = conn.execute(f"SELECT value FROM {KEYS_TABLE} WHERE name = ?", (AUDIT_KEY,)).fetchone()
    return bytes(row[0])
