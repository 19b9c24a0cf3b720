"""The scan table's inner loops (vectors/kernels.py): the compiled form and the numpy form
give the same scores; the compiled form is used only where a JIT may run, and the reason is
said when it is not."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragixd.vectors import kernels

compiled_here = pytest.mark.skipif(kernels.backend() != "numba",
                                   reason=f"the compiled loops do not run here: {kernels.backend()}")


def both_forms(call):
    """call() under the compiled loops, then under numpy's."""
    kernels._state.clear()
    try:
        first = call()
        kernels.use_numpy("test")
        return first, call()
    finally:
        kernels._state.clear()


class Case:
    """A block of `ndim` int8 columns (a few rows past `size`) and its row-major copy, its
    factors, a set of its dimensions and their weights, drawn for one example."""

    def __init__(self, ndim: int, size: int, seed: int, data) -> None:
        self.rng = np.random.default_rng(seed)
        self.cols = self.rng.integers(-127, 128, (ndim, size + 7), dtype=np.int8)
        self.rowmat = np.ascontiguousarray(self.cols.T)
        self.factors = (self.rng.random(size + 7) / 1e2).astype(np.float32)
        self.dims = np.array(data.draw(st.lists(st.integers(0, ndim - 1), min_size=1, max_size=ndim, unique=True)))
        self.weights = self.rng.standard_normal(len(self.dims)).astype(np.float32)
        # what float32 rounding may move a score by, at most
        self.scale = float(np.abs(self.weights).sum() * 127 * self.factors.max())

    def agree(self, fast: np.ndarray, slow: np.ndarray, length: int) -> None:
        assert fast.dtype == slow.dtype == np.float32 and fast.shape == slow.shape == (length,)
        assert np.allclose(fast, slow, rtol=1e-5, atol=1e-6 * self.scale + 1e-30)


@compiled_here
@settings(max_examples=80, deadline=None)
@given(st.integers(1, 64), st.integers(0, 9000), st.integers(0, 2**32 - 1), st.data())
def test_column_scores_and_their_cut_agree(ndim, size, seed, data):
    case = Case(ndim, size, seed, data)
    cut = data.draw(st.sampled_from([np.inf, -np.inf, 0.0]) | st.floats(-1.0, 1.0))
    capacity = data.draw(st.integers(0, size + 10))
    (fast, fast_over), (slow, slow_over) = both_forms(
        lambda: kernels.column_scores(case.cols, case.dims, case.weights, case.factors, size, cut, capacity))
    case.agree(fast, slow, size)
    # each form hands over the positions of its own scores at or over the cut, when few enough
    for scores, got in ((fast, fast_over), (slow, slow_over)):
        over = np.flatnonzero(scores >= np.float32(cut))
        if len(over) <= capacity:
            assert got is not None and np.array_equal(got, over)
        else:
            assert got is None


@compiled_here
@settings(max_examples=80, deadline=None)
@given(st.integers(1, 64), st.integers(1, 5000), st.integers(0, 2**32 - 1), st.data())
def test_row_scores_agree(ndim, size, seed, data):
    """Both compiled loops (a gather over few dimensions, a whole row over many) agree with
    numpy's, and all are the plain sum."""
    case = Case(ndim, size, seed, data)
    rows = np.unique(case.rng.integers(0, size, data.draw(st.integers(0, 3 * size))))
    fast, slow = both_forms(lambda: kernels.row_scores(case.rowmat, case.dims, case.weights, case.factors, rows))
    case.agree(fast, slow, len(rows))
    want = (case.weights @ case.cols[case.dims][:, rows].astype(np.float64)) * case.factors[rows]
    assert np.allclose(slow, want, rtol=1e-4, atol=1e-5 * case.scale + 1e-30)


def test_asking_for_numpy_by_environment(monkeypatch):
    monkeypatch.setenv("RAGIX_KERNELS", "numpy")
    kernels._state.clear()
    try:
        assert kernels.backend() == "numpy (RAGIX_KERNELS=numpy)"
        scores, over = kernels.column_scores(np.ones((3, 5), np.int8), np.array([0, 2]),
                                             np.array([1.0, 2.0], np.float32), np.full(5, 0.5, np.float32), 4, 1.0, 4)
        assert scores.tolist() == [1.5] * 4 and over.tolist() == [0, 1, 2, 3]
    finally:
        kernels._state.clear()


def test_a_process_that_may_not_map_memory_executable_runs_numpy():
    """Under systemd's MemoryDenyWriteExecute= (here the kernel's own PR_SET_MDWE, the same
    refusal), numba's JIT cannot run: the probe says so and numpy answers, with no crash."""
    script = textwrap.dedent("""
        import ctypes, sys
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(65, 1, 0, 0, 0) != 0:  # PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN
            print("unsupported"); sys.exit(0)
        import numpy as np
        from ragixd.vectors import kernels
        from ragixd.vectors.scan import ScanVectors
        table = ScanVectors(4)
        table.add(np.arange(3, dtype=np.uint64), np.eye(3, 4, dtype=np.float32))
        print(kernels.backend(), table.search(np.array([0, 1, 0, 0], np.float32), 1).keys.tolist())
    """)
    env = {k: v for k, v in os.environ.items() if k != "RAGIX_KERNELS"}
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                         env=env, cwd=os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
    assert out.returncode == 0, out.stderr
    if out.stdout.strip() == "unsupported":
        pytest.skip("this kernel has no PR_SET_MDWE")
    assert out.stdout.strip() == "numpy (this process may not map memory executable) [1]"


def test_this_process_may_map_memory_executable():
    assert kernels._may_map_executable()


def test_a_compiler_failure_leaves_numpy_answering(monkeypatch):
    def broken(_numba):
        raise RuntimeError("no backend")

    monkeypatch.delenv("RAGIX_KERNELS", raising=False)
    monkeypatch.setattr(kernels, "_build", broken)
    kernels._state.clear()
    try:
        if kernels.backend().startswith("numpy (numba is not installed"):
            pytest.skip("numba is not installed here")
        assert kernels.backend() == "numpy (numba failed: RuntimeError: no backend)"
        assert kernels.row_scores(np.ones((4, 2), np.int8), np.array([1]), np.ones(1, np.float32),
                                  np.ones(4, np.float32), np.array([0, 3])).tolist() == [1.0, 1.0]
    finally:
        kernels._state.clear()


def test_the_compiled_loops_run_wherever_numba_can():
    """Not a skip in disguise: where numba imports and a JIT may run, the compiled loops pass
    their self-check against numpy and are the ones used."""
    try:
        import numba  # noqa: F401
    except ImportError:
        pytest.skip("numba is not installed here")
    if os.environ.get("RAGIX_KERNELS") or not kernels._may_map_executable():
        pytest.skip("the numpy loops are asked for here")
    kernels._state.clear()
    assert kernels.backend() == "numba"


def test_ragixctl_embedders_names_the_loops_of_a_scan_table():
    from ragix_client.ctl import _layout_words

    assert _layout_words({"layout": "scan", "kernel": "numba"}) == " (column-scan table, numba)"
    assert _layout_words({"layout": "scan", "kernel": "numpy (RAGIX_KERNELS=numpy)"}) == \
        " (column-scan table, numpy (RAGIX_KERNELS=numpy))"
    assert _layout_words({"layout": "graph"}) == " (HNSW graph)"
    assert _layout_words({"layout": "flat"}) == " (flat table)"
    assert _layout_words({"layout": "cube"}) == "" and _layout_words({}) == ""


def test_ragixctl_embedders_row_without_the_owners_counts():
    from ragix_client.ctl import _embedder_row

    base = {"model": "hash-v2-384", "dimension": 384, "inline": True, "serving": True,
            "layout": "flat", "available": True, "error": ""}
    owner = _embedder_row({**base, "indexed": 3, "items": 4, "embedded": 3, "missing": 1})
    assert "3/4 items embedded, 3 indexed (flat table)" in owner
    gated = _embedder_row(base)  # a caller below full trust gets no counts
    assert "counts are for the owner" in gated and "embedded" not in gated
    assert "UNAVAILABLE" in _embedder_row({**base, "available": False, "error": "down"})


def test_ragixctl_embedders_columns_line_up_with_a_long_model_name():
    from ragix_client import ctl

    rows = [{"model": name, "dimension": 384, "inline": True, "serving": name.startswith("hash"),
             "layout": "flat", "available": True, "error": ""}
            for name in ("hash-v2-384", "all-minilm-l6-v2-onnx-int8-with-a-longer-name")]

    class Fake:
        def embedders(self):
            return {"embedders": rows}

    _, text = ctl.cmd_embedders(Fake(), None)
    first, second = text.splitlines()
    assert first.index(" dim ") == second.index(" dim ") > len(rows[1]["model"])
