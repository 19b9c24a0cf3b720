"""A per-model approximate nearest-neighbour index over item vectors (usearch HNSW).

Owns one index file and its sidecar: integer keys (item row ids) to unit vectors, cosine
similarity search with an exclusion set, and checkpoints that are written atomically and
verified on load. It is a cache of what the store implies, never the source of truth: when the
file is missing, damaged, or from another model, `load()` returns None and the caller rebuilds
it from the store, replaying only events after the checkpoint seq it returns otherwise.

Thread safety: one lock serialises every call, so readers may search while one writer adds;
searches are sub-millisecond, so the lock is not a bottleneck at this scale.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from pathlib import Path
from typing import Iterable

import numpy as np
from usearch.index import Index

SIDECAR_FORMAT = 1


class VectorIndex:
    """HNSW index of one embedding model's vectors, keyed by item row id."""

    def __init__(
        self,
        path: Path,
        dimension: int,
        metric: str = "cos",
        dtype: str = "f16",
        connectivity: int = 16,
        expansion_add: int = 128,
        expansion_search: int = 64,
        *,
        model: str = "",
    ) -> None:
        self.path = Path(path)
        self.dimension = dimension
        self.model = model
        self._params = dict(
            ndim=dimension,
            metric=metric,
            dtype=dtype,
            connectivity=connectivity,
            expansion_add=expansion_add,
            expansion_search=expansion_search,
        )
        self._lock = threading.Lock()
        self._index = Index(**self._params)

    @property
    def sidecar_path(self) -> Path:
        return self.path.with_name(self.path.name + ".meta.json")

    def __len__(self) -> int:
        with self._lock:
            return len(self._index)

    def __contains__(self, key: int) -> bool:
        with self._lock:
            return bool(self._index.contains(int(key)))

    def add(self, keys: Iterable[int] | np.ndarray, vectors: np.ndarray) -> None:
        """Insert vectors under keys, replacing any vector already stored under a key."""
        keys_arr = np.asarray(keys, dtype=np.uint64).reshape(-1)
        vecs = np.asarray(vectors, dtype=np.float32).reshape(len(keys_arr), self.dimension)
        if len(keys_arr) == 0:
            return
        if len(np.unique(keys_arr)) != len(keys_arr):
            # Last write wins within one call, as it would across calls.
            _, last = np.unique(keys_arr[::-1], return_index=True)
            pick = len(keys_arr) - 1 - last
            keys_arr, vecs = keys_arr[pick], vecs[pick]
        with self._lock:
            present = np.asarray(self._index.contains(keys_arr), dtype=bool).reshape(-1)
            if present.any():
                self._index.remove(keys_arr[present])
            self._index.add(keys_arr, vecs)

    def remove(self, keys: Iterable[int] | np.ndarray) -> int:
        """Remove keys (absent ones are ignored); return how many were removed."""
        keys_arr = np.asarray(list(keys) if not isinstance(keys, np.ndarray) else keys)
        if keys_arr.size == 0:
            return 0
        with self._lock:
            return int(self._index.remove(keys_arr.astype(np.uint64).reshape(-1)))

    def search(
        self, vector: np.ndarray, k: int, exclude: set[int] | None = None
    ) -> list[tuple[int, float]]:
        """The k nearest keys as (key, similarity), best first; similarity = 1 - cos distance."""
        query = np.asarray(vector, dtype=np.float32).reshape(self.dimension)
        exclude = exclude or set()
        with self._lock:
            size = len(self._index)
            want = min(size, k + len(exclude))
            while want > 0:
                matches = self._index.search(query, want)
                hits = [
                    (int(key), 1.0 - float(dist))
                    for key, dist in zip(matches.keys, matches.distances)
                    if int(key) not in exclude
                ]
                # Approximate search can return fewer than asked; widen only if it could help.
                if len(hits) >= k or want >= size or len(matches.keys) < want:
                    return hits[:k]
                want = min(size, want * 2)
        return []

    def save(self, checkpoint_seq: int) -> None:
        """Write the index and its sidecar atomically; the sidecar names the checkpoint seq."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".tmp")
        with self._lock:
            self._index.save(str(tmp))
            count = len(self._index)
        _fsync(tmp)
        meta = {
            "format": SIDECAR_FORMAT,
            "model": self.model,
            "dimension": self.dimension,
            "metric": str(self._params["metric"]),
            "dtype": str(self._params["dtype"]),
            "count": count,
            "seq": int(checkpoint_seq),
            "size": tmp.stat().st_size,
            "checksum": _file_checksum(tmp),
        }
        os.replace(tmp, self.path)
        side_tmp = self.sidecar_path.with_name(self.sidecar_path.name + ".tmp")
        side_tmp.write_text(json.dumps(meta, sort_keys=True))
        _fsync(side_tmp)
        os.replace(side_tmp, self.sidecar_path)
        _fsync_dir(self.path.parent)

    def load(self) -> int | None:
        """Restore from disk and return the checkpoint seq, or None if the caller must rebuild.

        None means: no checkpoint, a sidecar that does not match this model or dimension, or an
        index file whose size or checksum differs from the sidecar (truncated or damaged). The
        in-memory index is left empty in that case.
        """
        meta = self._read_sidecar()
        if meta is None or not self.path.exists():
            return None
        if self.path.stat().st_size != meta["size"] or _file_checksum(self.path) != meta["checksum"]:
            return None
        fresh = Index(**self._params)
        try:
            fresh.load(str(self.path))
        except Exception:  # usearch raises bare RuntimeError/ValueError on bad files
            return None
        if len(fresh) != meta["count"] or fresh.ndim != self.dimension:
            return None
        with self._lock:
            self._index = fresh
        return int(meta["seq"])

    def clear(self) -> None:
        with self._lock:
            self._index = Index(**self._params)

    def _read_sidecar(self) -> dict | None:
        try:
            meta = json.loads(self.sidecar_path.read_text())
        except (OSError, ValueError):
            return None
        expected = {"format": SIDECAR_FORMAT, "dimension": self.dimension}
        if self.model:
            expected["model"] = self.model
        if not isinstance(meta, dict) or any(meta.get(k) != v for k, v in expected.items()):
            return None
        if not all(isinstance(meta.get(k), int) for k in ("count", "seq", "size")):
            return None
        return meta


def exact_search(
    matrix: np.ndarray, vector: np.ndarray, k: int, keys: np.ndarray | None = None
) -> list[tuple[int, float]]:
    """Exact cosine top-k over unit rows of `matrix`: (key, similarity), best first.

    Keys default to row numbers. For tests, benches, and small stores.
    """
    if len(matrix) == 0 or k <= 0:
        return []
    sims = np.asarray(matrix, dtype=np.float32) @ np.asarray(vector, dtype=np.float32)
    k = min(k, len(sims))
    top = np.argpartition(-sims, k - 1)[:k]
    top = top[np.argsort(-sims[top], kind="stable")]
    labels = np.arange(len(sims)) if keys is None else np.asarray(keys)
    return [(int(labels[i]), float(sims[i])) for i in top]


def _file_checksum(path: Path) -> str:
    with open(path, "rb") as fh:
        return "sha256:" + hashlib.file_digest(fh, "sha256").hexdigest()


def _fsync(path: Path) -> None:
    with open(path, "rb+") as fh:
        os.fsync(fh.fileno())


def _fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
