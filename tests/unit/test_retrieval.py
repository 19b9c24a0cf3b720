"""Retrieval in process: vectors committed with writes, the usearch projection's lifecycle,
hybrid search, recall modes."""


import pytest

from ragixd import contract
from ragixd.domain import commands as c
from ragixd.memory import Memory
from ragixd.retrieval.hybrid import RecallConfig
from ragixd.retrieval.recall import count_tokens, recall
from ragixd.store.filters import Filters

DOCS = [
    ("Deploy window", "Deploys happen on Fridays between 14 and 16h", ["ops"]),
    ("Database upkeep", "Postgres vacuum tuning for the large events table", ["db"]),
    ("Sécurité réseau", "Le pare-feu bloque le port 22 depuis l'extérieur", ["security"]),
    ("Holiday", "Alice goes skiing in the Alps every February", ["team"]),
    ("Coffee", "The office espresso machine needs descaling monthly", ["office"]),
]


@pytest.fixture
def memory(tmp_path):
    m = Memory(tmp_path / "home", synchronous="OFF", backfill=False)
    for title, content, tags in DOCS:
        m.execute([c.CreateItem({"title": title, "content": content, "tags": tags})])
    yield m
    m.close()


def ids_for(memory, query, mode="hybrid", k=5, **filters):
    hits, used = memory.search.search(memory.store.reader(), query, Filters(**filters), k, mode)
    return [h.item.title for h in hits], used


def test_every_write_commits_its_vector(memory):
    events = [e.type for e in memory.store.events()]
    assert events.count("item.embedded") == len(DOCS)
    status = memory.embedder_status()[0]
    assert status["embedded"] == status["items"] == status["indexed"] == len(DOCS)


def test_vectors_add_candidates_that_full_text_misses(memory):
    # Typos defeat the full-text index; character n-grams still land near the right item.
    fts, _ = ids_for(memory, "postgress vacum", mode="fts")
    assert fts == []
    vec, used = ids_for(memory, "postgress vacum", mode="hybrid")
    assert used == "hybrid" and vec[0] == "Database upkeep"


def test_hybrid_is_deterministic_and_ties_break_by_id(memory):
    from datetime import datetime, timezone
    now = datetime(2030, 1, 1, tzinfo=timezone.utc)  # recency is part of the score
    first = memory.search.search(memory.store.reader(), "database vacuum", Filters(), 5, "hybrid", now)[0]
    for _ in range(3):
        again = memory.search.search(memory.store.reader(), "database vacuum", Filters(), 5, "hybrid", now)[0]
        assert [(h.item.id, h.score) for h in again] == [(h.item.id, h.score) for h in first]
    scores = [h.score for h in first]
    assert scores == sorted(scores, reverse=True)


def test_filters_apply_to_vector_candidates(memory):
    assert ids_for(memory, "skiing in the alps with postgres", mode="vector")[0][0] == "Holiday"
    titles, _ = ids_for(memory, "skiing in the alps with postgres", mode="vector", tags=("db",))
    assert titles == ["Database upkeep"]


def test_archived_items_are_never_returned(memory):
    hits, _ = memory.search.search(memory.store.reader(), "Alice goes skiing in the Alps", Filters(), 5, "vector")
    holiday = hits[0].item.id
    assert hits[0].item.title == "Holiday"
    memory.execute([c.ArchiveItem(holiday)])
    titles, _ = ids_for(memory, "skiing Alps", mode="vector")
    assert "Holiday" not in titles
    assert memory.vectors.counts()[memory.search.embedder.model_name] == len(DOCS) - 1


def test_updates_replace_the_vector(memory):
    hits, _ = memory.search.search(memory.store.reader(), "espresso", Filters(), 1, "vector")
    memory.execute([c.UpdateItem(hits[0].item.id, {"content": "Tea kettle in the kitchen"})])
    titles, _ = ids_for(memory, "kettle tea", mode="vector", k=1)
    assert titles == ["Coffee"]


def test_the_index_survives_a_restart_and_is_rebuilt_when_damaged(tmp_path):
    home = tmp_path / "home"
    m = Memory(home, synchronous="OFF", backfill=False)
    for title, content, tags in DOCS:
        m.execute([c.CreateItem({"title": title, "content": content, "tags": tags})])
    m.close()
    m = Memory(home, synchronous="OFF", backfill=False)
    assert sum(m.vectors.counts().values()) == len(DOCS)
    m.close()
    index_file = next((home / "vectors").glob("*.usearch"))
    index_file.write_bytes(b"garbage" * 10)
    m = Memory(home, synchronous="OFF", backfill=False)
    assert sum(m.vectors.counts().values()) == len(DOCS)
    titles, _ = ids_for(m, "Alice goes skiing in the Alps", mode="vector", k=1)
    assert titles == ["Holiday"]
    m.close()


def test_catch_up_after_writes_that_missed_the_checkpoint(tmp_path):
    home = tmp_path / "home"
    m = Memory(home, synchronous="OFF", backfill=False)
    m.execute([c.CreateItem({"title": "one", "content": "first"})])
    m.vectors.save()
    m.execute([c.CreateItem({"title": "two", "content": "second"})])
    m.store.close()  # a crash: no final checkpoint
    m = Memory(home, synchronous="OFF", backfill=False)
    assert sum(m.vectors.counts().values()) == 2
    m.close()


def test_no_embedder_means_lexical_search(tmp_path):
    m = Memory(tmp_path / "h", synchronous="OFF", embedders=[{"backend": "none"}], backfill=False)
    m.execute([c.CreateItem({"title": "Deploy window", "content": "Fridays"})])
    titles, used = ids_for(m, "deploy", mode="hybrid")
    assert titles == ["Deploy window"] and used == "fts"
    m.close()


def test_a_model_added_later_is_back_filled(tmp_path):
    home = tmp_path / "h"
    m = Memory(home, synchronous="OFF", embedders=[{"backend": "none"}], backfill=False)
    for title, content, tags in DOCS:
        m.execute([c.CreateItem({"title": title, "content": content, "tags": tags})])
    m.close()
    m = Memory(home, synchronous="OFF", backfill=False)
    assert m.embedder_status()[0]["missing"] == len(DOCS)
    assert m.fill_vectors() == len(DOCS)
    assert m.embedder_status()[0]["missing"] == 0
    assert m.store.verify()["ok"]
    m.close()


def test_blend_fusion_is_available(tmp_path):
    m = Memory(tmp_path / "h", synchronous="OFF", backfill=False, recall=RecallConfig(fusion="blend"))
    for title, content, tags in DOCS:
        m.execute([c.CreateItem({"title": title, "content": content, "tags": tags})])
    titles, _ = ids_for(m, "postgres vacuum")
    assert titles[0] == "Database upkeep"
    m.close()


def test_inject_respects_the_budget_and_catalog_lists(memory):
    hits, _ = memory.search.search(memory.store.reader(), "deploy database security", Filters(), 5, "hybrid")
    out = recall(hits, "hybrid", budget=60, catalog_k=3)
    assert out["tokens"] <= 60 and count_tokens(out["text"]) <= 60
    assert out["text"].startswith("[MEMORY: MEM-") and out["text"].rstrip().endswith("[/MEMORY]")
    assert len(out["catalog"]) == 3 and '"memory_catalog"' in out["catalog_text"]
    assert recall(hits, "inject", budget=1, catalog_k=3)["injected"] == []


def test_switching_models_needs_no_downtime(tmp_path):
    home = tmp_path / "h"
    m = Memory(home, synchronous="OFF", embedders=[{"backend": "none"}], backfill=False)
    for title, content, tags in DOCS:
        m.execute([c.CreateItem({"title": title, "content": content, "tags": tags})])
    titles, used = ids_for(m, "postgres vacuum")
    assert used == "fts" and titles[0] == "Database upkeep"
    assert m.reconfigure([{"backend": "hash"}]) == ["hash-v2-384"]
    titles, _ = ids_for(m, "postgres vacuum")  # still served while vectors are missing
    assert titles[0] == "Database upkeep"
    m.fill_vectors()
    titles, used = ids_for(m, "postgress vacum")
    assert used == "hybrid" and titles[0] == "Database upkeep"
    m.execute([c.CreateItem({"title": "New", "content": "written after the switch"})])
    assert m.embedder_status()[0]["missing"] == 0  # new writes are embedded inline
    m.close()


def test_an_idle_back_filler_does_not_scan_while_nothing_is_committed(tmp_path, monkeypatch):
    """Looking for items without vectors reads the whole items table; a back-filler whose last
    pass found nothing skips that until something new is committed."""
    from ragixd.retrieval import backfill

    mem = Memory(tmp_path / "home", backfill=False)
    mem.execute([c.CreateItem({"title": f"note {i}", "content": "text"}) for i in range(5)])
    embedder = mem.embedders[0][0]
    filler = backfill.Backfiller(embedder, mem.store.reader, lambda: mem.store.head_seq,
                                 mem._submit_direct)
    scans = []
    real = backfill.missing
    monkeypatch.setattr(backfill, "missing", lambda *a: scans.append(1) or real(*a))
    assert filler.run_once() == 0 and len(scans) == 1  # inline vectors: nothing missing
    assert filler.run_once() == 0 and len(scans) == 1  # nothing committed since: no scan
    mem.execute([c.CreateItem({"title": "one more", "content": "text"})])
    assert filler.run_once() == 0 and len(scans) == 2  # a commit: look again
    mem.close()


def test_a_home_of_an_older_hash_version_back_fills_the_new_one(tmp_path, monkeypatch):
    from ragixd.embed import hashing
    home = tmp_path / "h"
    monkeypatch.setattr(hashing, "FEATURE_VERSION", 1)
    m = Memory(home, synchronous="OFF", backfill=False)
    for title, content, tags in DOCS:
        m.execute([c.CreateItem({"title": title, "content": content, "tags": tags})])
    assert m.embedder_status()[0]["model"] == "hash-v1-384" and m.embedder_status()[0]["missing"] == 0
    m.close()
    monkeypatch.setattr(hashing, "FEATURE_VERSION", 2)
    m = Memory(home, synchronous="OFF")  # as the daemon opens it: back-filler running
    m.start_backfill()
    try:
        status = m.embedder_status()[0]
        assert status["model"] == "hash-v2-384"
        filler = m.backfillers[0]
        filler.wake()
        assert filler.wait_caught_up(m.store.head_seq, 20)
        assert m.embedder_status()[0]["missing"] == 0
        assert ids_for(m, "postgres vacuum")[0]
    finally:
        m.close()


def test_vector_weight_is_the_embedders_own_unless_the_config_sets_one():
    from ragixd.embed.hashing import HashEmbedder
    from ragixd.retrieval.hybrid import MODEL_VECTOR_WEIGHT, HybridSearch, RecallConfig

    class Model:  # a learned embedder names no weight of its own
        model_name, dimension = "model", 4

    searches = []
    try:
        for config, embedder, expected in ((RecallConfig(), HashEmbedder(), 0.5),
                                           (RecallConfig(), Model(), MODEL_VECTOR_WEIGHT),
                                           (RecallConfig(w_vector=1.25), HashEmbedder(), 1.25),
                                           (RecallConfig.from_mapping({"w_vector": 0.3}), Model(), 0.3)):
            searches.append(HybridSearch(config, None, embedder))
            assert searches[-1].vector_weight() == expected
    finally:
        for s in searches:
            s.close()
    assert MODEL_VECTOR_WEIGHT > 0.5  # a learned model's neighbours count for more than hashed words'


def test_an_index_that_outgrows_its_flat_table_keeps_every_vector_across_restarts(tmp_path, monkeypatch):
    """Past EXACT_BELOW (lowered here) the index moves into its large layout (the hash
    embedder's: the scan table); its checkpoint, a restart, a catch-up of writes after the
    checkpoint and an archive all keep the same items found."""
    from ragixd.vectors import index as vector_index
    monkeypatch.setattr(vector_index, "EXACT_BELOW", 8)
    home = tmp_path / "home"
    m = Memory(home, synchronous="OFF", backfill=False)
    for title, content, tags in DOCS:
        m.execute([c.CreateItem({"title": title, "content": content, "tags": tags})])
    (index,) = m.vectors.indexes.values()
    assert index.is_flat
    m.vectors.save()  # a checkpoint of the flat table
    extra = [c.CreateItem({"title": f"Runbook {n}", "content": f"Restart worker {n} after the {word} alert"})
             for n, word in enumerate(("disk", "memory", "latency", "queue", "certificate"))]
    m.execute(extra)
    assert not index.is_flat and len(index) == len(DOCS) + 5
    m.store.close()  # a crash: the checkpoint holds the table, the log the rest
    m = Memory(home, synchronous="OFF", backfill=False)
    (index,) = m.vectors.indexes.values()
    assert not index.is_flat and len(index) == len(DOCS) + 5
    assert ids_for(m, "Alice goes skiing in the Alps", mode="vector", k=1)[0] == ["Holiday"]
    assert ids_for(m, "worker certificate alert", mode="vector", k=1)[0] == ["Runbook 4"]
    m.vectors.save()  # a checkpoint of the scan table
    holiday = m.store.reader().execute("SELECT id FROM memory_items WHERE title = 'Holiday'").fetchone()[0]
    m.execute([c.ArchiveItem(holiday, reason="outdated")])
    m.close()
    m = Memory(home, synchronous="OFF", backfill=False)
    assert sum(m.vectors.counts().values()) == len(DOCS) + 4
    assert "Holiday" not in ids_for(m, "Alice goes skiing in the Alps", mode="vector", k=3)[0]
    m.close()


@pytest.mark.parametrize("weights", [{"w_vector": 0.0}, {"w_fts": 0.0}])
def test_a_list_of_weight_zero_is_left_out_of_the_fusion(tmp_path, weights):
    """A zero weight asks for that list to count for nothing: searches whose candidates come
    only from it, or from both, still answer (they divided by zero)."""
    for fusion in ("blend", "rrf"):
        m = Memory(tmp_path / f"h-{fusion}", synchronous="OFF", backfill=False,
                   recall=RecallConfig(fusion=fusion, **weights))
        for title, content, tags in DOCS:
            m.execute([c.CreateItem({"title": title, "content": content, "tags": tags})])
        for query in ("postgres vacuum", "databse upkep", "zzqx"):  # both lists, vectors only, neither
            hits, _ = m.search.search(m.store.reader(), query, Filters(), 5, "hybrid")
            assert all(h.score == h.score for h in hits)  # no NaN
        m.close()


@pytest.mark.parametrize("bad", [{"w_tag": -0.1}, {"w_fts": float("nan")}, {"w_vector": float("inf")},
                                 {"candidates": 0}, {"rrf_k": 0}, {"w_fts": 0, "w_vector": 0}])
def test_recall_weights_out_of_range_are_a_config_error(bad):
    from ragixd.errors import ConfigError
    with pytest.raises(ConfigError):
        RecallConfig.from_mapping(bad)


def test_a_scan_table_searched_in_turn_answers_as_one_searched_beside(tmp_path, monkeypatch):
    """Hybrid search runs a table's search on the caller's thread with the full-text query
    beside it, and a graph's beside the full-text query: the answers are the same either way
    (filtered ones included: the filter's items are counted before the full-text query starts
    on the same connection)."""
    from datetime import datetime, timezone

    from ragixd.retrieval.vector_store import VectorStore
    from ragixd.vectors import index as vector_index
    monkeypatch.setattr(vector_index, "EXACT_BELOW", 8)
    m = Memory(tmp_path / "home", synchronous="OFF", backfill=False)
    try:
        for title, content, tags in DOCS * 3:
            m.execute([c.CreateItem({"title": f"{title} {len(content)}", "content": content + " " + title,
                                     "tags": tags})])
        m.execute([c.CreateItem({"title": f"Note {n}", "content": f"Postgres note {n} on vacuum and {w}"})
                   for n, w in enumerate(("locks", "bloat", "indexes", "autovacuum"))])
        (index,) = m.vectors.indexes.values()
        assert index.layout == "scan" and not index.is_flat and not m.vectors.overlaps(index.model)
        now = datetime(2030, 1, 1, tzinfo=timezone.utc)
        queries = ["postgress vacum", "skiing Alps", "pare-feu port", "espresso", "deploy friday"]

        def answers():
            reader = m.store.reader()
            return [[(h.item.id, h.score) for h in m.search.search(reader, q, Filters(), 5, "hybrid", now)[0]]
                    for q in queries] + \
                   [[(h.item.id, h.score) for h in m.search.search(reader, q, Filters(tags=["db"]), 5, "hybrid", now)[0]]
                    for q in queries]

        in_turn = answers()
        monkeypatch.setattr(VectorStore, "overlaps", lambda self, model: True)
        assert answers() == in_turn
        assert any(in_turn)
    finally:
        m.close()


def test_the_vectors_layout_setting_picks_each_models_index_and_a_home_converts_between_them(tmp_path, monkeypatch):
    """[vectors] layout: auto gives hash models the scan table and learned ones the graph;
    graph or scan gives every model that one. A home reopened under the other layout converts
    its index on load and finds the same nearest items."""
    from ragixd.errors import ConfigError
    from ragixd.retrieval.vector_store import VectorStore, layout_from_mapping
    from ragixd.vectors import index as vector_index

    assert layout_from_mapping({}) == "auto" and layout_from_mapping({"layout": "graph"}) == "graph"
    for bad, says in (({"layout": "hnsw"}, "must be one of auto, graph, scan"),
                      ({"layout": 3}, "must be one of"), ({"layuot": "scan"}, "unknown [vectors] keys: layuot")):
        with pytest.raises(ConfigError) as err:
            layout_from_mapping(bad)
        assert says in err.value.message
    with pytest.raises(ValueError):
        VectorStore(tmp_path / "v", layout="hnsw")
    for layout, hashed, learned in (("auto", "scan", "graph"), ("graph", "graph", "graph"), ("scan", "scan", "scan")):
        store = VectorStore(tmp_path / layout, layout=layout)
        assert (store.layout_of("hash-v2-384"), store.layout_of("onnx-all-minilm-l6-v2")) == (hashed, learned)

    monkeypatch.setattr(vector_index, "EXACT_BELOW", 8)
    home = tmp_path / "home"
    found = {}
    for layout in ("auto", "graph", "auto"):
        m = Memory(home, synchronous="OFF", backfill=False, vector_layout=layout)
        try:
            if layout == "auto" and not found:
                m.execute([c.CreateItem({"title": f"Note {n}", "content": f"Postgres note {n} on vacuum and {w}"})
                           for n, w in enumerate(("locks", "bloat", "indexes", "autovacuum", "replicas",
                                                  "backups", "sharding", "pooling", "tuning", "wal"))])
            (index,) = m.vectors.indexes.values()
            assert index.layout == ("scan" if layout == "auto" else "graph") and not index.is_flat
            assert len(index) == 10
            status = m.embedder_status()
            assert [e["layout"] for e in status] == [index.layout]
            # which loops scan a column-scan table is said for that layout only, as the
            # embedders op's schema describes it
            assert ("kernel" in status[0]) == (index.layout == "scan")
            assert contract.first_error("ops/embedders#answer", {"embedders": status}) is None
            reader = m.store.reader()
            answer = [h.item.id for h in m.search.search(reader, "vacuum bloat", Filters(), 3, "vector")[0]]
            m.vectors.save()
        finally:
            m.close()
        found.setdefault(answer[0], []).append(layout)
    assert list(found.values()) == [["auto", "graph", "auto"]]
