"""The scan table's inner loops, compiled by numba where it can run; numpy otherwise.

Two loops make a search of the scan table (scan.py). `column_scores` sums, for every vector of
a block, the query's weights times the vector's int8 values on the dimensions read for every
vector, and picks out the scores at or over a cut as it goes; `row_scores` sums a shortlist's
values over all the query's dimensions from the block's row-major copy. numpy does the first as
a gather, a cast and a matrix product, three passes over the columns holding the GIL, then a
pass for the cut; the compiled loops read each column once, in tiles that stay in the CPU's
cache, outside the GIL (the full-text query of a hybrid search runs beside them), and test the
cut on a tile still in the cache. Both forms add the column products in the same order (one
dimension after another, in float32); a row's sum the compiled form may reassociate, so the
two agree to float32 rounding. `best` is numpy's selection in both: a compiled one (numba's
partition, or a sort of a sample) measured slower.

The compiled form is used only when numba imports, its JIT is on, and this process may turn
a writable page executable: a JIT cannot run where that is forbidden (systemd's
MemoryDenyWriteExecute=, for one), and would abort the process, so a probe asks first.
Compiled code is cached on disk (numba's NUMBA_CACHE_DIR; ragixd sets it to its cache dir).
`backend()` says which form runs and, for numpy, why.
"""

from __future__ import annotations

import ctypes
import mmap
import os
import threading
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

SLICE_VALUES = 1 << 17  # numpy: values widened to float at a time (a slice stays in cache)
TILE = 2048             # compiled: rows summed at a time, every dimension over one tile

_lock = threading.Lock()
_state: dict[str, Any] = {}


class _Loops(NamedTuple):
    columns: Callable[..., int]
    rows: Callable[..., None]
    dense_rows: Callable[..., None]


def column_scores(cols: np.ndarray, dims: np.ndarray, weights: np.ndarray, factors: np.ndarray,
                  size: int, cut: float = np.inf, capacity: int = 0) -> tuple[np.ndarray, np.ndarray | None]:
    """float32 scores of a block's first `size` vectors (sum over j of weights[j] *
    cols[dims[j], i], times factors[i]); and the positions, ascending, of the scores >= `cut`
    when there are at most `capacity` of them (None when there are more). The compiled form
    finds them while a tile of scores is still in the cache, instead of a pass of its own."""
    out = np.empty(size, dtype=np.float32)
    picked = np.empty(max(capacity, 0), dtype=np.int64)
    loops = _compiled()
    if loops is not None:
        found = loops.columns(cols, _ints(dims), _floats(weights), factors, size, out, np.float32(cut), picked)
        return out, (picked[:found] if found <= len(picked) else None)
    width = max(1024, SLICE_VALUES // max(len(dims), 1))
    for start in range(0, size, width):
        end = min(size, start + width)
        out[start:end] = weights @ cols[dims, start:end].astype(np.float32)
    out *= factors[:size]
    over = np.flatnonzero(out >= np.float32(cut))
    return out, (over if len(over) <= len(picked) else None)


def row_scores(rowmat: np.ndarray, dims: np.ndarray, weights: np.ndarray, factors: np.ndarray,
               rows: np.ndarray) -> np.ndarray:
    """(sum over j of weights[j] * rowmat[rows[r], dims[j]]) * factors[rows[r]], for each of
    `rows` (sorted: memory order), from the row-major copy of the block: a vector's values
    lie together, in a few cache lines, however many dimensions are read."""
    loops = _compiled()
    dense = 4 * len(dims) > rowmat.shape[1]
    if loops is not None:
        out = np.empty(len(rows), dtype=np.float32)
        if dense:  # a whole row, vectorised, is faster than gathering over a quarter of it
            query = np.zeros(rowmat.shape[1], dtype=np.float32)
            query[dims] = weights
            loops.dense_rows(rowmat, query, factors, _ints(rows), out)
        else:
            loops.rows(rowmat, _ints(dims), _floats(weights), factors, _ints(rows), out)
        return out
    values = rowmat[rows][:, dims].astype(np.float32)
    return ((values @ weights) * factors[rows]).astype(np.float32)


def best(scores: np.ndarray, k: int) -> np.ndarray:
    """Positions of the k largest scores (all when there are no more), in no order (among
    equal scores, any). numpy's selection, faster than a compiled one here; a sample of the
    scores says which are high enough, and only those are partitioned (~2.5x faster than
    partitioning a whole block). Scores tied with the threshold (many vectors share none of a
    query's dimensions and score 0) are taken only as far as needed, not all partitioned."""
    n = len(scores)
    if n <= k:
        return np.arange(n)
    if k <= 0:
        return np.zeros(0, dtype=np.int64)
    if n >= 64 * k:
        sample = scores[::16]
        above = min(len(sample) - 1, 2 * (k // 16) + 8)  # sample values above the threshold
        threshold = np.partition(sample, len(sample) - 1 - above)[len(sample) - 1 - above]
        high = np.flatnonzero(scores > threshold)
        if len(high) >= k:  # then the k largest are all among them
            return high[np.argpartition(-scores[high], k - 1)[:k]]
        tied = np.flatnonzero(scores == threshold)
        if len(high) + len(tied) >= k:  # the k largest: all above it, then equal ones
            return np.concatenate([high, tied[:k - len(high)]])
    return np.argpartition(-scores, k - 1)[:k]


def _ints(values: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(values, dtype=np.int64)


def _floats(values: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(values, dtype=np.float32)


def backend() -> str:
    """"numba" when the compiled loops run, else "numpy (<why>)"."""
    _compiled()
    return _state["backend"]


def prepare() -> None:
    """Load (or compile) the loops now rather than on the first search."""
    _compiled()


def use_numpy(reason: str = "asked for") -> None:
    """Run the numpy form from now on (tests compare the two; RAGIX_KERNELS=numpy does it at
    start)."""
    with _lock:
        _state.clear()
        _state.update(functions=None, backend=f"numpy ({reason})")


def _compiled() -> _Loops | None:
    if "functions" in _state:
        return _state["functions"]
    with _lock:
        if "functions" not in _state:
            functions, why = _load()
            _state.update(functions=functions, backend="numba" if functions else f"numpy ({why})")
    return _state["functions"]


def _load() -> tuple[_Loops | None, str]:
    if os.environ.get("RAGIX_KERNELS", "").strip().lower() == "numpy":
        return None, "RAGIX_KERNELS=numpy"
    if not _may_map_executable():
        return None, "this process may not map memory executable"
    try:
        import numba
    except ImportError:
        return None, "numba is not installed"
    except Exception as exc:  # noqa: BLE001 - numba checks the JIT at import, and may refuse
        return None, f"numba does not load: {exc}"[:200]
    if numba.config.DISABLE_JIT:
        return None, "NUMBA_DISABLE_JIT is set"
    try:
        functions = _build(numba)
        _self_check(functions)
    except Exception as exc:  # noqa: BLE001 - any compiler failure: the numpy form answers
        return None, f"numba failed: {type(exc).__name__}: {exc}"[:200]
    return functions, ""


def _may_map_executable() -> bool:
    """Can a writable anonymous page become executable here, as a JIT's code pages must?"""
    if os.name != "posix":
        return True
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.mmap.restype = ctypes.c_void_p
        libc.mmap.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,
                              ctypes.c_int, ctypes.c_long)
        libc.mprotect.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int)
        libc.munmap.argtypes = (ctypes.c_void_p, ctypes.c_size_t)
        size = mmap.PAGESIZE
        page = libc.mmap(None, size, mmap.PROT_READ | mmap.PROT_WRITE,
                         mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS, -1, 0)
        if page in (None, ctypes.c_void_p(-1).value):
            return False
        try:
            return libc.mprotect(page, size, mmap.PROT_READ | mmap.PROT_EXEC) == 0
        finally:
            libc.munmap(page, size)
    except (OSError, AttributeError, TypeError):
        return False


def _build(numba: Any) -> _Loops:
    try:
        return _define(lambda **more: numba.njit(cache=True, nogil=True, boundscheck=False, **more))
    except RuntimeError:  # no writable cache directory: compile at every start instead
        return _define(lambda **more: numba.njit(nogil=True, boundscheck=False, **more))


def _define(jit: Callable[..., Any]) -> _Loops:
    @jit()
    def columns(cols, dims, weights, factors, size, out, cut, picked):  # pragma: no cover - compiled
        acc = np.empty(TILE, dtype=np.float32)
        found, room = 0, picked.shape[0]
        for start in range(0, size, TILE):
            n = min(size - start, TILE)
            for i in range(n):
                acc[i] = 0.0
            for j in range(dims.shape[0]):
                # a slice, indexed from 0 by the loop: no negative-index check, so it vectorises
                column = cols[dims[j], start:start + n]
                w = weights[j]
                for i in range(n):
                    acc[i] += w * np.float32(column[i])
            tail, scale = out[start:start + n], factors[start:start + n]
            for i in range(n):
                tail[i] = acc[i] * scale[i]
            if found <= room:  # past it the caller only needs to know there were too many
                for i in range(n):
                    if tail[i] >= cut:
                        if found < room:
                            picked[found] = start + i
                        found += 1
        return found

    # a sum over a row's values: reassociated, so that the compiler may vectorise it
    @jit(fastmath={"reassoc", "contract"})
    def rows_of(rowmat, dims, weights, factors, rows, out):  # pragma: no cover - compiled
        for r in range(rows.shape[0]):
            row = rowmat[rows[r]]
            acc = np.float32(0.0)
            for j in range(dims.shape[0]):
                acc += weights[j] * np.float32(row[dims[j]])
            out[r] = acc * factors[rows[r]]

    @jit(fastmath={"reassoc", "contract"})
    def dense_rows(rowmat, query, factors, rows, out):  # pragma: no cover - compiled
        for r in range(rows.shape[0]):
            row = rowmat[rows[r]]
            acc = np.float32(0.0)
            for j in range(query.shape[0]):
                acc += query[j] * np.float32(row[j])
            out[r] = acc * factors[rows[r]]

    return _Loops(columns, rows_of, dense_rows)


def _self_check(loops: _Loops) -> None:
    """Compile (or load) the loops and check them against numpy on a small block."""
    rng = np.random.default_rng(0)
    cols = rng.integers(-127, 128, (12, 3000), dtype=np.int8)
    rowmat = np.ascontiguousarray(cols.T)
    factors = rng.random(3000).astype(np.float32)
    dims = np.array([7, 2, 9], dtype=np.int64)
    weights = rng.standard_normal(3).astype(np.float32)
    out = np.empty(2999, dtype=np.float32)
    picked = np.empty(3000, dtype=np.int64)
    found = loops.columns(cols, dims, weights, factors, 2999, out, np.float32(0.5), picked)
    want = (weights @ cols[dims, :2999].astype(np.float32)) * factors[:2999]
    rows = np.array([0, 5, 2998], dtype=np.int64)
    got_rows = np.empty(3, dtype=np.float32)
    loops.rows(rowmat, dims, weights, factors, rows, got_rows)
    want_rows = (weights @ cols[dims][:, rows].astype(np.float32)) * factors[rows]
    query = np.zeros(12, dtype=np.float32)
    query[dims] = weights
    dense_rows = np.empty(3, dtype=np.float32)
    loops.dense_rows(rowmat, query, factors, rows, dense_rows)
    if not (np.allclose(out, want, rtol=1e-5, atol=1e-3) and np.allclose(got_rows, want_rows, rtol=1e-5, atol=1e-3)
            and np.allclose(dense_rows, want_rows, rtol=1e-5, atol=1e-3)
            and np.array_equal(picked[:found], np.flatnonzero(out >= np.float32(0.5)))):
        raise RuntimeError("compiled scan loops disagree with numpy")
