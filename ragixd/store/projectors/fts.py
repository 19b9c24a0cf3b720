"""The full-text projection: FTS5 in external-content mode over memory_items.

The tokenizer folds diacritics (remove_diacritics 2) so 'securite' finds 'Sécurité' and the
reverse, and stems English with porter. Since migration 9 the index's external content is the
view memory_items_fts_text, the items' columns as the index reads them: each Han, kana and
Hangul character set apart as a word of its own (sqlfunctions.fts_text), which unicode61 would
take a whole run of for one word.

The index is written once per group, at its end, in the group's transaction: one statement
removes the old text of the items the group changed and one indexes their new text. Row-by-
row triggers would make FTS5 flush its pending terms to disk at every statement of the group
(each statement's savepoint forces a flush), which cost more than everything else in a write.
"""

from __future__ import annotations

import json

import apsw

from ...domain.events import Event
from ..sqlfunctions import FTS_TEXT, fts_text
from .base import ItemChange
from .items import fts_fields_differ, fts_values

# Column weights of BM25 (title, content, tags, entities): the table's rank, and what searches
# call by name (bm25() ordered with a LIMIT keeps only the best rows as it goes, where ORDER BY
# rank sorts every match first: ~30 % of a search over thousands of matches).
BM25_WEIGHTS = "2.0, 1.0, 1.5, 1.5"
BM25 = f"bm25(memory_items_fts, {BM25_WEIGHTS})"
FTS_DDL = f"""
CREATE VIRTUAL TABLE memory_items_fts USING fts5(
    title, content, tags, entities,
    content='memory_items', content_rowid='rid',
    tokenize='porter unicode61 remove_diacritics 2'
);
INSERT INTO memory_items_fts(memory_items_fts, rank) VALUES ('rank', 'bm25({BM25_WEIGHTS})');
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
# Migration 4: the projector indexes each group in bulk; the row triggers go.
BULK_DDL = """
DROP TRIGGER IF EXISTS memory_items_fts_ai;
DROP TRIGGER IF EXISTS memory_items_fts_au;
"""

# Migration 9: the index reads its columns through the view (and is built again from it); the
# last row trigger goes (items are never deleted; a rebuild drops the tables).
TEXT_VIEW = "memory_items_fts_text"


def _read(column: str) -> str:
    """A column as the index reads it: ASCII text as it is, without a call into Python (most
    text; its bytes are its characters), any other through the function."""
    return f"CASE WHEN octet_length({column}) = length({column}) THEN {column} ELSE {FTS_TEXT}({column}) END"


VIEW_DDL = f"""
DROP TRIGGER IF EXISTS memory_items_fts_bd;
DROP TABLE IF EXISTS memory_items_fts;
DROP VIEW IF EXISTS {TEXT_VIEW};
CREATE VIEW {TEXT_VIEW} AS SELECT rid, {_read("title")} AS title, {_read("content")} AS content,
    {_read("tags")} AS tags, {_read("entities")} AS entities FROM memory_items;
CREATE VIRTUAL TABLE memory_items_fts USING fts5(
    title, content, tags, entities,
    content='{TEXT_VIEW}', content_rowid='rid',
    tokenize='porter unicode61 remove_diacritics 2'
);
INSERT INTO memory_items_fts(memory_items_fts, rank) VALUES ('rank', 'bm25({BM25_WEIGHTS})');
INSERT INTO memory_items_fts(memory_items_fts) VALUES ('rebuild');
"""

# Old text is removed row by row, bound exactly as it was indexed (updates are the rare case);
# new text is indexed by one statement for the whole group.
DELETE_SQL = (
    "INSERT INTO memory_items_fts(memory_items_fts, rowid, title, content, tags, entities) "
    "VALUES ('delete', ?, ?, ?, ?, ?)"
)
INDEX_SQL = f"""
INSERT INTO memory_items_fts(rowid, title, content, tags, entities)
SELECT rid, title, content, tags, entities FROM {TEXT_VIEW}
WHERE rid IN (SELECT value FROM json_each(?)) ORDER BY rid
"""
# A replay indexes the items once, after their rows are final, a range of row ids at a time.
INDEX_RANGE_SQL = f"""
INSERT INTO memory_items_fts(rowid, title, content, tags, entities)
SELECT rid, title, content, tags, entities FROM {TEXT_VIEW}
WHERE rid > ? AND rid <= ? ORDER BY rid
"""
RID_RANGE_SQL = "SELECT coalesce(min(rid), 0), coalesce(max(rid), 0), count(*) FROM memory_items"
OPTIMIZE_SQL = "INSERT INTO memory_items_fts(memory_items_fts) VALUES ('optimize')"
AUTOMERGE_SQL = "INSERT INTO memory_items_fts(memory_items_fts, rank) VALUES ('automerge', ?)"
AUTOMERGE_DEFAULT = 4  # FTS5's own default: merge once 4 segments of a level have piled up
INTEGRITY_SQL = "INSERT INTO memory_items_fts(memory_items_fts, rank) VALUES ('integrity-check', 1)"


class FtsProjector:
    """Collects the items a group changes; `flush` brings their index entries up to date."""

    name = "fts"
    tables = ("memory_items_fts",)

    def __init__(self) -> None:
        # rid -> the text the index holds for it now (None: not indexed yet).
        self._pending: dict[int, tuple | None] = {}

    def apply(self, conn: apsw.Connection, event: Event, changes: list[ItemChange]) -> None:
        for change in changes:
            if change.rid in self._pending:
                continue
            if change.before is None:
                self._pending[change.rid] = None
            elif fts_fields_differ(change.before, change.after):
                self._pending[change.rid] = fts_values(change.before)

    def flush(self, conn: apsw.Connection, upto: int, index: bool = True) -> None:
        pending, self._pending = self._pending, {}
        if not pending or not index:
            return
        stale = [[rid, *map(fts_text, text)] for rid, text in pending.items() if text is not None]
        if stale:
            conn.executemany(DELETE_SQL, stale)
        conn.execute(INDEX_SQL, (json.dumps(sorted(pending)),))

    def discard(self) -> None:
        """Forget what a rolled-back group collected."""
        self._pending = {}


def index_ranges(conn: apsw.Connection, rows_per_range: int) -> tuple[int, list[tuple[int, int]]]:
    """How many items there are, and the row-id ranges (low exclusive, high inclusive) that
    cover them in pieces of about `rows_per_range` rows, for an index built from scratch."""
    low, high, count = conn.execute(RID_RANGE_SQL).fetchone()
    if count == 0:
        return 0, []
    # Row ids are given in order and never reused, so ranges of equal width hold about as many
    # rows each; a sparse table only makes some pieces smaller.
    width = max(1, (high - low + 1) * rows_per_range // count)
    return count, [(start, min(start + width, high)) for start in range(low - 1, high, width)]


def index_range(conn: apsw.Connection, after: int, upto: int) -> int:
    """Index the items whose row id is in (after, upto]; return how many were indexed. For an
    index being built from scratch: nothing of these items may be in it already."""
    conn.execute(INDEX_RANGE_SQL, (after, upto))
    return conn.changes()


def pause_merging(conn: apsw.Connection) -> None:
    """Before a bulk load: write segments without merging them as they pile up (the merge
    work of a load is then done once, by `optimize`, instead of over and over; ~25 % of an
    index built from 100k items, session 16)."""
    conn.execute(AUTOMERGE_SQL, (0,))


def optimize(conn: apsw.Connection) -> None:
    """Merge the index into one segment (after a bulk load: searches read fewer b-trees), and
    merge as FTS5 does by default from then on."""
    conn.execute(OPTIMIZE_SQL)
    conn.execute(AUTOMERGE_SQL, (AUTOMERGE_DEFAULT,))


def integrity_ok(conn: apsw.Connection) -> bool:
    try:
        conn.execute(INTEGRITY_SQL)
    except apsw.Error:
        return False
    return True
