"""Small helpers shared by the benchmarks: timing percentiles and JSON output."""

from __future__ import annotations

import json
import math
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any


def percentiles(samples_s: list[float]) -> dict[str, float]:
    ms = sorted(s * 1000 for s in samples_s)
    if not ms:
        return {"p50_ms": 0.0, "p99_ms": 0.0, "n": 0}
    p99 = ms[min(len(ms) - 1, int(round(0.99 * (len(ms) - 1))))]
    return {"p50_ms": round(statistics.median(ms), 4), "p99_ms": round(p99, 4), "n": len(ms)}


def timed(fn: Callable[[], Any]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


class SqliteClock:
    """Sums the time SQLite itself spends running statements (a profile hook, see
    Store.profile_sqlite): the database's share of a measured run, told apart from the
    interpreter's. Its own cost (a Python call per statement) lands outside what it sums."""

    def __init__(self) -> None:
        self.ns = 0
        self.statements = 0

    def __call__(self, statement: str, ns: int) -> None:
        self.ns += ns
        self.statements += 1

    @property
    def seconds(self) -> float:
        return self.ns / 1e9


def emit(result: dict[str, Any]) -> None:
    json.dump(result, sys.stdout, indent=2, sort_keys=False)
    sys.stdout.write("\n")


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def ndcg_at(ranked: list[str], rels: dict[str, int], k: int = 10) -> float:
    """nDCG@k with graded gains as trec_eval and BEIR compute it (gain = grade, log2 discount)."""
    dcg = sum(rels.get(d, 0) / math.log2(i + 2) for i, d in enumerate(ranked[:k]))
    ideal = sorted(rels.values(), reverse=True)[:k]
    idcg = sum(r / math.log2(i + 2) for i, r in enumerate(ideal))
    return dcg / idcg if idcg else 0.0
