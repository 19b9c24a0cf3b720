"""The items projection: memory_items (current state of every item) and item_tags."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

import apsw

from ...domain.events import Event
from ...domain.item import MemoryItem, Provenance, item_of_fields, source_key
from .base import ItemChange

ITEMS_DDL = """
CREATE TABLE memory_items (
    rid             INTEGER PRIMARY KEY,
    id              TEXT NOT NULL UNIQUE,
    tier            TEXT NOT NULL,
    type            TEXT NOT NULL,
    title           TEXT NOT NULL,
    content         TEXT NOT NULL,
    tags            TEXT NOT NULL,
    entities        TEXT NOT NULL,
    links_json      TEXT NOT NULL,
    provenance_json TEXT NOT NULL,
    confidence      REAL NOT NULL,
    validation      TEXT NOT NULL,
    scope           TEXT NOT NULL,
    store           TEXT NOT NULL,
    expires_at      TEXT,
    usage_count     INTEGER NOT NULL,
    last_used_at    TEXT,
    mention_count   INTEGER NOT NULL,
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL,
    rule_id         TEXT,
    corpus_id       TEXT,
    superseded_by   TEXT,
    archived        INTEGER NOT NULL,
    content_hash    TEXT NOT NULL
);
CREATE INDEX idx_items_created ON memory_items(created_at, rid);
CREATE INDEX idx_items_hash ON memory_items(store, content_hash);
"""
# Migration 2: a tag table so tag filters use an index instead of scanning JSON.
ITEM_TAGS_DDL = """
CREATE TABLE item_tags (rid INTEGER NOT NULL, tag TEXT NOT NULL, PRIMARY KEY (tag, rid)) WITHOUT ROWID;
CREATE INDEX idx_item_tags_rid ON item_tags(rid);
INSERT INTO item_tags(rid, tag) SELECT m.rid, j.value FROM memory_items m, json_each(m.tags) j;
"""
# Migration 7: the source an item was cut from (domain.item.source_key: its source_id up to
# the last ':'; NULL without one) stored, so that the neighbours of a hit and the chunks of a
# source are sought on an index instead of parsing every nearby row's provenance. Back-filled
# here with the same rule in SQL (rtrim strips the characters after the last ':'). It replaces
# migration 6's index on json_extract(provenance_json, '$.source_id').
SOURCE_KEY_DDL = """
ALTER TABLE memory_items ADD COLUMN source_key TEXT;
UPDATE memory_items SET source_key = substr(s.head, 1, length(s.head) - 1)
FROM (SELECT rid, rtrim(sid, replace(sid, ':', '')) AS head
      FROM (SELECT rid, json_extract(provenance_json, '$.source_id') AS sid FROM memory_items)) s
WHERE memory_items.rid = s.rid AND s.head <> '';
CREATE INDEX idx_items_source_key ON memory_items(source_key, created_at, rid);
DROP INDEX IF EXISTS idx_items_source;
"""

COLUMNS = (
    "rid", "id", "tier", "type", "title", "content", "tags", "entities", "links_json",
    "provenance_json", "confidence", "validation", "scope", "store", "expires_at", "usage_count",
    "last_used_at", "mention_count", "created_at", "updated_at", "rule_id", "corpus_id",
    "superseded_by", "archived", "content_hash",
)
SELECT_COLUMNS = ", ".join(COLUMNS)
# Stored beside the item's columns, derived from them: written, never read back into an item.
DERIVED = ("source_key",)
INSERT_SQL = (
    f"INSERT INTO memory_items({SELECT_COLUMNS}, {', '.join(DERIVED)}) "
    f"VALUES ({', '.join('?' * (len(COLUMNS) + len(DERIVED)))})"
)
DELETE_TAGS_SQL = "DELETE FROM item_tags WHERE rid=?"
INSERT_TAG_SQL = "INSERT OR IGNORE INTO item_tags(rid, tag) VALUES (?, ?)"
BY_ID_SQL = f"SELECT {SELECT_COLUMNS} FROM memory_items WHERE id=?"
# A use, counted on the row as it stands (what reducer.apply_use does to the item).
ADD_USE_SQL = "UPDATE memory_items SET usage_count = usage_count + ?, last_used_at = ? WHERE id = ?"


# One encoder reused: json.dumps with options builds a new encoder on every call.
_JSON = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), sort_keys=True)
_dumps = _JSON.encode

# The column each item field is stored in, and how its value is written there.
_COLUMN_OF = {"links": "links_json", "provenance": "provenance_json"}


@lru_cache(maxsize=4096)  # tag and entity lists recur from item to item
def _list_json(values: tuple) -> str:
    return _dumps(list(values))


def _links_json(links: tuple) -> str:
    return _dumps([{"rel": r, "to": t} for r, t in links]) if links else "[]"


@lru_cache(maxsize=4096)  # items cut from one source share their provenance
def _provenance_json(provenance: Any) -> str:
    return _dumps(provenance.to_dict())


# How the fields that are not stored as they are get written (the one place for it).
_WRITE = {"tags": _list_json, "entities": _list_json, "links": _links_json,
          "provenance": _provenance_json, "archived": int}
_update_sql: dict[tuple[str, ...], str] = {}


def update_sql(columns: tuple[str, ...]) -> str:
    """UPDATE of just these columns: SQLite then leaves alone every index not built on them
    (a usage count or a mention must not rewrite the id, time and hash indexes)."""
    sql = _update_sql.get(columns)
    if sql is None:
        sql = _update_sql[columns] = (
            "UPDATE memory_items SET " + ", ".join(f"{c}=?" for c in columns) + " WHERE rid=?")
    return sql


def changed_values(before: MemoryItem, after: MemoryItem) -> tuple[tuple[str, ...], list[Any]]:
    """The columns whose stored value differs between two states of an item, and the new values."""
    old = before.__dict__
    columns, values = [], []
    for name, value in after.__dict__.items():
        if old[name] != value:
            columns.append(_COLUMN_OF.get(name, name))
            write = _WRITE.get(name)
            values.append(write(value) if write else value)
            if name == "provenance":
                key = source_key(value.source_id)
                if key != source_key(old[name].source_id):
                    columns.append("source_key")
                    values.append(key)
    return tuple(columns), values


def fts_values(item: MemoryItem) -> tuple[str, str, str, str]:
    """The columns the full-text index reads (title, content, tags, entities), as stored."""
    return item.title, item.content, _list_json(item.tags), _list_json(item.entities)


def fts_fields_differ(before: MemoryItem, after: MemoryItem) -> bool:
    """Whether fts_values would differ, without building them (most changes are usage counts)."""
    return (before.title != after.title or before.content != after.content
            or before.tags != after.tags or before.entities != after.entities)


def item_to_row(item: MemoryItem, rid: int) -> tuple:
    return (
        rid, item.id, item.tier, item.type, item.title, item.content, _list_json(item.tags),
        _list_json(item.entities), _links_json(item.links),
        _provenance_json(item.provenance), item.confidence, item.validation, item.scope,
        item.store, item.expires_at, item.usage_count, item.last_used_at, item.mention_count,
        item.created_at, item.updated_at, item.rule_id, item.corpus_id, item.superseded_by,
        int(item.archived), item.content_hash,
    )


_DECODER = json.JSONDecoder()
_scan = _DECODER.scan_once


def _loads(text: str) -> Any:
    """json.loads for the compact JSON this module writes: the C scanner straight away (the
    columns hold no surrounding whitespace), with empty lists short-cut."""
    if text == "[]":
        return []
    try:
        value, end = _scan(text, 0)
    except StopIteration:
        return _DECODER.decode(text)  # raises the usual JSONDecodeError
    return value if end == len(text) else _DECODER.decode(text)


def row_to_item(row: tuple) -> tuple[int, MemoryItem]:
    """(rid, item) from a row in COLUMNS order; built directly, as reads do this a lot."""
    (rid, id_, tier, type_, title, content, tags, entities, links, prov, confidence, validation,
     scope, store, expires_at, usage_count, last_used_at, mention_count, created_at, updated_at,
     rule_id, corpus_id, superseded_by, archived, content_hash) = row
    p = _loads(prov)
    provenance = Provenance(p.get("source_kind", "chat"), p.get("source_id", ""),
                            tuple(p.get("chunk_ids", ())), tuple(p.get("content_hashes", ())))
    item = item_of_fields((
        id_, title, content, created_at, updated_at, tier, type_, tuple(_loads(tags)),
        tuple(_loads(entities)), tuple((link["rel"], link["to"]) for link in _loads(links)),
        provenance, confidence, validation, scope, store, expires_at, usage_count, last_used_at,
        mention_count, rule_id, corpus_id, superseded_by, bool(archived), content_hash))
    return rid, item


def load(conn: apsw.Connection, item_id: str) -> tuple[int, MemoryItem] | None:
    row = conn.execute(BY_ID_SQL, (item_id,)).fetchone()
    return row_to_item(row) if row else None


def add_uses(conn: apsw.Connection, uses: list[dict[str, Any]], ts: str) -> None:
    """Count uses ({"id", "count"}) at time `ts` on the rows directly, without their items'
    states: what a replay does for items whose state it does not hold (see Projections)."""
    conn.executemany(ADD_USE_SQL, [(use["count"], ts, use["id"]) for use in uses])


class ItemsProjector:
    name = "items"
    tables = ("memory_items", "item_tags")

    def apply(self, conn: apsw.Connection, event: Event, changes: list[ItemChange]) -> None:
        for change in changes:
            if change.before is None:
                after = change.after
                conn.execute(INSERT_SQL, (*item_to_row(after, change.rid), source_key(after.provenance.source_id)))
            else:
                columns, values = changed_values(change.before, change.after)
                if not columns:
                    continue
                conn.execute(update_sql(columns), [*values, change.rid])
            if change.before is not None and change.before.tags != change.after.tags:
                conn.execute(DELETE_TAGS_SQL, (change.rid,))
            if change.before is None or change.before.tags != change.after.tags:
                conn.executemany(INSERT_TAG_SQL, [(change.rid, t) for t in change.after.tags])
