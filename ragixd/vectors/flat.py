"""A flat vector table: what an index holds before it is big enough to need an HNSW graph.

Below EXACT_BELOW vectors every search compares the query with every vector, so a graph would
only cost: an HNSW insert takes ~0.5-0.7 ms of CPU per vector, as much as the rest of a write.
This table keeps the vectors in one float32 matrix instead (an insert is a row copy) and
answers the same calls VectorIndex makes on a usearch Index: add, remove, contains, get,
search, save and load, len. Searches are exact cosine; distances are 1 - cosine, as usearch's.

Not thread-safe on its own: VectorIndex serialises every call under its lock.
"""

from __future__ import annotations

import io
from typing import Iterable, Iterator, NamedTuple

import numpy as np

MAGIC = b"RAGIXFLAT1\n"  # a saved table starts with this; a usearch file never does


def pack_arrays(magic: bytes, arrays: Iterable[np.ndarray]) -> bytes:
    """A saved table: `magic`, then each array in numpy's own format (no pickles)."""
    buf = io.BytesIO()
    buf.write(magic)
    for array in arrays:
        np.save(buf, array, allow_pickle=False)
    return buf.getvalue()


def unpack_arrays(blob: bytes, magic: bytes, what: str) -> Iterator[np.ndarray]:
    """The arrays of pack_arrays's bytes, read as they are asked for; ValueError naming `what`
    when the bytes do not start with `magic`."""
    if not blob.startswith(magic):
        raise ValueError(f"not a {what}")
    buf = io.BytesIO(blob[len(magic):])
    while True:
        yield np.load(buf, allow_pickle=False)


class Matches(NamedTuple):
    keys: np.ndarray
    distances: np.ndarray


class FlatVectors:
    def __init__(self, ndim: int) -> None:
        self.ndim = ndim
        self._keys = np.zeros(0, dtype=np.uint64)
        self._rows = np.zeros((0, ndim), dtype=np.float32)
        self._norms = np.zeros(0, dtype=np.float32)
        self._count = 0
        self._where: dict[int, int] = {}  # key -> row

    def __len__(self) -> int:
        return self._count

    @property
    def memory_usage(self) -> int:
        """Bytes held by the table's arrays (reserved rows included), as usearch reports its own."""
        return self._keys.nbytes + self._rows.nbytes + self._norms.nbytes + 64 * len(self._where)

    @property
    def keys(self) -> np.ndarray:
        return self._keys[: self._count].copy()

    @property
    def vectors(self) -> np.ndarray:
        return self._rows[: self._count].copy()

    def contains(self, keys: np.ndarray) -> np.ndarray:
        return np.fromiter((int(k) in self._where for k in keys), dtype=bool, count=len(keys))

    def add(self, keys: np.ndarray, vectors: np.ndarray) -> None:
        """Append rows (the caller has removed any key already present)."""
        n = len(keys)
        self._reserve(self._count + n)
        rows = np.asarray(vectors, dtype=np.float32).reshape(n, self.ndim)
        end = self._count + n
        self._keys[self._count:end] = keys
        self._rows[self._count:end] = rows
        self._norms[self._count:end] = np.linalg.norm(rows, axis=1)
        for offset, key in enumerate(keys.tolist()):
            self._where[int(key)] = self._count + offset
        self._count = end

    def remove(self, keys: np.ndarray) -> int:
        """Drop the rows of these keys (absent ones are ignored): the last row fills each gap."""
        removed = 0
        for key in keys.tolist():
            row = self._where.pop(int(key), None)
            if row is None:
                continue
            last = self._count - 1
            if row != last:
                moved = int(self._keys[last])
                self._keys[row] = self._keys[last]
                self._rows[row] = self._rows[last]
                self._norms[row] = self._norms[last]
                self._where[moved] = row
            self._count = last
            removed += 1
        return removed

    def get(self, keys: np.ndarray) -> list[np.ndarray | None]:
        rows = [self._where.get(int(k)) for k in keys]
        return [None if r is None else self._rows[r].copy() for r in rows]

    def search(self, query: np.ndarray, count: int, exact: bool = True) -> Matches:  # noqa: ARG002
        """The `count` nearest rows by cosine (always exact), nearest first."""
        n = self._count
        count = min(count, n)
        if count <= 0:
            return Matches(np.zeros(0, dtype=np.uint64), np.zeros(0, dtype=np.float32))
        q = np.asarray(query, dtype=np.float32).reshape(self.ndim)
        scale = np.maximum(self._norms[:n] * max(float(np.linalg.norm(q)), 1e-12), 1e-12)
        sims = (self._rows[:n] @ q) / scale
        top = np.argpartition(-sims, count - 1)[:count] if count < n else np.arange(n)
        top = top[np.argsort(-sims[top], kind="stable")]
        return Matches(self._keys[top].copy(), (1.0 - sims[top]).astype(np.float32))

    def save(self) -> bytes:
        return pack_arrays(MAGIC, (self._keys[: self._count], self._rows[: self._count]))

    @classmethod
    def load(cls, blob: bytes, ndim: int) -> FlatVectors:
        """A table from save()'s bytes; ValueError if they are not one of `ndim` columns."""
        arrays = unpack_arrays(blob, MAGIC, "flat vector table")
        keys, rows = next(arrays), next(arrays)
        if keys.dtype != np.uint64 or rows.dtype != np.float32 or rows.ndim != 2 \
                or rows.shape != (len(keys), ndim) or len(set(keys.tolist())) != len(keys):
            raise ValueError("flat vector table of the wrong shape")
        table = cls(ndim)
        table.add(keys, rows)
        return table

    def _reserve(self, size: int) -> None:
        if size <= len(self._keys):
            return
        capacity = max(size, 2 * len(self._keys), 64)
        keys = np.zeros(capacity, dtype=np.uint64)
        rows = np.zeros((capacity, self.ndim), dtype=np.float32)
        norms = np.zeros(capacity, dtype=np.float32)
        keys[: self._count] = self._keys[: self._count]
        rows[: self._count] = self._rows[: self._count]
        norms[: self._count] = self._norms[: self._count]
        self._keys, self._rows, self._norms = keys, rows, norms
