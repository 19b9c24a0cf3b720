"""The neighbours lookup of search, before and after the stored source key (migration 7).
Prints one JSON object.

Each store is built once; every query is then searched with both lookups, alternately first,
in one run: `provenance`, the query that ran before (of the window's rows, those whose
provenance source_id matches, read with json_extract, all anchors in one UNION ALL), and
`source_key`, store/neighbours.py. For each it reports the p50 of the whole search and of the
lookup alone, and whether the two searches ranked the same ids with the same scores and
signals (with one fixed `now`, so recency is equal).

Stores: the LoCoMo dev sample as bench_retrieval.py builds it (one home per conversation,
chat turns whose source is the session) with `fts` and `hash-hybrid`; and a synthetic one of
documents cut into chunks written at one time per document, chat sessions and archived items,
searched with and without a tag filter.

Usage: python bench/bench_neighbours.py [--only locomo|synthetic] [--configs fts,hash-hybrid]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_retrieval as br
from common import emit, percentiles, progress
from textgen import TAGS, TextGen

from ragixd.domain import commands as c
from ragixd.memory import Memory
from ragixd.store import neighbours
from ragixd.store.filters import Filters

NOW = datetime(2026, 1, 1, tzinfo=UTC)
# The lookup before migration 7 (store/queries.py at 9bcebde), kept here to compare with.
_PROVENANCE_TERM = (
    "SELECT * FROM (SELECT ? AS slot, rid, id, created_at FROM (SELECT i.rid, i.id, i.created_at, "
    "coalesce(json_extract(i.provenance_json, '$.source_id'), '') AS sid FROM memory_items i "
    "WHERE (i.created_at, i.rid) {op} (?, ?) AND {where} ORDER BY i.created_at {order}, i.rid {order} LIMIT ?) "
    "WHERE rtrim(sid, replace(sid, ':', '')) = ? ORDER BY created_at {order}, rid {order} LIMIT ?)"
)


def provenance_near(conn, anchors, window, span, filters):
    where, params = filters.where()
    out: list[list[neighbours.Near]] = [[] for _ in anchors]
    for start in range(0, len(anchors), 100):
        terms, args = [], []
        for slot, (anchor, source) in enumerate(anchors[start:start + 100], start):
            for op, order in (("<", "DESC"), (">", "ASC")):
                terms.append(_PROVENANCE_TERM.format(op=op, where=where, order=order))
                args += [slot, anchor.created_at, anchor.rid, *params, window, source + ":", span]
        for slot, *row in conn.execute(" UNION ALL ".join(terms), args):
            out[slot].append(neighbours.Near(*row))
    return out


LOOKUPS = {"provenance": provenance_near, "source_key": neighbours.near}


class Timings:
    def __init__(self) -> None:
        self.search = {name: [] for name in LOOKUPS}
        self.lookup = {name: [] for name in LOOKUPS}
        self.queries = 0
        self.differ: list[str] = []

    def summary(self) -> dict:
        out: dict = {"queries": self.queries, "identical": not self.differ, "differing": self.differ[:5]}
        for name in LOOKUPS:
            out[name] = {"search_p50_ms": percentiles(self.search[name])["p50_ms"],
                         "lookup_p50_ms": percentiles(self.lookup[name])["p50_ms"]}
        return out


@contextmanager
def lookup(name: str, spent: list[float]) -> Iterator[None]:
    """Search with the named lookup, adding the time it took to `spent`."""
    fn = LOOKUPS[name]

    def timed_near(*args):
        start = time.perf_counter()
        try:
            return fn(*args)
        finally:
            spent.append(time.perf_counter() - start)
    neighbours.near = timed_near
    try:
        yield
    finally:
        neighbours.near = LOOKUPS["source_key"]


def compare(memory: Memory, query: str, filters: Filters, mode: str, turn: int, t: Timings) -> None:
    """Search `query` with both lookups, alternately first; record times and any difference."""
    conn = memory.store.reader()
    names = list(LOOKUPS) if turn % 2 == 0 else list(reversed(LOOKUPS))
    ranked = {}
    for name in names:
        spent: list[float] = []
        with lookup(name, spent):
            start = time.perf_counter()
            hits, _used = memory.search.search(conn, query, filters, 10, mode, NOW)
            t.search[name].append(time.perf_counter() - start)
        t.lookup[name].append(sum(spent))
        ranked[name] = [(h.item.id, h.score, sorted(h.signals.items())) for h in hits]
    t.queries += 1
    if ranked["provenance"] != ranked["source_key"]:
        t.differ.append(query)


def run_locomo(config: str) -> dict:
    embedder, mode = br.CONFIGS[config]
    samples = json.loads((br.DATA / "locomo" / "locomo-dev.json").read_text())
    t = Timings()
    for sample in samples:
        with tempfile.TemporaryDirectory() as tmp:
            memory = br.open_memory(Path(tmp), embedder)
            try:
                br.load(memory, br.locomo_items(sample))
                questions = [qa["question"] for qa in sample["qa"]
                             if qa["category"] in (1, 2, 3, 4) and qa.get("evidence")]
                for turn, question in enumerate(questions):
                    compare(memory, question, Filters(), mode, turn, t)
            finally:
                memory.close()
    return t.summary()


def synthetic_items(docs: int = 300, chunks: int = 12, sessions: int = 150, turns: int = 16,
                    seed: int = 11) -> list[dict]:
    """Documents cut into chunks written at one time each, and chat sessions, in mixed order."""
    rng, gen = random.Random(seed), TextGen(seed)
    groups = [[f"doc-{d}.md:{n}" for n in range(chunks)] for d in range(docs)]
    groups += [[f"chat-{s % 40}:S{s}:{n}" for n in range(turns)] for s in range(sessions)]
    rng.shuffle(groups)
    items = []
    for day, group in enumerate(groups):
        when = f"2025-{1 + day // 28 % 12:02d}-{1 + day % 28:02d}T{rng.randint(0, 23):02d}:00:00.000000Z"
        for source in group:
            title, content = gen.item()
            items.append({"title": title, "content": content, "created_at": when, "tags": [rng.choice(TAGS)],
                          "provenance": {"source_kind": "doc" if ".md" in source else "chat", "source_id": source}})
    return items


def run_synthetic(config: str) -> dict:
    embedder, mode = br.CONFIGS[config]
    items = synthetic_items()
    gen, rng = TextGen(5), random.Random(5)
    t = Timings()
    with tempfile.TemporaryDirectory() as tmp:
        memory = Memory(Path(tmp), synchronous="OFF", embedders=[embedder], backfill=False)
        try:
            ids = []  # the items the write policy let through
            for start in range(0, len(items), 500):
                result = memory.execute([c.CreateItem(f, dedup=False) for f in items[start:start + 500]])
                ids += [r["id"] for r in result.results if isinstance(r, dict) and "id" in r]
            memory.execute([c.ArchiveItem(i) for i in rng.sample(ids, len(ids) // 20)])
            memory.fill_vectors()
            for turn in range(300):
                filters = Filters(tags=(rng.choice(TAGS),)) if turn % 3 == 0 else Filters()
                compare(memory, gen.query(rng.randint(1, 4)), filters, mode, turn, t)
        finally:
            memory.close()
    return {"items": len(ids), **t.summary()}


RUNS: dict[str, Callable[[str], dict]] = {"locomo": run_locomo, "synthetic": run_synthetic}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", choices=list(RUNS))
    ap.add_argument("--configs", default="fts,hash-hybrid")
    args = ap.parse_args()
    out = {}
    for name, run in RUNS.items():
        if args.only and name != args.only:
            continue
        for config in args.configs.split(","):
            progress(f"{name} {config} ...")
            out[f"{name}/{config}"] = run(config)
    emit(out)


if __name__ == "__main__":
    main()
