"""Projection migrations: ordered, recorded, transactional; blank and older schemas."""

import apsw

from ragixd.store import log, migrations
from ragixd.store.filters import Filters
from ragixd.store.store import Store


def test_blank_database_gets_every_migration(tmp_path):
    conn = apsw.Connection(str(tmp_path / "blank.db"))
    assert migrations.current_version(conn) == 0
    assert migrations.migrate(conn) == [m.version for m in migrations.MIGRATIONS]
    rows = conn.execute("SELECT version, name FROM schema_migrations ORDER BY version").fetchall()
    assert [r[0] for r in rows] == [m.version for m in migrations.MIGRATIONS]
    assert migrations.migrate(conn) == []  # idempotent


def test_older_schema_is_brought_forward_with_its_data(tmp_path):
    path = tmp_path / "old.db"
    conn = apsw.Connection(str(path))
    log.create(conn)
    migrations.migrate(conn, target=1)
    assert "item_tags" not in [r[0] for r in conn.execute("SELECT name FROM sqlite_master")]
    conn.close()
    # An old daemon wrote items without the tag table: simulate by projecting at version 1.
    from ragixd.store import projection
    from ragixd.store.projectors.items import ItemsProjector

    class OldItems(ItemsProjector):
        def apply(self, conn, event, changes):  # version 1's columns, as that daemon wrote them
            from ragixd.store.projectors.items import COLUMNS, SELECT_COLUMNS, item_to_row
            insert = f"INSERT INTO memory_items({SELECT_COLUMNS}) VALUES ({', '.join('?' * len(COLUMNS))})"
            for ch in changes:
                conn.execute(insert, item_to_row(ch.after, ch.rid))

    old = projection.Projections([OldItems()])
    conn = apsw.Connection(str(path))
    head = log.head(conn)
    from ragixd.domain.events import NewEvent
    from ragixd.domain.item import build_item, validate_create
    with conn:
        item = build_item("MEM-olditem01", validate_create({"title": "old", "content": "old content", "tags": ["legacy"]}), "2026-01-01T00:00:00.000000Z")
        evs, head = log.append(conn, head, [NewEvent("item.created", {"item": item.to_dict()})], item.created_at, "old")
        for e in evs:
            old.apply(conn, e)
        conn.execute("INSERT INTO projector_positions VALUES ('items', ?)", (head.seq,))
    conn.close()

    store = Store(path)
    assert migrations.current_version(store.reader()) == migrations.LATEST
    found = store.search("old", Filters(tags=("legacy",)))
    assert [i.id for i, _ in found] == ["MEM-olditem01"]
    assert store.verify()["ok"]
    store.close()


def test_a_failing_migration_leaves_no_trace(tmp_path, monkeypatch):
    conn = apsw.Connection(str(tmp_path / "x.db"))
    migrations.migrate(conn, target=1)
    broken = migrations.Migration(2, "broken", "CREATE TABLE half(x); SELECT no_such_function();")
    monkeypatch.setattr(migrations, "MIGRATIONS", (migrations.MIGRATIONS[0], broken))
    try:
        migrations.migrate(conn)
    except apsw.Error:
        pass
    assert migrations.current_version(conn) == 1
    assert "half" not in [r[0] for r in conn.execute("SELECT name FROM sqlite_master")]


def test_log_totals_reach_an_older_database_and_match_a_scan(tmp_path):
    """A home made before the log totals existed is rebuilt on open (the new projector has no
    position), after which stats reads the totals and they equal a full scan of the log."""
    from ragixd.domain import commands as c

    path = tmp_path / "v4.db"
    store = Store(path, synchronous="OFF")
    store.execute([c.CreateItem({"title": f"t{i}", "content": f"content {i}"}, dedup=False) for i in range(20)])
    conn = store._writer
    with conn:  # back to schema 4: no totals, no counts index, no position for them
        conn.execute("DROP TABLE log_totals; DROP INDEX idx_items_counts; "
                     "DELETE FROM projector_positions WHERE name='log_totals'; "
                     "DELETE FROM schema_migrations WHERE version=5")
    store.close()
    store = Store(path, synchronous="OFF")
    conn = store.reader()
    scanned = conn.execute("SELECT count(*), sum(length(payload)) FROM memory_events").fetchone()
    stats = store.stats()
    assert (stats["events"], stats["log_bytes"]) == tuple(scanned) and stats["items"] == 20
    assert migrations.current_version(conn) == migrations.LATEST and store.verify()["ok"]
    store.close()


def test_source_keys_are_back_filled_on_a_version_6_database(tmp_path):
    """Migration 7 adds the stored source key to a home written at version 6 and fills it from
    each item's provenance in SQL, exactly as the items projector computes it (so verify, which
    compares with a replay, passes); the json_extract index it replaces is dropped."""
    from ragixd.domain import commands as c
    from ragixd.domain.item import source_key

    sources = ["notes.md:3", "chat-7:S2:14", "chat-7:S2:15", "plain", "", ":5", "a::", "::",
               "dossier/été:ü:2", "x:y:z:w", "trailing:"]
    path = tmp_path / "v6.db"
    store = Store(path, synchronous="OFF")
    store.execute([c.CreateItem({"title": f"t{i}", "content": f"content {i}",
                                 "provenance": {"source_kind": "doc", "source_id": s}}, dedup=False)
                   for i, s in enumerate(sources)])
    assert store.stats()["items"] == len(sources)
    conn = store._writer
    with conn:  # back to schema 6: no source key column, migration 6's index
        conn.execute("DROP INDEX idx_items_source_key; ALTER TABLE memory_items DROP COLUMN source_key; "
                     + migrations.SOURCE_INDEX_DDL + "DELETE FROM schema_migrations WHERE version>=7")
    assert migrations.current_version(conn) == 6
    store.close()

    store = Store(path, synchronous="OFF")
    conn = store.reader()
    assert migrations.current_version(conn) == migrations.LATEST
    rows = conn.execute("SELECT json_extract(provenance_json, '$.source_id'), source_key FROM memory_items").fetchall()
    assert sorted(rows, key=repr) == sorted(((s, source_key(s)) for s in sources), key=repr)
    indexes = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='index'")}
    assert "idx_items_source_key" in indexes and "idx_items_source" not in indexes
    assert store.verify()["ok"]
    store.close()


def test_migration_8_replays_the_entities_of_a_version_7_home(tmp_path):
    """Entities written at version 7 compared names by spelling; migration 8 empties their
    tables and sets their projector back, and the next open replays them from the log."""
    from ragixd.domain import commands as c
    from ragixd.store import queries

    path = tmp_path / "v7.db"
    store = Store(path, synchronous="OFF")
    item = store.run(c.CreateItem({"title": "sync", "content": "with Yannick", "entities": ["Yannick Lefèvre"]}))["id"]
    store.run(c.UpdateItem(item, {"entities": ["yannick lefevre"]}))  # re-spelt: one entity still
    conn = store._writer
    with conn:  # as version 7 left it: the item unlinked, a mention too many
        conn.execute("DELETE FROM entity_items; UPDATE entities SET mention_count = 2; "
                     "DELETE FROM schema_migrations WHERE version >= 8")
    store.close()
    store = Store(path, synchronous="OFF")
    (entity,) = queries.entities(store.reader())
    assert entity["mention_count"] == 1 and entity["item_ids"] == [item]
    assert migrations.current_version(store.reader()) == migrations.LATEST and store.verify()["ok"]
    store.close()
