"""The neighbours of a hit, sought on the stored source key, are exactly those the query before
migration 7 found by parsing every nearby row's provenance: same items, same order, on random
stores with ties in time, sources interleaved, archived items and filters; and the items of a
source for source.retire likewise."""

import random

import pytest

from ragixd.domain import commands as c
from ragixd.domain.item import source_key
from ragixd.store import neighbours, queries
from ragixd.store.filters import Filters
from ragixd.store.projection import ConnectionView
from ragixd.store.store import Store

# The statement near() ran before the source key was stored (ragixd/store/queries.py at
# migration 6): of the `window` items nearest the anchor, those whose source_id up to its last
# ':' is the anchor's source plus ':'.
OLD_TERM = (
    "SELECT * FROM (SELECT ? AS slot, rid, id, created_at FROM (SELECT i.rid, i.id, i.created_at, "
    "coalesce(json_extract(i.provenance_json, '$.source_id'), '') AS sid FROM memory_items i "
    "WHERE (i.created_at, i.rid) {op} (?, ?) AND {where} ORDER BY i.created_at {order}, i.rid {order} LIMIT ?) "
    "WHERE rtrim(sid, replace(sid, ':', '')) = ? ORDER BY created_at {order}, rid {order} LIMIT ?)"
)
# The items of a source, by their provenance: a source_id of the source, ':' and a part without
# one (not "notes.md:3:x", whose source is "notes.md:3").
OLD_LIVE_OF_SOURCE = (
    "SELECT id FROM (SELECT id, rid, coalesce(json_extract(provenance_json, '$.source_id'), '') AS sid "
    "FROM memory_items WHERE store = ? AND archived = 0) "
    "WHERE sid >= ? AND sid < ? AND instr(substr(sid, length(?) + 2), ':') = 0 ORDER BY rid")
SOURCES = ["chat-1:S1:{n}", "chat-1:S2:{n}", "notes.md:{n}", "notes.md:{n}:x", "x:y:{n}", ":{n}", "plain{n}", ""]
TIMES = [f"2025-01-0{d}T10:00:00.000000Z" for d in range(1, 6)]


def old_near(conn, anchors, window, span, filters):
    where, params = filters.where()
    out = [[] for _ in anchors]
    for slot, (anchor, source) in enumerate(anchors):
        for op, order in (("<", "DESC"), (">", "ASC")):
            sql = OLD_TERM.format(op=op, where=where, order=order)
            args = [slot, anchor.created_at, anchor.rid, *params, window, source + ":", span]
            out[slot] += [tuple(row[1:]) for row in conn.execute(sql, args)]
    return out


def random_store(tmp_path, seed: int) -> Store:
    rng = random.Random(seed)
    store = Store(tmp_path / f"s{seed}.db", synchronous="OFF")
    ids = []
    for n in range(160):
        source = rng.choice(SOURCES).format(n=n)
        fields = {"title": f"t{n}", "content": f"content {n}", "created_at": rng.choice(TIMES),
                  "tier": rng.choice(["stm", "mtm"]) if source else "stm",  # mtm needs a source
                  "store": rng.choice(["private", "shared"]), "tags": rng.sample(["a", "b", "c"], rng.randint(0, 2)),
                  "provenance": {"source_kind": "chat", "source_id": source}}
        ids += [r["id"] for r in store.execute([c.CreateItem(fields, dedup=False)]).results]
    store.execute([c.ArchiveItem(i) for i in rng.sample(ids, 30)])
    for item_id in rng.sample(ids, 10):  # a moved source: the stored key follows the update
        store.execute([c.UpdateItem(item_id, {"provenance": {"source_kind": "chat",
                                                              "source_id": rng.choice(SOURCES).format(n=0)}})])
    return store


FILTERS = [Filters(), Filters(include_archived=True), Filters(tags=("a",)), Filters(tiers=("mtm",)),
           Filters(visible_stores=("shared",)), Filters(after=TIMES[1], before=TIMES[4])]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_neighbours_equal_those_of_the_provenance_query(tmp_path, seed):
    store = random_store(tmp_path, seed)
    conn = store.reader()
    every = queries.candidates(conn, [r[0] for r in conn.execute("SELECT rid FROM memory_items")],
                               Filters(include_archived=True))
    anchors = [(cand, source_key(cand.source_id)) for cand in every.values()]
    anchors = [(cand, key) for cand, key in anchors if key is not None]
    assert len(anchors) > 80
    lent = 0
    for filters in FILTERS:
        for window, span in ((8, 2), (3, 1), (4, 3), (1, 1), (20, 5)):
            with queries.snapshot(conn):
                new = neighbours.near(conn, anchors, window, span, filters)
                old = old_near(conn, anchors, window, span, filters)
            assert [[tuple(n) for n in found] for found in new] == old, (filters, window, span)
            lent += sum(map(len, old))
    assert lent > 1000  # the stores do have neighbours to find
    store.close()


@pytest.mark.parametrize("seed", [1, 2])
def test_items_of_a_source_equal_those_of_the_provenance_query(tmp_path, seed):
    store = random_store(tmp_path, seed)
    conn = store.reader()
    view = ConnectionView(conn)
    found = 0
    for source in ["chat-1", "chat-1:S1", "notes.md", "notes.md:3", "x", "x:y", "", "plain1", "zzz"]:
        for where in ("private", "shared"):
            old = [r[0] for r in conn.execute(OLD_LIVE_OF_SOURCE, (where, source + ":", source + ";", source))]
            assert view.live_of_source(where, source) == old, (where, source)
            found += len(old)
    assert found > 50
    store.close()
