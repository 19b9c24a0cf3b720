"""The entity signal: hits whose item lists an entity the query names gain w_entity, after
context is lent, and the ranking's pruning still gives the answer of scoring everything."""

from datetime import UTC, datetime

import pytest

from ragixd.domain import commands as c
from ragixd.memory import Memory
from ragixd.retrieval import entities
from ragixd.retrieval.hybrid import RecallConfig
from ragixd.store.filters import Filters


def open_memory(path, **recall):
    return Memory(path, synchronous="OFF", embedders=[{"backend": "none"}], backfill=False,
                  recall=RecallConfig(**recall))


def add(m, content, entities=(), source_id=""):
    prov = {"source_kind": "chat", "source_id": source_id} if source_id else {}
    return m.execute([c.CreateItem({"title": content.split()[0], "content": content, "entities": list(entities),
                                    "provenance": prov}, dedup=False)]).results[0]["id"]


def search(m, query, k=10, now=None):
    return m.search.search(m.store.reader(), query, Filters(), k, "fts", now)[0]


@pytest.mark.parametrize(("query", "listed", "named"), [
    ("What did Alice say about the trip?", ["Alice"], True),
    ("what did alice say", ["ALICE"], True),                   # case folded
    ("Qu'a dit Zoé ?", ["Zoe"], True),                         # diacritics folded
    ("Alice's trip", ["Alice"], True),                         # possessive
    ("What did Bob say?", ["Alice"], False),
    ("a trip to York", ["New York"], False),                   # every word of the entity
    ("a trip to New York", ["New York"], True),
    ("who is the one", ["The Who"], False),                    # stop words never name one
    ("Alicea said", ["Alice"], False),                         # whole words only
    ("postgres vacuum", ["Bob", "postgres"], True),            # any entity of the item
])
def test_names_any(query, listed, named):
    assert entities.names_any(entities.query_words(query), listed) is named


def test_an_item_of_the_named_entity_is_lifted_above_the_same_text_of_another(tmp_path):
    m = open_memory(tmp_path / "h")
    bob = add(m, "we went camping by the lake last weekend", ["Bob"])
    alice = add(m, "we went camping by the lake last weekend", ["Alice"])
    hits = search(m, "When did Alice go camping?")
    assert [h.item.id for h in hits] == [alice, bob]
    assert hits[0].signals["entity"] == pytest.approx(0.4) and "entity" not in hits[1].signals
    gap = hits[0].score - hits[1].score
    # A query naming no entity: text alone, the two equal.
    plain = {h.item.id: h.score for h in search(m, "camping by the lake")}
    assert plain[alice] == pytest.approx(plain[bob])
    m.close()
    m = open_memory(tmp_path / "h", w_entity=0.0)
    hits = search(m, "When did Alice go camping?")
    assert all("entity" not in h.signals for h in hits)
    # The name still weighs a little in BM25 (the entities column), the bonus no longer.
    assert hits[0].score - hits[1].score == pytest.approx(gap - 0.4)
    m.close()


def own(hit):
    """A hit's score before context and the entity signal were added."""
    return hit.score - hit.signals.get("neighbour", 0.0) - hit.signals.get("entity", 0.0)


def test_context_is_lent_without_the_entity_bonus(tmp_path):
    m = open_memory(tmp_path / "h", neighbour_span=1)
    asked = add(m, "Bob: what did you think of the lighthouse museum?", ["Bob"], "chat-1:S1:0")
    answer = add(m, "Alice: loved it, the old lens was the best part", ["Alice"], "chat-1:S1:1")
    for query, anchor, lent in (("What did Alice think of the lighthouse museum?", asked, answer),
                                ("What did Bob think of the lighthouse museum?", asked, answer)):
        hits = {h.item.id: h for h in search(m, query)}
        assert hits[lent].signals["neighbour"] == pytest.approx(0.5 * own(hits[anchor]))
    # Alice named: her reply gains the signal, the question it answers does not.
    hits = {h.item.id: h for h in search(m, "What did Alice think of the lighthouse museum?")}
    assert hits[answer].signals["entity"] == pytest.approx(0.4) and "entity" not in hits[asked].signals
    # Bob named: his question gains it, and lends its context without it.
    hits = {h.item.id: h for h in search(m, "What did Bob think of the lighthouse museum?")}
    assert hits[asked].signals["entity"] == pytest.approx(0.4) and "entity" not in hits[answer].signals
    assert hits[answer].signals["neighbour"] < 0.5 * (hits[asked].score - hits[asked].signals.get("neighbour", 0.0))
    m.close()


def test_a_neighbour_lent_context_alone_gains_the_signal(tmp_path):
    m = open_memory(tmp_path / "h", neighbour_span=1)
    asked = add(m, "Bob: what did you think of the lighthouse museum?", ["Bob"], "chat-1:S1:0")
    reply = add(m, "loved it, the old lens was the best part", ["Carol"], "chat-1:S1:1")
    hits = {h.item.id: h for h in search(m, "did Carol like the lighthouse museum?")}
    assert own(hits[reply]) > 0  # a candidate too: 'Carol' is in its entities column
    assert hits[reply].signals["entity"] == pytest.approx(0.4)
    assert hits[reply].score == pytest.approx(own(hits[reply]) + hits[reply].signals["neighbour"] + 0.4)
    assert hits[reply].signals["neighbour"] == pytest.approx(0.5 * own(hits[asked]))
    m.close()


def test_a_weak_named_candidate_is_scored_and_the_pruned_answer_is_the_full_one(tmp_path, monkeypatch):
    from ragixd.retrieval import ranking
    m = open_memory(tmp_path / "h")
    weak = add(m, "Alice: we walked along the harbour and saw the lighthouse", ["Alice"])
    for n in range(40):  # Bob's short notes naming Alice and the lighthouse outrank it
        add(m, f"Alice lighthouse note {n} " + "more " * (n // 30), ["Bob"])
    for n in range(100):  # and the words are not in every item
        add(m, f"harbour walk {n}")
    now = datetime.now(UTC)
    hits = search(m, "Alice lighthouse", 5, now)
    assert hits[0].item.id == weak and hits[0].signals["entity"] == pytest.approx(0.4)
    # Without the signal it is not among the best 25: the ranking scores it only because it
    # will gain the signal (its fused score plus every other weight is below the 20th best).
    m.search.config = RecallConfig(w_entity=0.0)
    assert weak not in {h.item.id for h in search(m, "Alice lighthouse", 25, now)}
    m.search.config = RecallConfig()
    monkeypatch.setattr(ranking, "_MARGIN", float("inf"))  # every candidate scored: the same answer
    everything = search(m, "Alice lighthouse", 5, now)
    assert [(h.item.id, h.score, h.signals) for h in everything] == [(h.item.id, h.score, h.signals) for h in hits]
    m.close()


def test_entities_are_read_for_the_given_rows_only(tmp_path):
    m = open_memory(tmp_path / "h")
    add(m, "first note", ["Alice"])
    add(m, "second note", [])
    conn = m.store.reader()
    rids = [rid for (rid,) in conn.execute("SELECT rid FROM memory_items ORDER BY rid")]
    assert entities.named(conn, "what did Alice note", rids) == {rids[0]}
    assert entities.named(conn, "what did Alice note", rids[1:]) == set()
    assert entities.named(conn, "what is it", rids) == set()  # stop words alone: nothing read
    m.close()
