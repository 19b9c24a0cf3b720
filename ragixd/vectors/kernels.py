"""The scan table's inner loops, compiled by numba where it can run; numpy otherwise.

`scan_block` is one block's share of a search: `column_scores` sums, for every vector of the
block, the query's weights times the vector's int16 values on the dimensions read for every
vector; when there are other dimensions, `best` keeps a shortlist of the highest and
`row_scores` adds those dimensions for it; `best` then keeps the block's k best. numpy does the
sums as a gather, a cast and a matrix product, three passes over the columns holding the GIL;
the compiled loops read each column once, in tiles that stay in the CPU's cache, outside the
GIL (the full-text query of a hybrid search runs beside them). Both forms add the same products
in the same order (one dimension after another, in float32), so they agree to float32
rounding. `best` is numpy's selection in both: a compiled one (numba's partition, or a sort of
a sample) measured slower.

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
    columns: Callable[..., None]
    rows: Callable[..., None]


def scan_block(cols: np.ndarray, factors: np.ndarray, size: int, dims: np.ndarray, weights: np.ndarray,
               rest: np.ndarray, rest_weights: np.ndarray, shortlist: int, keep: int) -> tuple[np.ndarray, np.ndarray]:
    """A block's best `keep` (positions, scores) in no order: scores over `dims` for its first
    `size` vectors; when `rest` is not empty, the best `shortlist` of those completed with the
    `rest` dimensions first."""
    scores = column_scores(cols, dims, weights, factors, size)
    if not len(rest):
        picked = best(scores, keep)
        return picked, scores[picked]
    rows = np.sort(best(scores, shortlist))  # in memory order
    scores = row_scores(cols, rest, rest_weights, factors, rows, scores[rows])
    picked = best(scores, keep)
    return rows[picked], scores[picked]


def column_scores(cols: np.ndarray, dims: np.ndarray, weights: np.ndarray, factors: np.ndarray,
                  size: int) -> np.ndarray:
    """float32 scores of a block's first `size` vectors: sum over j of weights[j] *
    cols[dims[j], i], times factors[i]."""
    out = np.empty(size, dtype=np.float32)
    loops = _compiled()
    if loops is not None:
        loops.columns(cols, _ints(dims), _floats(weights), factors, size, out)
        return out
    width = max(1024, SLICE_VALUES // max(len(dims), 1))
    for start in range(0, size, width):
        end = min(size, start + width)
        out[start:end] = weights @ cols[dims, start:end].astype(np.float32)
    out *= factors[:size]
    return out


def row_scores(cols: np.ndarray, dims: np.ndarray, weights: np.ndarray, factors: np.ndarray,
               rows: np.ndarray, base: np.ndarray) -> np.ndarray:
    """base[r] + (sum over j of weights[j] * cols[dims[j], rows[r]]) * factors[rows[r]], for
    each of `rows` (sorted: memory order)."""
    loops = _compiled()
    if loops is not None:
        out = np.empty(len(rows), dtype=np.float32)
        loops.rows(cols, _ints(dims), _floats(weights), factors, _ints(rows), _floats(base), out)
        return out
    if len(rows) >= 4 * len(dims):  # one take per dimension: ~30 % faster than a 2-d index,
        values = np.stack([cols[d].take(rows) for d in dims.tolist()])
    else:                           # unless the calls are many and short
        values = cols[np.ix_(dims, rows)]
    more = weights @ values.astype(np.float32)
    return (base + more * factors[rows]).astype(np.float32)


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
        return _define(numba.njit(cache=True, nogil=True, boundscheck=False))
    except RuntimeError:  # no writable cache directory: compile at every start instead
        return _define(numba.njit(nogil=True, boundscheck=False))


def _define(jit: Callable[[Callable[..., Any]], Callable[..., Any]]) -> _Loops:
    @jit
    def columns(cols, dims, weights, factors, size, out):  # pragma: no cover - compiled
        acc = np.empty(TILE, dtype=np.float32)
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

    @jit
    def rows_of(cols, dims, weights, factors, rows, base, out):  # pragma: no cover - compiled
        for r in range(rows.shape[0]):
            out[r] = 0.0
        for j in range(dims.shape[0]):
            column = cols[dims[j]]
            w = weights[j]
            for r in range(rows.shape[0]):
                out[r] += w * np.float32(column[rows[r]])
        for r in range(rows.shape[0]):
            out[r] = base[r] + out[r] * factors[rows[r]]

    return _Loops(columns, rows_of)


def _self_check(loops: _Loops) -> None:
    """Compile (or load) the loops and check them against numpy on a small block."""
    rng = np.random.default_rng(0)
    cols = rng.integers(-32767, 32768, (12, 3000), dtype=np.int16)
    factors = rng.random(3000).astype(np.float32)
    dims = np.array([7, 2, 9], dtype=np.int64)
    weights = rng.standard_normal(3).astype(np.float32)
    out = np.empty(2999, dtype=np.float32)
    loops.columns(cols, dims, weights, factors, 2999, out)
    want = (weights @ cols[dims, :2999].astype(np.float32)) * factors[:2999]
    rows = np.array([0, 5, 2998], dtype=np.int64)
    base = np.ones(3, dtype=np.float32)
    got_rows = np.empty(3, dtype=np.float32)
    loops.rows(cols, dims, weights, factors, rows, base, got_rows)
    want_rows = base + (weights @ cols[dims][:, rows].astype(np.float32)) * factors[rows]
    if not (np.allclose(out, want, rtol=1e-5, atol=1e-2) and np.allclose(got_rows, want_rows, rtol=1e-5, atol=1e-2)):
        raise RuntimeError("compiled scan loops disagree with numpy")
