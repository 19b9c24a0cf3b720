"""The column-scan table (vectors/scan.py): exact answers for sparse queries, the budgeted
two-step search for dense ones, the key map, removal across blocks, checkpoints; and the
VectorIndex that moves a hash model's vectors into it."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragixd.embed.hashing import HashEmbedder, is_hash_model
from ragixd.retrieval.vector_store import VectorStore
from ragixd.vectors import index as vector_index
from ragixd.vectors import kernels, scan
from ragixd.vectors.flat import pack_arrays
from ragixd.vectors.index import VectorIndex
from ragixd.vectors.scan import ScanVectors, quantise

DIM = 48


def unit(rows: np.ndarray) -> np.ndarray:
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


def sparse_queries(rng: np.random.Generator, n: int, nonzero: int, dim: int = DIM) -> np.ndarray:
    q = np.zeros((n, dim), dtype=np.float32)
    for row in q:
        row[rng.choice(dim, nonzero, replace=False)] = rng.standard_normal(nonzero)
    return unit(q)


def rounded(vectors: np.ndarray) -> np.ndarray:
    """The vectors as the table stores them (int8 and a scale each)."""
    codes, scales = quantise(vectors)
    return codes.astype(np.float32) * scales[:, None]


def brute(stored: np.ndarray, keys: np.ndarray, query: np.ndarray, k: int) -> list[int]:
    """Exact top k by cosine over the vectors as the table stores them."""
    rows = rounded(stored)
    sims = (rows @ query) / np.linalg.norm(rows, axis=1)
    return [int(keys[i]) for i in np.lexsort((keys, -sims))[:k]]


@pytest.fixture(autouse=True, params=["compiled", "numpy"])
def loops(request):
    """Every test here runs with the compiled loops (where they run) and with numpy's."""
    kernels._state.clear()
    if request.param == "numpy":
        kernels.use_numpy("test")
    elif kernels.backend() != "numba":
        pytest.skip(f"the compiled loops do not run here: {kernels.backend()}")
    yield request.param
    kernels._state.clear()


@pytest.fixture
def small_blocks(monkeypatch):
    """Blocks of 64 rows: the paths across blocks run on a few hundred vectors."""
    monkeypatch.setattr(scan, "BLOCK", 64)


def test_int8_codes_keep_each_vector_to_within_half_a_level():
    rng = np.random.default_rng(1)
    vectors = np.vstack([rng.standard_normal((50, DIM)) * 10.0 ** rng.integers(-4, 3, (50, 1)),
                         np.zeros((1, DIM))]).astype(np.float32)
    codes, scales = quantise(vectors)
    assert codes.dtype == np.int8 and scales.dtype == np.float32
    assert np.all(np.abs(codes).max(axis=1)[:-1] == scale_levels())
    back = rounded(vectors)
    assert np.all(np.abs(back - vectors) <= 0.5 * scales[:, None] * (1 + 1e-5))
    assert not back[-1].any()


def scale_levels() -> int:
    return scan.LEVELS


def test_sparse_queries_get_their_exact_neighbours(small_blocks):
    rng = np.random.default_rng(3)
    vectors = unit(rng.standard_normal((700, DIM)))
    keys = np.arange(5000, 5700, dtype=np.uint64)
    table = ScanVectors(DIM)
    table.add(keys, vectors)
    for query in sparse_queries(rng, 40, 6):
        dims, rest = table.plan(query)
        assert len(dims) == 6 and len(rest) == 0
        found = table.search(query, 10)
        assert found.keys.tolist() == brute(vectors, keys, query, 10)
        assert np.all(np.diff(found.distances) >= 0)


def test_dense_queries_read_the_budget_then_a_shortlist(small_blocks):
    rng = np.random.default_rng(4)
    vectors = unit(rng.standard_normal((700, DIM)))
    keys = np.arange(700, dtype=np.uint64)
    table = ScanVectors(DIM, scan_budget=700 * 10, min_dims=4, shortlist_rows=100, shortlist_share=1.0)
    table.add(keys, vectors)
    query = unit(rng.standard_normal((1, DIM)))[0]
    dims, rest = table.plan(query)
    assert len(dims) == 10 and len(rest) == DIM - 10
    assert np.all(np.diff(np.abs(query[dims])) <= 0)  # heaviest first
    assert len(table.plan(query, exact=True)[0]) == DIM
    # a query spread over many dimensions has at least a share of them read for every vector
    table.dims_share = 0.5
    assert len(table.plan(query)[0]) == DIM // 2
    assert len(table.plan(sparse_queries(rng, 1, 12)[0])[0]) == 10  # the budget's, more than half
    table.dims_share = scan.DIMS_SHARE
    # exact asks for every dimension: the true neighbours, whatever the budget
    assert table.search(query, 10, exact=True).keys.tolist() == brute(vectors, keys, query, 10)
    # the budgeted search still finds its own vector and most of the true top 10
    hits = table.search(vectors[123], 10).keys.tolist()
    assert hits[0] == 123
    agree = [len(set(table.search(v, 10).keys.tolist()) & set(brute(vectors, keys, v, 10)))
             for v in unit(rng.standard_normal((20, DIM)))]
    assert sum(agree) >= 0.7 * 200


def test_a_blank_query_and_an_empty_table_find_nothing():
    table = ScanVectors(DIM)
    assert len(table.search(np.ones(DIM, dtype=np.float32), 5).keys) == 0
    table.add(np.array([1], dtype=np.uint64), unit(np.ones((1, DIM))))
    assert len(table.search(np.zeros(DIM, dtype=np.float32), 5).keys) == 0
    assert table.search(np.ones(DIM, dtype=np.float32), 5).keys.tolist() == [1]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["add", "remove"]),
                          st.lists(st.integers(0, 300) | st.integers(2**40, 2**40 + 3), min_size=1, max_size=40)),
                min_size=1, max_size=12),
       st.integers(0, 2**32 - 1))
def test_the_table_matches_a_dict_through_adds_and_removes(steps, seed):
    scan_block = scan.BLOCK
    scan.BLOCK = 16
    try:
        rng = np.random.default_rng(seed)
        table = ScanVectors(DIM)
        model: dict[int, np.ndarray] = {}
        for op, keys in steps:
            keys = list(dict.fromkeys(keys))
            if op == "add":
                fresh = [k for k in keys if k not in model]
                vecs = unit(rng.standard_normal((len(fresh), DIM)))
                if fresh:
                    table.add(np.array(fresh, dtype=np.uint64), vecs)
                model.update(zip(fresh, vecs))
            else:
                assert table.remove(np.array(keys, dtype=np.uint64)) == sum(k in model for k in keys)
                for k in keys:
                    model.pop(k, None)
            assert len(table) == len(model)
            assert sorted(table.keys.tolist()) == sorted(model)
        probe = list(model)[:5] + [299_999, 2**40 + 7]
        assert table.contains(np.array(probe, dtype=np.uint64)).tolist() == [k in model for k in probe]
        for k, got in zip(probe, table.get(np.array(probe, dtype=np.uint64))):
            if k in model:
                assert np.array_equal(got, rounded(model[k][None])[0])
            else:
                assert got is None
        if model:
            keys = np.array(list(model), dtype=np.uint64)
            stored = np.stack(list(model.values()))
            query = stored[0]
            assert table.search(query, 5, exact=True).keys.tolist() == brute(stored, keys, query, 5)
            again = ScanVectors.load(table.save(), DIM)
            assert again.keys.tolist() == table.keys.tolist()
            assert np.array_equal(again.vectors, table.vectors)
            assert again.search(query, 5).keys.tolist() == table.search(query, 5).keys.tolist()
    finally:
        scan.BLOCK = scan_block


def test_bad_checkpoints_are_refused():
    table = ScanVectors(DIM)
    table.add(np.array([1, 2], dtype=np.uint64), unit(np.eye(2, DIM)))
    blob = table.save()
    with pytest.raises(ValueError):
        ScanVectors.load(b"RAGIXFLAT1\n" + blob[len(scan.MAGIC):], DIM)
    with pytest.raises(ValueError):
        ScanVectors.load(blob, DIM + 1)
    with pytest.raises(ValueError):
        ScanVectors.load(blob[:-40], DIM)


def test_hash_models_get_the_scan_layout(tmp_path):
    assert is_hash_model(HashEmbedder(64).model_name) and not is_hash_model("nomic-embed-text")
    store = VectorStore(tmp_path)
    assert store._index(HashEmbedder(64).model_name, 64).layout == "scan"
    assert store._index("nomic-embed-text", 64).layout == "graph"
    with pytest.raises(ValueError):
        VectorIndex(tmp_path / "x.usearch", DIM, layout="tree")


def test_the_scan_table_takes_over_past_exact_below_and_files_convert(tmp_path, monkeypatch):
    monkeypatch.setattr(vector_index, "EXACT_BELOW", 50)
    rng = np.random.default_rng(5)
    vectors = unit(rng.standard_normal((90, DIM)))
    index = VectorIndex(tmp_path / "s.usearch", DIM, model="hash-v2-48", layout="scan")
    index.add(np.arange(40), vectors[:40])
    assert index.is_flat
    index.add(np.arange(40, 90), vectors[40:])
    assert not index.is_flat and isinstance(index._index, ScanVectors) and len(index) == 90
    for key in (0, 45, 89):
        assert index.search(vectors[key], 1)[0][0] == key
    index.save(checkpoint_seq=7)
    assert index.path.read_bytes().startswith(scan.MAGIC)
    # the same file read by a graph index becomes a graph, and back
    graph = VectorIndex(index.path, DIM, model="hash-v2-48")
    assert graph.load() == 7 and not graph.is_flat and not isinstance(graph._index, ScanVectors)
    graph.save(checkpoint_seq=8)
    again = VectorIndex(index.path, DIM, model="hash-v2-48", layout="scan")
    assert again.load() == 8 and isinstance(again._index, ScanVectors) and len(again) == 90
    assert again.search(vectors[3], 1)[0][0] == 3


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 5000), st.integers(1, 400), st.integers(0, 2**32 - 1), st.booleans())
def test_best_picks_the_k_largest(n, k, seed, coarse):
    rng = np.random.default_rng(seed)
    scores = (rng.integers(0, 20, n) if coarse else rng.standard_normal(n)).astype(np.float32)
    picked = kernels.best(scores, k)
    assert len(picked) == min(n, k) and len(set(picked.tolist())) == len(picked)
    if n > k:  # the same values as the k largest (ties may pick either position)
        assert sorted(scores[picked].tolist()) == sorted(np.sort(scores)[n - k:].tolist())


@pytest.mark.parametrize("nonzero", [DIM, 8])
def test_a_shortlist_of_every_vector_gives_the_exact_answer(nonzero):
    """Completing the shortlist's scores from the rows gives exact scores, whether it reads a
    whole row (a dense query) or gathers the query's dimensions (a sparse one)."""
    rng = np.random.default_rng(6)
    vectors = unit(rng.standard_normal((700, DIM)))
    keys = np.arange(700, dtype=np.uint64)
    table = ScanVectors(DIM, scan_budget=700 * 2, min_dims=2, shortlist_rows=700, shortlist_share=1.0,
                        dims_share=0.0)
    table.add(keys, vectors)
    for query in sparse_queries(rng, 5, nonzero):
        assert len(table.plan(query)[1]) == nonzero - 2
        found = table.search(query, 10)
        assert found.keys.tolist() == brute(vectors, keys, query, 10)
        stored = rounded(vectors)[found.keys.astype(int)]
        exact = (stored @ query) / np.linalg.norm(stored, axis=1)
        assert np.allclose(1.0 - found.distances, exact, atol=1e-5)


def test_the_shortlist_follows_the_first_blocks_cut(small_blocks):
    """Later blocks put on the shortlist every vector scoring at least the first block's
    shortlist did: a block holding many good candidates gives them all, not a fixed share."""
    rng = np.random.default_rng(8)
    vectors = unit(rng.standard_normal((640, DIM)))
    query = unit(rng.standard_normal((1, DIM)))[0]
    vectors[-64:] = unit(query + 0.1 * rng.standard_normal((64, DIM)))  # the last block: all close
    keys = np.arange(640, dtype=np.uint64)
    table = ScanVectors(DIM, scan_budget=640 * 6, min_dims=2, shortlist_rows=64, shortlist_share=1.0)
    table.add(keys, vectors)
    assert len(table.plan(query)[1]) > 0  # a two-step search
    found = table.search(query, 40).keys.tolist()
    assert found == brute(vectors, keys, query, 40)
    assert set(found) <= set(range(576, 640))


def test_an_int16_table_of_earlier_versions_loads_as_int8():
    rng = np.random.default_rng(9)
    vectors = unit(rng.standard_normal((300, DIM)))
    keys = np.arange(1000, 1300, dtype=np.uint64)
    scales = (np.abs(vectors).max(axis=1) / 32767).astype(np.float32)
    codes16 = np.rint(vectors / scales[:, None]).astype(np.int16)
    blob = pack_arrays(scan.MAGIC_INT16, (keys, scales, np.array([300], dtype=np.int64), codes16.T.copy()))
    table = ScanVectors.load(blob, DIM)
    assert table.keys.tolist() == keys.tolist()
    step = np.abs(vectors).max(axis=1, keepdims=True) / scan.LEVELS  # one int8 level
    assert np.all(np.abs(table.vectors - vectors) <= step * (0.5 + 1 / 256))
    for query in sparse_queries(rng, 5, 6):
        assert table.search(query, 10).keys.tolist() == brute(table.vectors, keys, query, 10)
    assert ScanVectors.load(table.save(), DIM).keys.tolist() == keys.tolist()
    assert table.save().startswith(scan.MAGIC)
    with pytest.raises(ValueError):  # int16 codes under the int8 magic are refused
        ScanVectors.load(scan.MAGIC + blob[len(scan.MAGIC_INT16):], DIM)
