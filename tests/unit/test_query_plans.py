"""Every statement the read paths run, checked by its query plan: a filter that keeps most rows
(archived = 0, a few stores or tiers) must never drive a lookup from the indexes built for
counting and dedup. SQLite has no statistics here, so it takes such an equality for a
selective one: vector candidates fetched by row id then scanned the whole items table (10 ms
and more per query at 100k items instead of 0.1 ms)."""

from pathlib import Path

import pytest

from ragixd.domain import commands as c
from ragixd.domain.trust import Caller
from ragixd.memory import Memory
from ragixd.ops.handlers import search_filters
from ragixd.retrieval.backfill import missing
from ragixd.store import queries
from ragixd.store.filters import Filters

# Built for stats (a GROUP BY over every item) and for exact dedup (store, content hash).
COUNTING_INDEXES = ("idx_items_counts", "idx_items_hash")


@pytest.fixture
def memory(tmp_path: Path):
    mem = Memory(tmp_path / "home", synchronous="OFF", backfill=False)
    ids = []
    for i in range(120):
        source = {"source_kind": "chat", "source_id": f"session-1:{i}"}
        ids.append(mem.execute([c.CreateItem({
            "title": f"note {i} about kafka retention", "content": f"retention window of {i} days",
            "tags": ["ops", f"t{i % 5}"], "provenance": source, "why_store": "test"})]).results[0]["id"])
    mem.execute([c.ArchiveItem(ids[3])])
    mem.execute([c.AssignPalace(ids[5], {"domain": "infra", "room": "kafka", "shelf": "ops", "card": "x"})])
    yield mem, ids
    mem.close()


def traced(conn, run) -> list[tuple[str, tuple]]:
    statements: list[tuple[str, tuple]] = []

    def tracer(_cursor, sql, bindings):
        statements.append((sql, tuple(bindings or ())))
        return True

    conn.exec_trace = tracer
    try:
        run()
    finally:
        conn.exec_trace = None
    return statements


def plan(conn, sql: str, bindings: tuple) -> str:
    return " | ".join(row[3] for row in conn.execute("EXPLAIN QUERY PLAN " + sql, bindings))


def test_read_paths_never_drive_a_lookup_from_the_counting_indexes(memory):
    mem, ids = memory
    conn = mem.store.reader()
    filters = search_filters({}, Caller())
    narrow = Filters(tiers=("stm",), visible_stores=("private", "shared"))

    def run():
        for mode in ("fts", "vector", "hybrid"):
            for f in (filters, narrow):
                mem.search.search(conn, "kafka retention window", f, 10, mode)
        cands = queries.search_candidates(conn, "kafka", filters, 100)
        queries.candidates(conn, [cand.rid for cand, _ in cands], filters)
        queries.timeline(conn, ids[10], 5, 5, filters)
        queries.get_items(conn, ids[:20], filters)
        queries.palace_list(conn, "", ("private", "shared"))
        queries.palace_list(conn, "infra")
        missing(conn, "some-other-model", 50)

    # The bounded seeks of filtered_rids use the counting index on purpose (at most limit + 1 rows).
    statements = [(s, b) for s, b in traced(conn, run)
                  if "memory_items" in s and s.lstrip().upper().startswith("SELECT") and "bounded seek" not in s]
    assert len(statements) >= 10  # the paths above did reach the items table
    for sql, bindings in statements:
        shown = plan(conn, sql, bindings)
        assert not any(name in shown for name in COUNTING_INDEXES), f"{sql}\n  planned as: {shown}"


def test_stats_still_counts_over_its_covering_index(memory):
    mem, _ids = memory
    conn = mem.store.reader()
    statements = traced(conn, lambda: queries.stats(conn))
    assert any("idx_items_counts" in plan(conn, s, b) for s, b in statements if "memory_items" in s)


def test_no_write_scans_a_stored_table(memory):
    """A write must cost the same at 100 items as at a million: every statement it runs seeks
    an index (the only scan allowed is over the statement's own JSON argument)."""
    mem, ids = memory
    conn = mem.store._writer

    def run():
        mem.execute([c.CreateItem({"title": "new", "content": "gamma delta", "tags": ["ops"],
                                   "entities": ["Person 1"]})])
        mem.execute([c.CreateItem({"title": "note 7 about kafka retention", "content": "retention window of 7 days",
                                   "tags": ["ops", "t2"]})])  # an exact duplicate: a mention
        mem.execute([c.UpdateItem(ids[1], {"content": "changed text", "tags": ["z"]})])
        mem.execute([c.ArchiveItem(ids[2])])
        mem.execute([c.RecordUse({ids[4]: 2, ids[6]: 1})])
        mem.execute([c.CreateLink(ids[6], ids[7], "related")])
        mem.execute([c.AssignPalace(ids[8], {"domain": "a", "room": "b", "shelf": "c", "card": "d"})])
        mem.execute([c.SupersedeItem(ids[9], ids[10])])
        mem.execute([c.PromoteItem(ids[11], "mtm")])

    statements = [(s, b) for s, b in traced(conn, run)
                  if s.lstrip().upper().startswith(("SELECT", "INSERT", "UPDATE", "DELETE"))]
    assert len(statements) > 30
    for sql, bindings in statements:
        scans = [step for step in plan(conn, sql, bindings).split(" | ")
                 if step.startswith("SCAN") and "json_each" not in step and "CONSTANT ROW" not in step]
        assert not scans, f"{sql}\n  scans: {scans}"
