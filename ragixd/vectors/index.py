"""A per-model nearest-neighbour index over item vectors: a flat table, then a usearch HNSW graph
or a column-scan table.

Up to EXACT_BELOW vectors (most personal stores) the vectors sit in a flat table searched
exactly (flat.py): no graph to build, so an insert is a row copy. The add that takes the index
past that size moves them into the index's large layout:
- "graph" (learned models' dense vectors): a usearch HNSW graph, built from the table in one
  batch (~3-4 s for 10k vectors, on the thread that adds; searches go on over the table
  meanwhile), and from then on every insert goes into the graph;
- "scan" (the hash embedder, whose queries touch few dimensions and whose nearly orthogonal
  vectors an HNSW graph searches poorly): scan.py's table, where an insert is again a row copy.

Owns one index file and its sidecar: integer keys (item row ids) to unit vectors, cosine
similarity search with an exclusion set, and checkpoints that are written atomically and
verified on load. It is a cache of what the store implies, never the source of truth: when the
file is missing, damaged, or from another model, `load()` returns None and the caller rebuilds
it from the store, replaying only events after the checkpoint seq it returns otherwise.

Thread safety: one lock serialises every call on the in-memory index, so readers may search
while one writer adds; a second lock serialises the changes (add, remove, load, clear), so that
the graph can be built outside the first. Searches take it through `nowait.holding`: a search running on the
server's loop thread gives way (WouldBlock) rather than wait behind a long batch add or a
checkpoint's in-memory copy, and the server runs it again on a reader thread.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import threading
from collections.abc import Iterable
from pathlib import Path

import numpy as np
from usearch.index import Index

from ragixd.errors import StoreError
from ragixd.nowait import holding
from ragixd.vectors.flat import MAGIC as FLAT_MAGIC
from ragixd.vectors.flat import FlatVectors
from ragixd.vectors.scan import MAGIC as SCAN_MAGIC
from ragixd.vectors.scan import ScanVectors

LAYOUTS = ("graph", "scan")

SIDECAR_FORMAT = 1
# Up to this many vectors they are kept in a flat table and a search compares the query with
# every one (~1.5 ms at 10k here); past it, an HNSW graph or the scan table (the layout).
# The HNSW graph misses near-duplicates: among 1,000 hashed texts that differ by a number or
# two, a text's own item was not in its top 10 for ~1-2 % of them, even at expansion 1024.
EXACT_BELOW = 10_000
# The graph stores vectors as bfloat16: the same memory as f16 and, on the same 100k hash
# vectors, the same recall@10 against exact float32 search (0.66 / 0.74 at expansion 256),
# with searches taking 40-50 % less time and adds 1.5-1.6x as fast as f16 on this machine's
# CPU (AVX-512 BF16; bench/bench_vector_dtypes.py). A checkpoint of
# another storage type (f16, written before) is loaded as it is, since usearch reads the type
# from the file: upgrading never forces a rebuild, and `ragixctl rebuild` converts.
STORAGE_DTYPE = "bf16"
# usearch inserts a batch on every core by default, and then, now and then, leaves a vector its
# own search does not reach: of 300 graphs of the same 200 random vectors built that way, 18
# had one whose nearest match was another (1-5 of 10k vectors in a graph of 10k), where one
# thread never missed one, and builds the same graph from the same batch every time. On two
# cores it was no slower (10k vectors: 1.19 against 1.12 s). So batches go in on one thread up
# to this size, a table outgrowing the flat layout (10k) and a back-filler's batches included;
# a larger one (a rebuild of a large graph) takes every core for time.
GRAPH_ONE_THREAD_UPTO = 65_536


class VectorIndex:
    """One embedding model's vectors, keyed by item row id: flat while small, then HNSW."""

    def __init__(
        self,
        path: Path,
        dimension: int,
        metric: str = "cos",
        dtype: str = STORAGE_DTYPE,
        connectivity: int = 16,
        expansion_add: int = 128,
        expansion_search: int = 256,
        *,
        model: str = "",
        layout: str = "graph",
    ) -> None:
        if layout not in LAYOUTS:
            raise ValueError(f"layout must be one of {', '.join(LAYOUTS)}, not {layout!r}")
        self.layout = layout
        self.path = Path(path)
        self.dimension = dimension
        self.model = model
        self.checkpoint_hash = ""  # the log event's hash the last loaded checkpoint names
        self._params = {
            "ndim": dimension,
            "metric": metric,
            "dtype": dtype,
            "connectivity": connectivity,
            "expansion_add": expansion_add,
            "expansion_search": expansion_search,
        }
        self._lock = threading.Lock()
        self._change_lock = threading.Lock()  # one add, remove, load or clear at a time
        self._save_lock = threading.Lock()  # one checkpoint at a time (they share temp names)
        self._index: Index | FlatVectors | ScanVectors = FlatVectors(dimension)

    @property
    def is_flat(self) -> bool:
        """Whether the vectors are still in the flat table (no HNSW graph yet)."""
        return isinstance(self._index, FlatVectors)

    @property
    def is_graph(self) -> bool:
        """Whether searches run in usearch's HNSW graph, native code that leaves the GIL for
        the whole search (the tables search with many short numpy calls)."""
        return isinstance(self._index, Index)

    @property
    def sidecar_path(self) -> Path:
        return self.path.with_name(self.path.name + ".meta.json")

    def __len__(self) -> int:
        with holding(self._lock):
            return len(self._index)

    def __contains__(self, key: int) -> bool:
        with self._lock:
            return bool(np.asarray(self._index.contains(_as_keys([key]))).reshape(-1)[0])

    def add(self, keys: Iterable[int] | np.ndarray, vectors: np.ndarray) -> None:
        """Insert vectors under keys, replacing any vector already stored under a key."""
        keys_arr = _as_keys(keys)
        vecs = np.asarray(vectors, dtype=np.float32).reshape(len(keys_arr), self.dimension)
        if len(keys_arr) == 0:
            return
        if len(np.unique(keys_arr)) != len(keys_arr):
            # Last write wins within one call, as it would across calls.
            _, last = np.unique(keys_arr[::-1], return_index=True)
            pick = len(keys_arr) - 1 - last
            keys_arr, vecs = keys_arr[pick], vecs[pick]
        with self._change_lock:
            with self._lock:
                present = np.asarray(self._index.contains(keys_arr), dtype=bool).reshape(-1)
                if present.any():
                    self._index.remove(keys_arr[present])
                _add(self._index, keys_arr, vecs)
                table = self._index if self.is_flat and len(self._index) > EXACT_BELOW else None
            if table is not None:
                self._outgrow(table)

    def _outgrow(self, table: FlatVectors) -> None:
        """Move the vectors from the flat table into the layout's large structure. It is built
        outside the search lock (searches use the table until the swap: an HNSW graph of 10k
        vectors takes seconds); no change can happen meanwhile, as the caller holds the change
        lock."""
        grown = self._arranged(table.keys, table.vectors)
        with self._lock:
            self._index = grown

    def remove(self, keys: Iterable[int] | np.ndarray) -> int:
        """Remove keys (absent ones are ignored); return how many were removed."""
        keys_arr = _as_keys(keys)
        if keys_arr.size == 0:
            return 0
        with self._change_lock, self._lock:
            return int(self._index.remove(keys_arr))

    def search(
        self, vector: np.ndarray, k: int, exclude: set[int] | None = None
    ) -> list[tuple[int, float]]:
        """The k nearest keys as (key, similarity), best first; similarity = 1 - cos distance."""
        query = np.asarray(vector, dtype=np.float32).reshape(self.dimension)
        exclude = exclude or set()
        with holding(self._lock):
            size = len(self._index)
            exact = size <= EXACT_BELOW
            want = min(size, k + len(exclude))
            while want > 0:
                matches = self._index.search(query, want, exact=exact)
                # Plain lists first: the same ints and floats (float32 widens exactly), without
                # a numpy scalar per element (~40 µs for 100 of them).
                keys, dists = matches.keys.tolist(), matches.distances.tolist()
                hits = [(key, 1.0 - dist) for key, dist in zip(keys, dists) if key not in exclude]
                # Approximate search can return fewer than asked; widen only if it could help.
                if len(hits) >= k or want >= size or len(matches.keys) < want:
                    return hits[:k]
                want = min(size, want * 2)
        return []

    def exact(self, vector: np.ndarray, keys: list[int], k: int) -> list[tuple[int, float]]:
        """The k keys among `keys` nearest to `vector`, by exact cosine similarity, best first
        (ties by key); keys without a vector are left out. For a small filtered subset, where
        the approximate search would have to look far past it."""
        if not keys or k <= 0:
            return []
        query = np.asarray(vector, dtype=np.float32).reshape(self.dimension)
        with holding(self._lock):
            stored = self._index.get(_as_keys(keys))
        present = [(int(key), v) for key, v in zip(keys, stored) if v is not None]
        if not present:
            return []
        return exact_search(np.stack([v for _, v in present]), query, k, np.array([key for key, _ in present]))

    def save(self, checkpoint_seq: int, event_hash: str = "") -> None:
        """Write the index and its sidecar atomically; the sidecar names the checkpoint seq
        and the hash of the log's event at that seq (so a log restored from a backup, or one
        that lost its last commits, is not taken for the one the index was saved from).

        The index file is replaced first, then the sidecar: a crash in between leaves a sidecar
        whose checksum no longer matches, which load() reports as "rebuild".
        """
        with self._save_lock:
            self._save(int(checkpoint_seq), event_hash)

    def _save(self, seq: int, event_hash: str = "") -> None:
        tmp = self.path.with_name(self.path.name + ".tmp")
        side_tmp = self.sidecar_path.with_name(self.sidecar_path.name + ".tmp")
        try:
            # Serialise in memory under the lock (a copy), write to disk outside it: searches
            # wait for a memcpy, not for the disk.
            with self._lock:
                blob = bytes(self._index.save())
                count = len(self._index)
                dtype = self._storage_dtype()
            self.path.parent.mkdir(parents=True, exist_ok=True)
            _write_synced(tmp, blob)
            meta = {
                "format": SIDECAR_FORMAT,
                "model": self.model,
                "dimension": self.dimension,
                "metric": str(self._params["metric"]),
                "dtype": dtype,
                "count": count,
                "seq": seq,
                "event_hash": event_hash,
                "size": len(blob),
                "checksum": _checksum(blob),
            }
            os.replace(tmp, self.path)
            _write_synced(side_tmp, json.dumps(meta, sort_keys=True).encode("utf-8"))
            os.replace(side_tmp, self.sidecar_path)
            _fsync_dir(self.path.parent)
        except (OSError, RuntimeError) as exc:
            for leftover in (tmp, side_tmp):
                with contextlib.suppress(OSError):
                    leftover.unlink(missing_ok=True)
            raise StoreError(
                f"cannot save vector index {self.path}: {exc}", path=str(self.path)
            ) from exc

    def load(self) -> int | None:
        """Restore from disk and return the checkpoint seq, or None if the caller must rebuild.

        None means: no checkpoint, a sidecar that does not match this model or dimension, or an
        index file whose size or checksum differs from the sidecar (truncated or damaged). The
        in-memory index is left as it was in that case.
        """
        meta = self._read_sidecar()
        if meta is None:
            return None
        try:
            blob = self.path.read_bytes()
        except OSError:
            return None
        if len(blob) != meta["size"] or _checksum(blob) != meta["checksum"]:
            return None
        fresh = self._restore(blob)
        if fresh is None or len(fresh) != meta["count"]:
            return None
        with self._change_lock, self._lock:
            self._index = fresh
        self.checkpoint_hash = meta.get("event_hash") or ""  # "" in sidecars older than it
        return int(meta["seq"])

    def _restore(self, blob: bytes) -> Index | FlatVectors | ScanVectors | None:
        """The table or graph a checkpoint holds, in this index's layout (None if unreadable).
        A file of another layout is converted: a graph of no more than EXACT_BELOW vectors
        (saved before the flat table existed) comes back as a table, a graph in a scan index
        (saved before the scan table existed) as a scan table, a scan table in a graph index
        as a graph."""
        try:
            if blob.startswith(FLAT_MAGIC):
                return FlatVectors.load(blob, self.dimension)
            if blob.startswith(SCAN_MAGIC):
                scanned = ScanVectors.load(blob, self.dimension)
                if self.layout == "scan" and len(scanned) > EXACT_BELOW:
                    return scanned
                return self._arranged(scanned.keys, scanned.vectors)
            graph = Index(**self._params)
            graph.load(blob)
        except (RuntimeError, ValueError, OSError):  # what usearch and numpy raise on a bad file
            return None
        if graph.ndim != self.dimension:
            return None
        if self.layout == "graph" and len(graph) > EXACT_BELOW:
            return graph
        keys = np.asarray(graph.keys, dtype=np.uint64)
        return self._arranged(keys, np.asarray(graph.get(keys), dtype=np.float32) if len(keys) else
                              np.zeros((0, self.dimension), dtype=np.float32))

    def _arranged(self, keys: np.ndarray, vectors: np.ndarray) -> Index | FlatVectors | ScanVectors:
        """These vectors in the structure this index uses at their count."""
        if len(keys) > EXACT_BELOW:
            if self.layout == "scan":
                scanned = ScanVectors(self.dimension)
                scanned.add(keys, vectors)
                return scanned
            graph = Index(**self._params)
            _add(graph, keys, vectors)
            return graph
        table = FlatVectors(self.dimension)
        if len(keys):
            table.add(keys, vectors)
        return table

    def _storage_dtype(self) -> str:
        """How the index holds its vectors: the flat table float32, the scan table int8 with
        a scale per vector, a graph its own type."""
        if self.is_flat:
            return "f32"
        if isinstance(self._index, ScanVectors):
            return "i8"
        return self._index.dtype.name.lower()

    def clear(self) -> None:
        with self._change_lock, self._lock:
            self._index = FlatVectors(self.dimension)

    def _read_sidecar(self) -> dict | None:
        try:
            meta = json.loads(self.sidecar_path.read_text())
        except (OSError, ValueError):
            return None
        expected = {  # not the storage type: the file says it, and any loads
            "format": SIDECAR_FORMAT,
            "dimension": self.dimension,
            "metric": str(self._params["metric"]),
        }
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
    """Exact cosine top-k over the rows of `matrix`: (key, similarity), best first, ties broken
    by key. Keys default to row numbers. For filtered subsets, tests and benches."""
    if len(matrix) == 0 or k <= 0:
        return []
    rows = np.asarray(matrix, dtype=np.float32)
    query = np.asarray(vector, dtype=np.float32)
    norms = np.linalg.norm(rows, axis=1) * max(float(np.linalg.norm(query)), 1e-12)
    sims = (rows @ query) / np.maximum(norms, 1e-12)
    labels = np.arange(len(sims)) if keys is None else np.asarray(keys)
    pick = np.arange(len(sims))
    if len(sims) > k:  # everything at least as near as the k-th, so that ties stay in
        kth = np.partition(sims, len(sims) - k)[len(sims) - k]
        pick = np.flatnonzero(sims >= kth)
    order = sorted(pick.tolist(), key=lambda i: (-float(sims[i]), int(labels[i])))[:k]
    return [(int(labels[i]), float(sims[i])) for i in order]


def _as_keys(keys: Iterable[int] | np.ndarray) -> np.ndarray:
    if not isinstance(keys, np.ndarray):
        keys = list(keys)
    return np.asarray(keys, dtype=np.uint64).reshape(-1)


def _checksum(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def _write_synced(path: Path, data: bytes) -> None:
    with open(path, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())


def _fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _add(index: Index | FlatVectors | ScanVectors, keys: np.ndarray, vectors: np.ndarray) -> None:
    """index.add, a graph's batch on one thread up to GRAPH_ONE_THREAD_UPTO vectors."""
    if isinstance(index, Index):
        index.add(keys, vectors, threads=1 if len(keys) <= GRAPH_ONE_THREAD_UPTO else 0)
    else:
        index.add(keys, vectors)
