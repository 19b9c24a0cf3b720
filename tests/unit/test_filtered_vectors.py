"""Vector candidates under filters: a filter that keeps few items is answered exactly over
them (never by searching the approximate index far past them), one that keeps none costs no
index search at all, and a broad one still returns only items that pass."""

import numpy as np
import pytest

from ragixd.domain import commands as c
from ragixd.memory import Memory
from ragixd.retrieval import hybrid
from ragixd.retrieval.embedding import embedding_text
from ragixd.store import queries
from ragixd.store.filters import Filters

WORDS = ("kafka broker retention log segment compaction vacuum postgres index planner cache "
         "deploy window friday rollback canary alert pager latency budget quota tenant").split()


@pytest.fixture
def memory(tmp_path):
    m = Memory(tmp_path / "home", synchronous="OFF", backfill=False)
    rng = np.random.default_rng(3)
    commands = []
    for i in range(240):
        text = " ".join(rng.choice(WORDS, size=12))
        tags = ["rare"] if i % 20 == 0 else ["common", f"g{i % 3}"]
        commands.append(c.CreateItem({"title": f"note {i}", "content": text, "tags": tags}))
    m.execute(commands)
    # These tests are about which neighbours a filter lets through and how they are found
    # (exactly or from the index), compared with numpy: no similarity floor in the way.
    m.search.embedder.min_similarity = None
    yield m
    m.close()


def vector_hits(memory, query, k=5, **filters):
    hits, used = memory.search.search(memory.store.reader(), query, Filters(**filters), k, "vector")
    assert used == "vector"
    return hits


def exact_top(memory, query, items, k):
    """The k items nearest to the query by cosine over the embedder's own float vectors."""
    embedder = memory.search.embedder
    q = embedder.embed_batch([query])[0]
    vecs = embedder.embed_batch([embedding_text(i) for i in items])
    sims = vecs @ q / (np.linalg.norm(vecs, axis=1) * np.linalg.norm(q))
    return [items[i].id for i in sorted(range(len(items)), key=lambda i: (-sims[i], items[i].id))[:k]]


def test_a_rare_tag_is_searched_exactly_over_its_items(memory, monkeypatch):
    def no_index_search(*_args, **_kwargs):
        raise AssertionError("a filter keeping 12 items must not search the approximate index")
    monkeypatch.setattr(memory.vectors, "search", no_index_search)
    conn = memory.store.reader()
    rare = queries.get_items(conn, [row[0] for row in conn.execute(
        "SELECT i.id FROM memory_items i JOIN item_tags t ON t.rid = i.rid WHERE t.tag = 'rare'")])
    assert len(rare) == 12
    hits = vector_hits(memory, "kafka retention compaction", k=5, tags=("rare",))
    assert all("rare" in h.item.tags for h in hits)
    assert {h.item.id for h in hits} == set(exact_top(memory, "kafka retention compaction", rare, 5))
    assert len(hits) == 5


def test_a_filter_keeping_nothing_searches_no_index(memory, monkeypatch):
    def no_index_search(*_args, **_kwargs):
        raise AssertionError("nothing passes the filter: the index must not be searched")
    monkeypatch.setattr(memory.vectors, "search", no_index_search)
    assert vector_hits(memory, "kafka retention", tiers=("ltm",)) == []
    assert vector_hits(memory, "kafka retention", tags=("no-such-tag",)) == []


def test_a_broad_filter_still_returns_only_items_that_pass(memory, monkeypatch):
    monkeypatch.setattr(hybrid, "EXACT_MAX", 10)  # g1 keeps ~76 items: the approximate path
    hits = vector_hits(memory, "postgres vacuum planner", k=8, tags=("g1",))
    assert len(hits) == 8 and all("g1" in h.item.tags for h in hits)


def test_filtered_rids_reads_at_most_the_limit(memory):
    conn = memory.store.reader()
    assert len(queries.filtered_rids(conn, Filters(tags=("rare",)), 12)) == 12
    assert queries.filtered_rids(conn, Filters(tags=("rare",)), 11) is None
    assert queries.filtered_rids(conn, Filters(tiers=("ltm",)), 5) == []
    assert len(queries.filtered_rids(conn, Filters(tiers=("stm",)), 1000)) == 240
    assert queries.filtered_rids(conn, Filters(tiers=("stm",)), 239) is None
    assert queries.filtered_rids(conn, Filters(after="2000-01-01T00:00:00Z"), 1000) is None  # no index: not looked up
    rare = queries.filtered_rids(conn, Filters(tags=("rare",)), 100)
    memory.execute([c.ArchiveItem(queries.items_by_rid(conn, rare[:1])[rare[0]].id)])
    assert len(queries.filtered_rids(conn, Filters(tags=("rare",)), 100)) == 11
    assert len(queries.filtered_rids(conn, Filters(tags=("rare",), include_archived=True), 100)) == 12
    assert len(queries.filtered_rids(conn, Filters(tiers=("stm",), include_archived=True), 1000)) == 240


def test_a_caller_seeing_few_items_gets_them_exactly(memory, monkeypatch):
    social = [memory.execute([c.CreateItem({"title": f"social {i}", "content": f"kafka retention note {i}",
                                            "store": "social"})]).results[0]["id"] for i in range(4)]

    def no_index_search(*_args, **_kwargs):
        raise AssertionError("4 visible items: the approximate index must not be searched")
    monkeypatch.setattr(memory.vectors, "search", no_index_search)
    hits = vector_hits(memory, "kafka retention", k=10, visible_stores=("social",))
    assert sorted(h.item.id for h in hits) == sorted(social)


def test_the_index_search_beside_full_text_keeps_the_callers_waiting_mode(memory):
    """The index search runs on a side thread; a caller that may not wait (the socket thread)
    still gets WouldBlock when the index is busy, and a caller that may wait still waits."""
    import threading

    from ragixd.nowait import WouldBlock, no_waiting
    index = memory.search.vectors.indexes[memory.search.embedder.model_name]
    conn = memory.store.reader()
    with index._lock:  # a long add or a checkpoint holds the index
        with no_waiting(), pytest.raises(WouldBlock):
            memory.search.search(conn, "kafka retention", Filters(), 5, "hybrid")
        box = []
        waiter = threading.Thread(target=lambda: box.append(
            memory.search.search(memory.store.reader(), "kafka retention", Filters(), 5, "hybrid")))
        waiter.start()
        waiter.join(0.5)
        assert waiter.is_alive()  # waiting for the index, as it may
    waiter.join(30)
    hits, used = box[0]
    assert used == "hybrid" and hits
