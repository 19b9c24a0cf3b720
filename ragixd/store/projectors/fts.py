"""The full-text projection: FTS5 in external-content mode over memory_items.

Triggers on memory_items keep the index in step with the items projection inside the same
transaction. The tokenizer folds diacritics (remove_diacritics 2) so 'securite' finds
'Sécurité' and the reverse, and stems English with porter.
"""

from __future__ import annotations

import apsw

from ...domain.events import Event
from .base import ItemChange

FTS_DDL = """
CREATE VIRTUAL TABLE memory_items_fts USING fts5(
    title, content, tags, entities,
    content='memory_items', content_rowid='rid',
    tokenize='porter unicode61 remove_diacritics 2'
);
INSERT INTO memory_items_fts(memory_items_fts, rank) VALUES ('rank', 'bm25(2.0, 1.0, 1.5, 1.5)');
CREATE TRIGGER memory_items_fts_ai AFTER INSERT ON memory_items BEGIN
    INSERT INTO memory_items_fts(rowid, title, content, tags, entities)
    VALUES (new.rid, new.title, new.content, new.tags, new.entities);
END;
CREATE TRIGGER memory_items_fts_bd BEFORE DELETE ON memory_items BEGIN
    INSERT INTO memory_items_fts(memory_items_fts, rowid, title, content, tags, entities)
    VALUES ('delete', old.rid, old.title, old.content, old.tags, old.entities);
END;
CREATE TRIGGER memory_items_fts_au AFTER UPDATE ON memory_items
WHEN old.title IS NOT new.title OR old.content IS NOT new.content
  OR old.tags IS NOT new.tags OR old.entities IS NOT new.entities
BEGIN
    INSERT INTO memory_items_fts(memory_items_fts, rowid, title, content, tags, entities)
    VALUES ('delete', old.rid, old.title, old.content, old.tags, old.entities);
    INSERT INTO memory_items_fts(rowid, title, content, tags, entities)
    VALUES (new.rid, new.title, new.content, new.tags, new.entities);
END;
"""
TRIGGERS = ("memory_items_fts_ai", "memory_items_fts_bd", "memory_items_fts_au")


def trigger_sql(conn: apsw.Connection) -> list[str]:
    rows = conn.execute(
        f"SELECT sql FROM sqlite_master WHERE type='trigger' AND name IN ({','.join('?' * len(TRIGGERS))})",
        TRIGGERS)
    return [r[0] for r in rows]


def suspend(conn: apsw.Connection) -> list[str]:
    """Drop the sync triggers (for a bulk replay); return their SQL to restore them."""
    saved = trigger_sql(conn)
    for name in TRIGGERS:
        conn.execute(f"DROP TRIGGER IF EXISTS {name}")
    return saved


def resume(conn: apsw.Connection, saved: list[str], reindex: bool = True) -> None:
    """Restore the triggers and, unless told not to, index every item in one pass."""
    for sql in saved:
        conn.execute(sql)
    if reindex:
        conn.execute("INSERT INTO memory_items_fts(memory_items_fts) VALUES ('rebuild')")


INTEGRITY_SQL = "INSERT INTO memory_items_fts(memory_items_fts, rank) VALUES ('integrity-check', 1)"


class FtsProjector:
    """The index follows memory_items through triggers; this records its position."""

    name = "fts"
    tables = ("memory_items_fts",)

    def apply(self, conn: apsw.Connection, event: Event, changes: list[ItemChange]) -> None:
        return None


def integrity_ok(conn: apsw.Connection) -> bool:
    try:
        conn.execute(INTEGRITY_SQL)
    except apsw.Error:
        return False
    return True
