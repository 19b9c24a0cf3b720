"""Hybrid ranking on light rows: context lent by neighbours of the same source, filters on
every path, and hits that carry fully decoded items and the right signals."""

from datetime import UTC, datetime

import pytest

from ragixd.domain import commands as c
from ragixd.memory import Memory
from ragixd.retrieval.hybrid import RecallConfig
from ragixd.store.filters import Filters

TURNS = [
    "Alice: morning, how was the weekend?",
    "Bob: we drove up north with the kids",
    "Alice: did you finally visit the lighthouse museum?",
    "Bob: yes, and the kids loved the old fresnel lens",
    "Alice: I should take my nephew there in spring",
]


@pytest.fixture
def memory(tmp_path):
    m = Memory(tmp_path / "home", synchronous="OFF", embedders=[{"backend": "none"}], backfill=False,
               recall=RecallConfig(neighbour_span=1))
    yield m
    m.close()


def add(m, content, source_id="", **fields):
    prov = {"source_kind": "chat", "source_id": source_id} if source_id else {}
    title = content.split()[0]  # a blank title is refused: the speaker of a chat turn
    return m.execute([c.CreateItem({"title": title, "content": content, "provenance": prov, **fields},
                                   dedup=False)]).results[0]["id"]


def search(m, query, k=10, **filters):
    return m.search.search(m.store.reader(), query, Filters(**filters), k, "fts")[0]


def chat(m):
    ids = []
    for n, text in enumerate(TURNS):
        ids.append(add(m, text, f"chat-1:S1:{n}"))
        if n == 2:
            add(m, "Carol: the lighthouse tour is sold out", "chat-2:S1:0")  # another source, in between
    return ids


def test_neighbours_of_the_same_source_inherit_part_of_the_score(memory):
    ids = chat(memory)
    hits = {h.item.id: h for h in search(memory, "museum")}
    best = hits[ids[2]]
    assert best.signals["fused"] > 0
    for neighbour in (ids[1], ids[3]):  # one on each side (span 1), the other source skipped
        assert hits[neighbour].signals["neighbour"] == pytest.approx(0.5 * best.score)
        assert hits[neighbour].signals["fused"] == 0.0
    assert ids[0] not in hits and ids[4] not in hits


def test_filters_apply_to_neighbours(memory):
    ids = chat(memory)
    memory.execute([c.ArchiveItem(ids[1])])
    found = {h.item.id for h in search(memory, "museum")}
    assert ids[1] not in found and ids[3] in found
    assert {h.item.id for h in search(memory, "museum", tags=("nothing",))} == set()


def test_hits_carry_whole_items_and_light_row_signals(memory):
    doc = memory.execute([c.CreateItem({
        "title": "Lighthouse lens", "content": "fresnel lens catalogue", "tags": ["lens", "museum"],
        "provenance": {"source_kind": "doc", "source_id": "lens.md:1", "content_hashes": ["sha256:" + "ab" * 32]}})]).results[0]["id"]
    plain = add(memory, "a lens cap was lost")
    hits = search(memory, "lens")
    by_id = {h.item.id: h for h in hits}
    assert by_id[doc].item == memory.store.get(doc)
    assert by_id[doc].signals["provenance"] == 1.0 and by_id[plain].signals["provenance"] == 0.2
    assert by_id[doc].signals["tag"] == 0.5  # 'lens' named, 'museum' not
    assert [h.item.id for h in hits] == [doc, plain]


def test_vector_candidates_respect_filters_without_decoding_rows(tmp_path):
    m = Memory(tmp_path / "h", synchronous="OFF", backfill=False)
    keep = m.execute([c.CreateItem({"title": "Vacuum", "content": "postgres vacuum tuning", "tags": ["db"]})]).results[0]["id"]
    m.execute([c.CreateItem({"title": "Vacuum cleaner", "content": "vacuum the office", "tags": ["office"]})])
    hits, used = m.search.search(m.store.reader(), "vacuum", Filters(tags=("db",)), 5, "vector")
    assert used == "vector" and [h.item.id for h in hits] == [keep]
    m.close()


def test_other_scripts_are_searched_by_meaning_and_blank_queries_find_nothing(tmp_path):
    m = Memory(tmp_path / "h", synchronous="OFF", backfill=False)
    ids = [m.execute([c.CreateItem({"title": text.split()[0], "content": text})]).results[0]["id"] for text in (
        "Резервное копирование базы данных каждую ночь", "Обед в столовой в час дня",
        "Το αντίγραφο ασφαλείας τρέχει κάθε βράδυ")]
    conn = m.store.reader()
    hits, _ = m.search.search(conn, "копирование базы", Filters(), 3, "vector")
    assert hits[0].item.id == ids[0] and all(h.score < hits[0].score for h in hits[1:])
    for blank in ("🙂", "*", "?!"):
        assert m.search.search(conn, blank, Filters(), 3, "vector")[0] == []
        assert m.search.search(conn, blank, Filters(), 3, "hybrid")[0] == []
    m.close()


def test_made_up_words_find_nothing_rather_than_the_nearest_of_nothing(tmp_path):
    m = Memory(tmp_path / "h", synchronous="OFF", backfill=False)
    m.execute([c.CreateItem({"title": f"note {n}", "content": text}) for n, text in enumerate((
        "Kafka retention is seven days on the events topic",
        "The office espresso machine needs descaling monthly",
        "Postgres vacuum runs nightly on the large tables"))])
    conn = m.store.reader()
    for query in ("xyzzy plugh", "blorfendak quimbly"):
        for mode in ("vector", "hybrid"):
            assert m.search.search(conn, query, Filters(), 10, mode)[0] == [], (query, mode)
    hits, _ = m.search.search(conn, "espresso descaling", Filters(), 10, "vector")
    assert [h.item.title for h in hits][:1] == ["note 1"]
    m.close()


def test_a_candidate_left_unscored_is_scored_when_a_neighbour_lends_it_context(memory, monkeypatch):
    from ragixd.retrieval import ranking
    strong = add(memory, "Alice: the lighthouse museum keeps a fresnel lens", "chat-9:S1:0")
    weak = add(memory, "Bob: " + "we walked along the harbour and then " * 8 + "saw the lighthouse", "chat-9:S1:1")
    for n in range(30):  # short items about the lighthouse outrank the weak turn by far
        add(memory, f"lighthouse lighthouse note {n}")
    for n in range(100):  # and the word is not in every item
        add(memory, f"harbour walk {n}")
    late = []
    real_late = ranking.Ranking.late
    monkeypatch.setattr(ranking.Ranking, "late", lambda self, rid: late.append(r := real_late(self, rid)) or r)
    now = datetime.now(UTC)
    hits = memory.search.search(memory.store.reader(), "lighthouse fresnel", Filters(), 5, "fts", now)[0]
    assert [h.id for h in late if h] == [weak]  # it was left waiting, then scored when lent context
    by_id = {h.item.id: h for h in hits}
    assert weak in by_id and by_id[weak].signals["fused"] > 0 and by_id[weak].signals["neighbour"] == pytest.approx(0.5 * by_id[strong].score)
    monkeypatch.setattr(ranking, "_MARGIN", float("inf"))  # every candidate scored: the same answer
    everything = memory.search.search(memory.store.reader(), "lighthouse fresnel", Filters(), 5, "fts", now)[0]
    assert [(h.item.id, h.score, h.signals) for h in everything] == [(h.item.id, h.score, h.signals) for h in hits]


def test_the_best_few_are_the_first_of_the_best_ten(tmp_path):
    """A search asked for k ≤ 10 hits answers the first k of the same search asked for 10: the
    candidates and their ranking do not depend on how many are shown (a cheaper all-words
    intersection for a small k once changed the top 3)."""
    import random

    rng = random.Random(7)
    vocabulary = [f"w{i}" for i in range(300)]
    m = Memory(tmp_path / "k", synchronous="OFF", backfill=False)
    try:
        m.execute([c.CreateItem({"title": " ".join(rng.choices(vocabulary, k=3)),
                                 "content": " ".join(rng.choices(vocabulary, k=rng.randint(5, 30))),
                                 "tags": [rng.choice(vocabulary)]}, dedup=False) for _ in range(1000)])
        reader = m.store.reader()
        for _ in range(60):
            query = " ".join(rng.choices(vocabulary, k=rng.randint(1, 3)))
            for mode in ("fts", "hybrid", "vector"):
                ten = [h.item.id for h in m.search.search(reader, query, Filters(), 10, mode)[0]]
                for k in (1, 3, 5):
                    few = [h.item.id for h in m.search.search(reader, query, Filters(), k, mode)[0]]
                    assert few == ten[:k], (mode, query, k)
    finally:
        m.close()
