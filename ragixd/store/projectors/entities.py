"""The entities projection: seed 001's people index generalised to every named entity.

An entity is counted once per store each time an item brings it: created with it, mentioned
again (a dedup hit), or updated to include it. The counts are added once per group, at its
flush (a group of a thousand items naming the same person is one row update, not a thousand),
collected per seq as log_totals collects sizes: a command that fails in an isolated group
leaves seqs that the next command reuses (its bumps replace them) or that lie past the
group's head (they are not counted).
"""

from __future__ import annotations

import apsw

from ...domain import events as ev
from ...domain.events import Event
from ...domain.text import entity_key
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
VALUES (?, ?, ?, ?, ?, ?)
ON CONFLICT(key, store) DO UPDATE SET mention_count = mention_count + excluded.mention_count,
    last_mentioned = excluded.last_mentioned
"""
LINK_SQL = "INSERT OR IGNORE INTO entity_items VALUES (?, ?, ?)"
UNLINK_SQL = "DELETE FROM entity_items WHERE key=? AND store=? AND item_id=?"


class EntitiesProjector:
    name = "entities"
    tables = ("entities", "entity_items")

    def __init__(self) -> None:
        # seq -> the (key, store, name, ts) bumps its event brings, counted at the flush.
        self._bumps: dict[int, list[tuple[str, str, str, str]]] = {}

    def apply(self, conn: apsw.Connection, event: Event, changes: list[ItemChange]) -> None:
        bumps = []
        mentioned = event.type == ev.ITEM_MENTIONED
        for change in changes:
            after = change.after
            if not mentioned and change.before is not None and change.before.entities == after.entities:
                continue  # nothing to bump or unlink (a use, most updates): no sets built
            # Compared by key, not by spelling: "Yannick Lefèvre" re-spelt "yannick lefevre" is
            # the same entity, neither a new mention nor one to unlink the item from.
            before_keys = {entity_key(n) for n in change.before.entities} if change.before else set()
            after_keys = {entity_key(n) for n in after.entities}
            if mentioned:
                bumped = list(after.entities)
            else:
                bumped = [n for n in after.entities if entity_key(n) not in before_keys]
            for name in bumped:
                key = entity_key(name)
                bumps.append((key, after.store, name, event.ts))
                conn.execute(LINK_SQL, (key, after.store, after.id))
            for key in before_keys - after_keys:
                conn.execute(UNLINK_SQL, (key, after.store, after.id))
        self._bumps[event.seq] = bumps

    def flush(self, conn: apsw.Connection, upto: int, index_text: bool = True) -> None:
        collected, self._bumps = self._bumps, {}
        # (key, store) -> [name, first ts, last ts, count], in the order the log brings them.
        totals: dict[tuple[str, str], list] = {}
        for seq in sorted(collected):
            if seq > upto:
                continue
            for key, store, name, ts in collected[seq]:
                total = totals.get((key, store))
                if total is None:
                    totals[(key, store)] = [name, ts, ts, 1]
                else:
                    total[2] = ts
                    total[3] += 1
        if totals:
            conn.executemany(BUMP_SQL, [(key, store, name, count, first, last)
                                        for (key, store), (name, first, last, count) in totals.items()])

    def discard(self) -> None:
        """Forget what a rolled-back group collected."""
        self._bumps = {}
