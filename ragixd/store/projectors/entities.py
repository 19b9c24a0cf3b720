"""The entities projection: seed 001's people index generalised to every named entity.

An entity is counted once per store each time an item brings it: created with it, mentioned
again (a dedup hit), or updated to include it.
"""

from __future__ import annotations

import apsw

from ...domain import events as ev
from ...domain.events import Event
from ...domain.text import fold
from .base import ItemChange

ENTITIES_DDL = """
CREATE TABLE entities (
    key            TEXT NOT NULL,
    store          TEXT NOT NULL,
    name           TEXT NOT NULL,
    mention_count  INTEGER NOT NULL,
    first_seen     TEXT NOT NULL,
    last_mentioned TEXT NOT NULL,
    PRIMARY KEY (key, store)
) WITHOUT ROWID;
CREATE TABLE entity_items (
    key     TEXT NOT NULL,
    store   TEXT NOT NULL,
    item_id TEXT NOT NULL,
    PRIMARY KEY (key, store, item_id)
) WITHOUT ROWID;
CREATE INDEX idx_entity_items_item ON entity_items(item_id);
"""
BUMP_SQL = """
INSERT INTO entities(key, store, name, mention_count, first_seen, last_mentioned)
VALUES (?, ?, ?, 1, ?, ?)
ON CONFLICT(key, store) DO UPDATE SET mention_count = mention_count + 1,
    last_mentioned = excluded.last_mentioned
"""
LINK_SQL = "INSERT OR IGNORE INTO entity_items VALUES (?, ?, ?)"
UNLINK_SQL = "DELETE FROM entity_items WHERE key=? AND store=? AND item_id=?"


def entity_key(name: str) -> str:
    return " ".join(fold(name).split())


class EntitiesProjector:
    name = "entities"
    tables = ("entities", "entity_items")

    def apply(self, conn: apsw.Connection, event: Event, changes: list[ItemChange]) -> None:
        for change in changes:
            after = change.after
            before_names = set(change.before.entities) if change.before else set()
            if event.type == ev.ITEM_MENTIONED:
                bumped = list(after.entities)
            else:
                bumped = [n for n in after.entities if n not in before_names]
            for name in bumped:
                key = entity_key(name)
                conn.execute(BUMP_SQL, (key, after.store, name, event.ts, event.ts))
                conn.execute(LINK_SQL, (key, after.store, after.id))
            for name in before_names - set(after.entities):
                conn.execute(UNLINK_SQL, (entity_key(name), after.store, after.id))
