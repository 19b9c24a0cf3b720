"""Full-text search strategy: items holding every query word first, bm25 over any word when
there are too few of them, filters applied on both paths."""

from ragixd.domain import commands as c
from ragixd.store import queries
from ragixd.store.filters import Filters


def create(s, **fields):
    fields.setdefault("content", f"about {fields.get('title', '')}")  # blank content is refused
    return s.run(c.CreateItem(fields))["id"]


def corpus(store):
    """'kafka' is rare and 'retention' common: under any-word bm25 the short item about kafka
    alone outranks the long items holding both words."""
    lone = create(store, title="kafka", content="kafka kafka brokers")
    both = [create(store, title=f"retention note {i}",
                   content=f"kafka topics keep data under a retention window of {i} days, then the "
                           "log cleaner removes old segments and compaction runs in the background")
            for i in range(3)]
    for i in range(30):
        create(store, title=f"other {i}", content=f"retention of backups number {i}")
    return lone, both


def test_items_holding_every_word_come_first_when_there_are_enough(store):
    lone, both = corpus(store)
    wide = store.search("kafka retention", k=5)  # only 3 hold both words: bm25 over any word
    assert wide[0][0].id == lone
    narrow = store.search("kafka retention", k=3)
    assert {i.id for i, _ in narrow} == set(both)
    scores = [s for _, s in narrow]
    assert scores == sorted(scores, reverse=True) and scores[-1] > 0


def test_filters_apply_to_items_holding_every_word(store):
    _lone, both = corpus(store)
    store.run(c.ArchiveItem(both[0]))
    found = [i.id for i, _ in store.search("kafka retention", k=2)]
    assert both[0] not in found and set(found) == set(both[1:])
    with_archived = store.search("kafka retention", Filters(include_archived=True), k=3)
    assert {i.id for i, _ in with_archived} == set(both)


def test_match_expressions_quote_every_word():
    assert queries.match_expression('kafka "retention" OR x') == '"kafka" OR "retention"'
    assert queries.match_expression("kafka retention", every=True) == '"kafka" AND "retention"'
    assert queries.match_expression("  ") is None


def test_store_filters_never_drive_a_search_from_the_store_index(store):
    # Visibility filters select most rows; driving the join from idx_items_hash(store, ...)
    # read every item of the store for each search.
    corpus(store)
    where, params = Filters(visible_stores=("private", "shared"), tiers=("stm",)).where()
    conn = store.reader()
    # With a probe of 420 (100 hybrid candidates) the planner preferred that index.
    for sql, args in ((queries._TOP_SQL, ['"kafka"', 420, *params, 100]), (queries._ALL_SQL, ['"kafka"', *params, 100])):
        plan = " | ".join(row[3] for row in conn.execute("EXPLAIN QUERY PLAN " + sql.format(cols="i.id", where=where), args))
        assert "idx_items_hash" not in plan and "SCAN memory_items_fts" in plan.replace("SCAN f ", "SCAN memory_items_fts ")
    assert {i.id for i, _ in store.search("kafka retention", Filters(visible_stores=("private",)), k=3)}


def test_scores_are_the_tables_rank_on_both_paths(store):
    # Searches call bm25() by name (a bounded sort); its weights must stay the table's rank.
    corpus(store)
    conn = store.reader()
    rank = dict(conn.execute("SELECT rowid, -rank FROM memory_items_fts WHERE memory_items_fts MATCH ?",
                             ('"kafka" OR "retention"',)))
    assert len({round(v, 9) for v in rank.values()}) > 2  # the weights tell items apart
    rid_of = dict((i, r) for r, i in conn.execute("SELECT rid, id FROM memory_items"))
    for k in (3, 5, 40):  # every word; any word, best 4k + 20; any word, every match
        found = store.search("kafka retention", k=k)
        assert found and all(score == rank[rid_of[item.id]] for item, score in found)


def test_candidates_carry_the_provenance_fields_json_extract_reads(store):
    doc = create(store, title="kafka doc", provenance={
        "source_kind": "doc", "source_id": "notes.md:3", "content_hashes": ["sha256:" + "ab" * 32, "sha256:" + "cd" * 32]})
    chat = create(store, title="kafka chat")
    conn = store.reader()
    # A provenance written before a field existed reads with that field's default.
    conn.execute("UPDATE memory_items SET provenance_json = '{\"source_id\":\"x:1\"}' WHERE id = ?", (chat,))
    sql = ("SELECT rid, coalesce(json_extract(provenance_json, '$.source_kind'), 'chat'), "
           "coalesce(json_extract(provenance_json, '$.source_id'), ''), "
           "coalesce(json_array_length(provenance_json, '$.content_hashes'), 0) FROM memory_items")
    expected = {rid: tuple(rest) for rid, *rest in conn.execute(sql)}
    assert expected[conn.execute("SELECT rid FROM memory_items WHERE id=?", (doc,)).fetchone()[0]] == ("doc", "notes.md:3", 2)
    for found in (dict(queries.candidates(conn, list(expected), Filters())),
                  {cand.rid: cand for cand, _ in queries.search_candidates(conn, "kafka", Filters(), 10)}):
        assert {rid: (c.source_kind, c.source_id, c.hashes) for rid, c in found.items()} == expected
