"""Ordered, recorded migrations of the projection tables. The log is never migrated.

Each migration runs in its own transaction and is recorded in schema_migrations. A fresh
database runs them all; an older one runs those it lacks.
"""

from __future__ import annotations

from dataclasses import dataclass

import apsw

from ..domain.clock import now_ts
from . import sqlfunctions
from .projectors.entities import ENTITIES_DDL
from .projectors.fts import BULK_DDL, FTS_DDL, VIEW_DDL
from .projectors.items import ITEM_TAGS_DDL, ITEMS_DDL, SOURCE_KEY_DDL
from .projectors.links import LINKS_DDL
from .projectors.log_totals import LOG_TOTALS_DDL
from .projectors.palace import PALACE_DDL
from .projectors.refusals import REFUSALS_DDL
from .projectors.revisions import REVISIONS_DDL
from .projectors.vectors import VECTORS_DDL

POSITIONS_DDL = """
CREATE TABLE projector_positions (name TEXT PRIMARY KEY, seq INTEGER NOT NULL) WITHOUT ROWID;
"""
COUNTS_INDEX_DDL = """
CREATE INDEX idx_items_counts ON memory_items(archived, tier, type, store);
"""
# The items of one source file (its chunks' source_ids are "PATH:N"), for source.retire; replaced
# by the stored source key of migration 7 (projectors/items.py).
SOURCE_INDEX_DDL = """
CREATE INDEX idx_items_source ON memory_items(store, json_extract(provenance_json, '$.source_id'));
"""
MIGRATIONS_DDL = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL
);
"""


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "initial projections", "\n".join((
        POSITIONS_DDL, ITEMS_DDL, REVISIONS_DDL, LINKS_DDL, PALACE_DDL, ENTITIES_DDL, FTS_DDL,
        REFUSALS_DDL))),
    Migration(2, "tag table for indexed tag filters", ITEM_TAGS_DDL),
    Migration(3, "vector bookkeeping per model", VECTORS_DDL),
    Migration(4, "full-text index written in bulk per group", BULK_DDL),
    Migration(5, "log totals and a covering index for the stats counts", LOG_TOTALS_DDL + COUNTS_INDEX_DDL),
    Migration(6, "items by source, for retiring the chunks a re-ingest no longer writes", SOURCE_INDEX_DDL),
    Migration(7, "stored source key, for neighbours of a hit and chunks of a source", SOURCE_KEY_DDL),
    # Entities were compared by spelling on update (a re-spelt entity unlinked its item and
    # counted one more mention): their tables are emptied and the projector set back to the
    # start, so the next open replays the log into them with entities compared by key.
    Migration(8, "entities compared by key: replayed once",
              "DELETE FROM entity_items; DELETE FROM entities; "
              "UPDATE projector_positions SET seq = 0 WHERE name = 'entities';"),
    # Han, kana and Hangul were indexed a run at a time: a word inside a run was never found.
    Migration(9, "full-text index reads Han, kana and Hangul a character at a time", VIEW_DDL),
)
LATEST = MIGRATIONS[-1].version


def current_version(conn: apsw.Connection) -> int:
    conn.execute(MIGRATIONS_DDL)
    row = conn.execute("SELECT max(version) FROM schema_migrations").fetchone()
    return row[0] or 0


def migrate(conn: apsw.Connection, target: int = LATEST) -> list[int]:
    """Run the migrations above the current version up to `target`; return those applied."""
    applied = []
    sqlfunctions.register(conn)  # the schema's views call them
    for migration in MIGRATIONS:
        if migration.version <= current_version(conn) or migration.version > target:
            continue
        with conn:
            conn.execute(migration.sql)
            conn.execute("INSERT INTO schema_migrations VALUES (?, ?, ?)",
                         (migration.version, migration.name, now_ts()))
        applied.append(migration.version)
    return applied
