"""A column-scan vector table, for embedders whose queries touch few dimensions.

The hash embedder's vectors defeat an HNSW graph: hashed words and n-grams make them nearly
orthogonal, and at 100k vectors the graph finds only about two thirds of the exact top 10 at
the expansion a search can afford. Its queries, though, are sparse: a query of a few words sets
~35 of 384 dimensions, and a vector's cosine with it is a sum over those dimensions only. So
this table lays the vectors out by dimension (columns), as int8 with one scale per vector (a
vector's largest magnitude is 127), and a search reads only the columns of the query's
dimensions. It keeps a second copy of the same codes by vector (rows), for the second step
below: the two together take the two bytes a value that bfloat16 takes in usearch.

It reads, for every vector, the query's heaviest dimensions, as many as a budget of values
allows (`scan_budget`; at least `min_dims`). When that is all of the query's dimensions (a
short query, up to a few hundred thousand vectors) the scores are complete and the answer is
the exact top k (of the int8 vectors). When it is not (a passage as the query, or millions of
vectors), a shortlist of the vectors with the best partial scores (`shortlist_rows`, at most
`shortlist_share` of the table) is scored again over all the query's dimensions from the rows,
and the best of those complete scores are the answer: most of a cosine lies on the query's
heaviest dimensions. A vector's values lie together in the rows, so completing its score costs
a few cache lines however many dimensions it takes; read from the columns, it cost one cache
line a dimension (session 19's int16 table, whose passages found a third of the top 10 at 1M).

Vectors live in blocks of BLOCK columns, so growing never copies what is stored; a search
scans them one after the other, on the caller's thread, with kernels.py's loops (compiled by
numba where it can run: ~4x numpy's gather, cast and product, and free of the GIL). Keys are
item row ids, dense small integers, so the key-to-row map is an array indexed by key (4 bytes
a vector); a key far beyond the others goes to a dict instead.

It answers the calls VectorIndex makes on its tables: add, remove, contains, get, search,
save, load, len, keys, vectors, memory_usage. Not thread-safe on its own: VectorIndex
serialises every call under its lock. Distances are 1 - cosine, as usearch's.
"""

from __future__ import annotations

import math
import mmap
from typing import NamedTuple

import numpy as np

from . import kernels
from .flat import Matches, pack_arrays, unpack_arrays

MAGIC = b"RAGIXSCAN2\n"  # a saved table starts with this; a usearch file never does
MAGIC_INT16 = b"RAGIXSCAN1\n"  # sessions 17-19 saved int16 columns: read, and made int8
BLOCK = 1 << 16          # vectors per block
LEVELS = 127             # a vector's largest magnitude, as int8
SCAN_BUDGET = 16_000_000  # values (bytes) read for every vector: every dimension of a short query up to ~400k
MIN_DIMS = 8             # dimensions read for every vector, whatever the size
DIMS_SHARE = 0.1         # and at least this share of the query's (a passage spreads its cosine)
# Vectors whose scores are completed, when the first dimensions were not all the query's: each
# is a few cache lines of the row-major copy (~0.2 us here), so this sets the second step's
# time (~2 ms at most). It is at most a share of the table: past a few hundred thousand
# vectors, fewer dimensions are read for every vector and the shortlist must be longer.
SHORTLIST_ROWS = 10_000
SHORTLIST_SHARE = 0.02
_ADD_SLICE = 2048       # vectors quantised at a time
_MAP_SLACK = 1 << 16     # keys up to 4 x the count + this go in the array map


def quantise(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """int8 codes of float rows and each row's scale (its largest magnitude / LEVELS)."""
    rows = np.asarray(rows, dtype=np.float32)
    scales = (np.abs(rows).max(axis=1) if rows.size else np.zeros(len(rows), np.float32)) / np.float32(LEVELS)
    scales[scales == 0] = 1.0
    codes = np.clip(np.rint(rows / scales[:, None]), -LEVELS, LEVELS).astype(np.int8)
    return codes, scales.astype(np.float32)


def from_int16(codes: np.ndarray, scales: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """int8 codes and scales of the vectors an int16 table held (largest magnitude 32767)."""
    wide = codes.astype(np.float32) * scales[:, None]
    return quantise(wide)


def _zeros(shape: tuple[int, int], dtype: type) -> np.ndarray:
    """A zeroed array in memory mapped from the kernel, whose pages are taken as they are first
    written and given back when the array goes, whatever the allocator's thresholds (a block
    fills one vector at a time: a new one is mostly pages not yet written). No huge pages: in
    them a block's columns are resident whole from its first vector on, and the rows measured
    no faster."""
    count = shape[0] * shape[1]
    size = max(count * np.dtype(dtype).itemsize, 1)
    if hasattr(mmap, "MAP_PRIVATE") and hasattr(mmap, "MAP_ANONYMOUS"):
        # private, as the allocator's own (shared anonymous memory is shmem)
        buf = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    else:
        buf = mmap.mmap(-1, size)
    return np.frombuffer(buf, dtype=dtype, count=count).reshape(shape)


class _Block:
    __slots__ = ("cols", "rows", "scales", "factors", "keys")

    def __init__(self, ndim: int) -> None:
        self.cols = _zeros((ndim, BLOCK), np.int8)   # by dimension: the first step
        self.rows = _zeros((BLOCK, ndim), np.int8)   # by vector: the shortlist's
        self.scales = np.zeros(BLOCK, dtype=np.float32)
        # 1 / the norm of the stored codes: turns a dot product of codes into a cosine's
        # numerator over the query's norm (0 for a zero vector)
        self.factors = np.zeros(BLOCK, dtype=np.float32)
        self.keys = np.zeros(BLOCK, dtype=np.uint64)


class _Step(NamedTuple):
    """What each block's scan does for one query."""
    dims: np.ndarray          # read for every vector
    weights: np.ndarray       # the query's values on them
    every: np.ndarray         # all the query's dimensions (read for the shortlist)
    every_weights: np.ndarray
    complete: bool            # dims are all of them: the first step's scores are the answer's
    keep: int                 # vectors a search returns
    share: float              # the share of a block's vectors on its shortlist


class ScanVectors:
    def __init__(self, ndim: int, *, scan_budget: int = SCAN_BUDGET, min_dims: int = MIN_DIMS,
                 shortlist_rows: int = SHORTLIST_ROWS, shortlist_share: float = SHORTLIST_SHARE,
                 dims_share: float = DIMS_SHARE) -> None:
        self.ndim = ndim
        self.scan_budget = scan_budget
        self.min_dims = min_dims
        self.shortlist_rows = shortlist_rows
        self.shortlist_share = shortlist_share
        self.dims_share = dims_share
        self._blocks: list[_Block] = []
        self._count = 0
        self._map = np.full(0, -1, dtype=np.int32)  # key -> row, -1 when absent
        self._far: dict[int, int] = {}                # keys too large for the array
        kernels.prepare()  # compiled (or loaded from numba's cache) now, not at the first search

    def __len__(self) -> int:
        return self._count

    @property
    def memory_usage(self) -> int:
        """Bytes held: the blocks (reserved rows included: both copies), the key map."""
        per_block = BLOCK * (self.ndim * 2 + 16)
        return len(self._blocks) * per_block + self._map.nbytes + 100 * len(self._far)

    # -- the key map ---------------------------------------------------------------------------

    def _row_of(self, key: int) -> int:
        if key < len(self._map):
            return int(self._map[key])
        return self._far.get(key, -1)

    def _set_row(self, key: int, row: int) -> None:
        if key >= len(self._map) and key < 4 * (self._count + 1) + _MAP_SLACK:
            grown = np.full(max(key + 1, 2 * len(self._map), 1024), -1, dtype=np.int32)
            grown[: len(self._map)] = self._map
            self._map = grown
            for far_key in [k for k in self._far if k < len(grown)]:
                grown[far_key] = self._far.pop(far_key)
        if key < len(self._map):
            self._map[key] = row
        else:
            self._far[key] = row

    def _drop_key(self, key: int) -> None:
        if key < len(self._map):
            self._map[key] = -1
        else:
            self._far.pop(key, None)

    # -- reading -------------------------------------------------------------------------------

    def _stacked(self, codes: bool = True) -> tuple[np.ndarray, np.ndarray | None, np.ndarray]:
        """Every stored (key, int8 row or None, scale), in row order."""
        if not self._blocks:
            return (np.zeros(0, np.uint64), np.zeros((0, self.ndim), np.int8) if codes else None,
                    np.zeros(0, np.float32))
        sizes = [min(BLOCK, self._count - b * BLOCK) for b in range(len(self._blocks))]
        pairs = list(zip(self._blocks, sizes))
        return (np.concatenate([blk.keys[:size] for blk, size in pairs]),
                np.concatenate([blk.rows[:size] for blk, size in pairs]) if codes else None,
                np.concatenate([blk.scales[:size] for blk, size in pairs]))

    @property
    def keys(self) -> np.ndarray:
        return self._stacked(codes=False)[0]  # a new array: concatenated

    @property
    def vectors(self) -> np.ndarray:
        _, codes, scales = self._stacked()
        return np.ascontiguousarray(codes, dtype=np.float32) * scales[:, None]

    def contains(self, keys: np.ndarray) -> np.ndarray:
        return np.fromiter((self._row_of(int(k)) >= 0 for k in keys), dtype=bool, count=len(keys))

    def get(self, keys: np.ndarray) -> list[np.ndarray | None]:
        out: list[np.ndarray | None] = []
        for key in keys:
            row = self._row_of(int(key))
            if row < 0:
                out.append(None)
                continue
            block, i = self._blocks[row // BLOCK], row % BLOCK
            out.append(block.rows[i].astype(np.float32) * block.scales[i])
        return out

    # -- changing ------------------------------------------------------------------------------

    def add(self, keys: np.ndarray, vectors: np.ndarray) -> None:
        """Append vectors (the caller has removed any key already present), a slice at a time:
        quantising 10k vectors at once (a flat table moving in) made float temporaries of 15 MB
        each, which the allocator may keep after they are freed."""
        keys = np.asarray(keys, dtype=np.uint64)
        rows = np.asarray(vectors, dtype=np.float32).reshape(len(keys), self.ndim)
        for start in range(0, len(keys), _ADD_SLICE):
            codes, scales = quantise(rows[start:start + _ADD_SLICE])
            self._append(keys[start:start + _ADD_SLICE], codes, scales)

    def _append(self, keys: np.ndarray, codes: np.ndarray, scales: np.ndarray) -> None:
        norms = np.linalg.norm(codes.astype(np.float32), axis=1)
        factors = np.divide(1.0, norms, out=np.zeros_like(scales), where=norms > 0)
        n, done = len(keys), 0
        while done < n:
            row = self._count
            if row // BLOCK == len(self._blocks):
                self._blocks.append(_Block(self.ndim))
            block, start = self._blocks[row // BLOCK], row % BLOCK
            take = min(n - done, BLOCK - start)
            end, upto = start + take, done + take
            block.cols[:, start:end] = codes[done:upto].T
            block.rows[start:end] = codes[done:upto]
            block.scales[start:end] = scales[done:upto]
            block.factors[start:end] = factors[done:upto]
            block.keys[start:end] = keys[done:upto]
            for offset, key in enumerate(keys[done:upto].tolist()):
                self._count = row + offset + 1
                self._set_row(int(key), row + offset)
            done = upto

    def remove(self, keys: np.ndarray) -> int:
        """Drop the vectors of these keys (absent ones are ignored): the last fills each gap."""
        removed = 0
        for key in np.asarray(keys, dtype=np.uint64).tolist():
            row = self._row_of(int(key))
            if row < 0:
                continue
            self._drop_key(int(key))
            last = self._count - 1
            if row != last:
                to, src = self._blocks[row // BLOCK], self._blocks[last // BLOCK]
                i, j = row % BLOCK, last % BLOCK
                to.cols[:, i] = src.cols[:, j]
                to.rows[i] = src.rows[j]
                for name in ("scales", "factors", "keys"):
                    getattr(to, name)[i] = getattr(src, name)[j]
                self._set_row(int(src.keys[j]), row)
            self._count = last
            if last % BLOCK == 0 and len(self._blocks) > last // BLOCK:
                self._blocks.pop()  # the last block emptied
            removed += 1
        return removed

    # -- searching -----------------------------------------------------------------------------

    def plan(self, query: np.ndarray, exact: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """The query's non-zero dimensions, heaviest first, split in those read for every vector
        (as many as the budget allows, at least `min_dims`; all of them when `exact`) and the
        rest, read for the shortlist only."""
        nonzero = np.flatnonzero(query)
        order = nonzero[np.argsort(-np.abs(query[nonzero]), kind="stable")]
        if exact or self._count == 0:
            return order, order[:0]
        first = max(self.min_dims, self.scan_budget // self._count, math.ceil(self.dims_share * len(order)))
        return order[:first], order[first:]

    def search(self, query: np.ndarray, count: int, exact: bool = False) -> Matches:
        """The `count` nearest vectors by cosine, nearest first (ties by key)."""
        n = self._count
        count = min(count, n)
        q = np.asarray(query, dtype=np.float32).reshape(self.ndim)
        dims, rest = self.plan(q, exact)
        qnorm = float(np.linalg.norm(q))
        if count <= 0 or len(dims) == 0:
            return Matches(np.zeros(0, dtype=np.uint64), np.zeros(0, dtype=np.float32))
        every = np.concatenate([dims, rest])
        shortlist = max(count, min(self.shortlist_rows, int(self.shortlist_share * n)))
        step = _Step(dims, q[dims], every, q[every], not len(rest), count, shortlist / n)
        # One thread: hybrid search runs its full-text query on a side thread meanwhile. With
        # numpy's loops (which keep the GIL) a second scanning thread measured no faster at 1M
        # and slowed hybrid search (session 18); with the compiled ones (which leave it) it took
        # a vector search at 1M from 7.9 to 5.6 ms p50 but hybrid search no faster (9.4-10.8
        # against 9.9-10.7 ms, p90 +10 %): the full-text query wants that core (session 19).
        keys, sims, cut = [], [], float("-inf")
        for b in range(len(self._blocks)):
            size = min(BLOCK, n - b * BLOCK)
            if size <= 0:
                break
            block_keys, block_sims, cut = self._scan(self._blocks[b], size, step, cut)
            keys.append(block_keys)
            sims.append(block_sims)
            if step.complete:  # the running k-th best: later blocks hand over only what beats it
                merged_keys, merged_sims = np.concatenate(keys), np.concatenate(sims)
                if len(merged_sims) > count:
                    top = kernels.best(merged_sims, count)
                    merged_keys, merged_sims = merged_keys[top], merged_sims[top]
                if len(merged_sims) >= count:
                    cut = float(merged_sims.min())
                keys, sims = [merged_keys], [merged_sims]
        all_keys = np.concatenate(keys)
        all_sims = np.concatenate(sims) / np.float32(max(qnorm, 1e-12))
        top = np.lexsort((all_keys, -all_sims))[:count]
        return Matches(all_keys[top], (1.0 - all_sims[top]).astype(np.float32))

    def _scan(self, block: _Block, size: int, step: _Step, cut: float) -> tuple[np.ndarray, np.ndarray, float]:
        """One block's best (keys, dot products / vector norms), and the cut for the next.

        The first step scores every vector on `step.dims`, and hands over the positions
        scoring at least `cut`. Complete scores: those, or the block's best `keep` when the cut
        lets too many through (the first block, where there is none yet). Partial ones: the
        shortlist is the vectors over the cut the first block set (its best `share`), so that a
        block holding more good candidates gives more; their scores are completed over all
        the query's dimensions from the row-major copy."""
        want = max(int(np.ceil(size * step.share)), 1) if not step.complete else step.keep
        scores, over = kernels.column_scores(block.cols, step.dims, step.weights, block.factors, size,
                                             cut, 2 * want + 64)
        if step.complete:
            picked = over if over is not None else kernels.best(scores, step.keep)
            return block.keys[picked], scores[picked], cut
        if over is None:
            over = np.sort(kernels.best(scores, want))
            if cut == float("-inf"):
                cut = float(scores[over].min()) if len(over) else cut
        full = kernels.row_scores(block.rows, step.every, step.every_weights, block.factors, over)
        picked = kernels.best(full, step.keep)
        return block.keys[over[picked]], full[picked], cut

    # -- persistence ---------------------------------------------------------------------------

    def save(self) -> bytes:
        """The keys, the scales, then each block's row-major codes as stored (no copy of the
        whole table: at 1M vectors that would be 384 MB more while saving)."""
        keys, _, scales = self._stacked(codes=False)
        sizes = [min(BLOCK, self._count - b * BLOCK) for b in range(len(self._blocks))]
        return pack_arrays(MAGIC, (keys, scales, np.array(sizes, dtype=np.int64),
                                   *(block.rows[:size] for block, size in zip(self._blocks, sizes))))

    @classmethod
    def load(cls, blob: bytes, ndim: int) -> ScanVectors:
        """A table from save()'s bytes (or an int16 table's, made int8); ValueError if they are
        not one of `ndim` dimensions."""
        wide = blob.startswith(MAGIC_INT16)
        arrays = unpack_arrays(blob, MAGIC_INT16 if wide else MAGIC, "scan vector table")
        keys, scales, sizes = next(arrays), next(arrays), next(arrays)
        if keys.dtype != np.uint64 or scales.dtype != np.float32 or sizes.dtype != np.int64 \
                or keys.ndim != 1 or scales.shape != keys.shape or sizes.ndim != 1 \
                or int(sizes.sum()) != len(keys) or len(np.unique(keys)) != len(keys) \
                or not np.all(np.isfinite(scales)):
            raise ValueError("scan vector table of the wrong shape")
        table = cls(ndim)
        at = 0
        for size in sizes.tolist():
            codes = next(arrays)
            shape, dtype = ((ndim, size), np.int16) if wide else ((size, ndim), np.int8)
            if codes.dtype != dtype or codes.shape != shape:
                raise ValueError("scan vector table of the wrong shape")
            block_scales = scales[at:at + size]
            if wide:
                codes, block_scales = from_int16(codes.T, block_scales)
            # the same codes: the same answers as before saving
            table._append(keys[at:at + size], codes, block_scales)
            at += size
        return table
