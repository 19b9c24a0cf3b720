"""The HNSW graph's storage type, side by side: usearch indexes of the same vectors in f16 (the
type before session 13), bf16 (the index's type now) and any other given, one after the other
in one process. Prints one JSON object.

For each storage type: the add rate (all of the --sizes vectors in one call, --threads threads),
the resident memory the index reports, and for each --expansions value the search p50/p99 of
k=10 (and of k=100, what hybrid search asks for) and recall@10 against exact float32 search,
for short queries (1-3 words) and held-out passages, as in bench_vectors.py. The vectors are
bench_vectors.py's (hash embeddings of textgen items, cached with --cache-dir).

A type may be named twice (`--dtypes f16,bf16,f16,bf16`) to see the run-to-run spread.
`--connectivity` and `--expansion-add` take comma lists too: every graph shape (connectivity,
expansion_add, paired in order; a single value applies to all) is built for every type, so
that the recall a denser graph buys can be set against its search time and add rate.

Usage: python bench/bench_vector_dtypes.py [--size 100000] [--dtypes f16,bf16] [--quick]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from usearch.index import Index

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_vectors as bv  # noqa: E402
from common import emit, percentiles, progress  # noqa: E402


def search_figures(index: Index, queries: np.ndarray, truth: bv.GroundTruth, rows: slice,
                   data: np.ndarray, count: int, reps: int) -> dict:
    times, found = [], []
    for rep in range(reps):
        for q in queries:
            start = time.perf_counter()
            matches = index.search(q, count, threads=1)
            times.append(time.perf_counter() - start)
            if rep == 0:
                found.append(matches.keys.tolist())
    # recall@10 of the exact top 10 among what came back (all `count` of them for k=100)
    hits = [len({int(x) for x in truth.ids[qi]}.intersection(int(k) for k in keys)) / truth.k
            for qi, keys in zip(range(rows.start, rows.stop), found)]
    out = percentiles(times)
    out["true_top10_found"] = round(float(np.mean(hits)), 4)
    if count == truth.k:
        out.update(truth.recall(found, rows, data))
    return out


def graph_shapes(connectivity: str, expansion_add: str) -> list[tuple[int, int]]:
    """(connectivity, expansion_add) pairs from two comma lists; a single value pairs with all."""
    ms = [int(x) for x in connectivity.split(",")]
    eas = [int(x) for x in expansion_add.split(",")]
    if len(ms) != len(eas) and 1 not in (len(ms), len(eas)):
        raise SystemExit("--connectivity and --expansion-add must list as many values, or one")
    count = max(len(ms), len(eas))
    return list(zip(ms * count if len(ms) == 1 else ms, eas * count if len(eas) == 1 else eas))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", type=int, default=100_000, help="vectors in each index")
    ap.add_argument("--dtypes", default="f16,bf16", help="storage types to compare (usearch names)")
    ap.add_argument("--connectivity", default=str(bv.PARAMS["connectivity"]),
                    help="graph connectivity (M), or a comma list of them")
    ap.add_argument("--expansion-add", default=str(bv.PARAMS["expansion_add"]),
                    help="expansion_add, or a comma list paired with --connectivity's")
    ap.add_argument("--expansions", default="64,128,256,512", help="expansion_search values")
    ap.add_argument("--queries", type=int, default=200, help="queries per query set")
    ap.add_argument("--reps", type=int, default=2, help="timed passes over the queries")
    ap.add_argument("--threads", type=int, default=0, help="threads for the adds (0: all cores)")
    ap.add_argument("--cache-dir", help="keep the embedded vectors here across runs")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--quick", action="store_true", help="small CI form: 20000 vectors, 50 queries")
    args = ap.parse_args()
    if args.quick:
        args.size, args.queries, args.expansions, args.reps = 20_000, 50, "64,256", 1
    work = Path(tempfile.mkdtemp(prefix="ragix-dtypes-"))
    cache = Path(args.cache_dir) if args.cache_dir else work
    cache.mkdir(parents=True, exist_ok=True)
    data = bv.make_vectors(cache / f"hash-textgen-{args.size}.f32.npy", args.size, args.workers)
    data = np.ascontiguousarray(data, dtype=np.float32)
    short, passages = bv.make_queries(args.queries)
    sets = {"short": short, "passage": passages}
    allq = np.concatenate([short, passages])
    truth = bv.GroundTruth(allq)
    truth.extend(data, len(data))
    spans = {"short": slice(0, len(short)), "passage": slice(len(short), len(allq))}
    expansions = [int(x) for x in args.expansions.split(",")]
    shapes = graph_shapes(args.connectivity, args.expansion_add)
    out = {"bench": "vector_dtypes", "cpus": os.cpu_count(), "size": args.size,
           "params": {**bv.PARAMS, "connectivity": None, "expansion_add": None, "dtype": None},
           "load_avg_start": [round(x, 2) for x in os.getloadavg()], "by_dtype": {}}
    keys = np.arange(len(data), dtype=np.uint64)
    turns = [(dtype, shape) for dtype in args.dtypes.split(",") for shape in shapes]
    for turn, (dtype, (connectivity, expansion_add)) in enumerate(turns, 1):
        params = {**bv.PARAMS, "connectivity": connectivity, "expansion_add": expansion_add,
                  "dtype": dtype}
        index = Index(**params)
        label = dtype if len(shapes) == 1 else f"{dtype} M{connectivity} ea{expansion_add}"
        progress(f"{label}: adding {len(data)} vectors")
        start, cpu = time.perf_counter(), time.process_time()
        index.add(keys, data, threads=args.threads)
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu
        entry = {"connectivity": connectivity, "expansion_add": expansion_add,
                 "hardware_acceleration": str(index.hardware_acceleration),
                 "add": {"seconds": round(wall, 1), "vectors_per_s": round(len(data) / wall),
                         "vectors_per_cpu_s": round(len(data) / cpu)},
                 "memory_usage_mb": round(index.memory_usage / 2**20, 1), "search": []}
        for ef in expansions:
            index.expansion_search = ef
            row = {"expansion_search": ef}
            for name, queries in sets.items():
                row[name] = {f"k{count}": search_figures(index, queries, truth, spans[name], data,
                                                         count, args.reps) for count in (10, 100)}
            entry["search"].append(row)
            progress(f"  expansion {ef}: short k10 {row['short']['k10']}")
        out["by_dtype"][label if label not in out["by_dtype"] else f"{label} (turn {turn})"] = entry
        del index
    out["load_avg_end"] = [round(x, 2) for x in os.getloadavg()]
    emit(out)


if __name__ == "__main__":
    main()
