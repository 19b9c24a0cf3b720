"""Retrieval quality of the real system (issue 5). Prints one JSON object.

LoCoMo (protocol in ../shared/data/README.md): each conversation is its own memory home;
every dialogue turn is one item whose text is "<speaker>: <text>" (plus " [image: caption]"),
created at its session's time; for each question of categories 1-4 with evidence, the top k
items are retrieved and evidence recall@5/@10 is reported, overall and per category.
BEIR msmarco-5k: nDCG@10 (graded gains, as trec_eval) and recall@100 over the judged queries.

Configurations: fts (BM25 only), vector with the hash embedder, vector with onnx, hybrid with
hash (the default), hybrid with onnx (when the onnx extra is installed); and, in the same run
with the same metrics, the plain baselines: Okapi BM25 over lower-cased words
(`bm25-plain`) and reciprocal-rank fusion of it with exact MiniLM search (`rrf-bm25-minilm`).

Usage: python bench/bench_retrieval.py [--only locomo|beir] [--configs fts,hash-hybrid,...]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from functools import lru_cache
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import eval_embedders as ee
from common import emit, ndcg_at, progress

from ragixd.domain import commands as c
from ragixd.domain.clock import format_ts
from ragixd.memory import Memory
from ragixd.store.filters import Filters

DATA = Path(__file__).resolve().parents[1] / ".." / "shared" / "data"
CONFIGS = {
    "fts": ({"backend": "none"}, "fts"),
    "hash-vector": ({"backend": "hash"}, "vector"),
    "hash-hybrid": ({"backend": "hash"}, "hybrid"),
    "onnx-vector": ({"backend": "onnx"}, "vector"),
    "onnx-hybrid": ({"backend": "onnx"}, "hybrid"),
}


def onnx_available() -> bool:
    try:
        from ragixd.embed.registry import make_embedder
        make_embedder({"backend": "onnx"})
        return True
    except Exception:
        return False


def item_id(key: str) -> str:
    return "MEM-" + hashlib.sha1(key.encode()).hexdigest()[:16]


def session_time(text: str) -> str:
    return format_ts(datetime.strptime(text.strip(), "%I:%M %p on %d %B, %Y"))


def locomo_items(sample: dict) -> list[dict]:
    conv = sample["conversation"]
    items = []
    for n in range(1, 100):
        turns = conv.get(f"session_{n}")
        if not turns:
            continue
        when = session_time(conv[f"session_{n}_date_time"])
        for turn in turns:
            text = f"{turn['speaker']}: {turn['text']}"
            if turn.get("blip_caption"):
                text += f" [image: {turn['blip_caption']}]"
            items.append({"id": item_id(turn["dia_id"]), "title": "", "content": text,
                          "entities": [turn["speaker"]], "created_at": when,
                          "provenance": {"source_kind": "chat", "source_id": f"{sample['sample_id']}:{turn['dia_id']}"},
                          "_key": turn["dia_id"]})
    return items


RECALL: dict = {}


def open_memory(home: Path, embedder: dict) -> Memory:
    from ragixd.retrieval.hybrid import RecallConfig
    return Memory(home, synchronous="OFF", embedders=[embedder], backfill=False,
                  recall=RecallConfig.from_mapping(RECALL))


def load(memory: Memory, items: list[dict]) -> None:
    fields = [{k: v for k, v in i.items() if not k.startswith("_")} for i in items]
    for start in range(0, len(fields), 500):
        memory.execute([c.CreateItem(f, dedup=False) for f in fields[start:start + 500]])
    memory.fill_vectors()


# A searcher answers (query, k) with the keys of its top k (turn ids, passage ids).
Searcher = Callable[[str, int], list[str]]


@contextmanager
def searcher(config: str, items: list[dict]) -> Iterator[Searcher]:
    """The given configuration over `items`: ragix itself in a fresh home, or a plain baseline
    (BM25, or reciprocal-rank fusion of BM25 and MiniLM) over the same texts."""
    if config in BASELINES:
        texts = [f"{i['title']} {i['content']}".strip() for i in items]
        rank = BASELINES[config](texts)
        yield lambda query, k: [items[pos]["_key"] for pos in rank(query)[:k]]
        return
    embedder, mode = CONFIGS[config]
    back = {i["id"]: i["_key"] for i in items}
    with tempfile.TemporaryDirectory() as tmp:
        memory = open_memory(Path(tmp), embedder)
        try:
            load(memory, items)
            conn = memory.store.reader()

            def search(query: str, k: int) -> list[str]:
                hits, _used = memory.search.search(conn, query, Filters(), k, mode)
                return [back[h.item.id] for h in hits if h.item.id in back]
            yield search
        finally:
            memory.close()


def _plain_bm25(texts: list[str]) -> ee.Ranker:
    return ee.BM25(texts).rank


def _plain_rrf(texts: list[str]) -> ee.Ranker:
    return ee.rrf(ee.BM25(texts).rank, ee.dense_ranker(_minilm(), texts))


@lru_cache(maxsize=1)
def _minilm():
    from ragixd.embed.registry import make_embedder
    return make_embedder({"backend": "onnx"})


# The plain baselines the issue quotes, measured in the same run with the same metrics.
BASELINES = {"bm25-plain": _plain_bm25, "rrf-bm25-minilm": _plain_rrf}


def run_locomo(config: str) -> dict:
    samples = json.loads((DATA / "locomo" / "locomo-dev.json").read_text())
    per_cat: dict[int, list[tuple[float, float]]] = defaultdict(list)
    latencies = []
    for sample in samples:
        with searcher(config, locomo_items(sample)) as search:
            for qa in sample["qa"]:
                if qa["category"] not in (1, 2, 3, 4) or not qa.get("evidence"):
                    continue
                start = time.perf_counter()
                got = search(qa["question"], 10)
                latencies.append(time.perf_counter() - start)
                evidence = set(qa["evidence"])
                per_cat[qa["category"]].append(
                    (len(evidence & set(got[:5])) / len(evidence), len(evidence & set(got[:10])) / len(evidence)))
    everything = [r for rows in per_cat.values() for r in rows]
    return {
        "questions": len(everything),
        "recall@5": round(sum(r[0] for r in everything) / len(everything), 4),
        "recall@10": round(sum(r[1] for r in everything) / len(everything), 4),
        "per_category": {str(cat): {"n": len(rows), "recall@5": round(sum(r[0] for r in rows) / len(rows), 4),
                                    "recall@10": round(sum(r[1] for r in rows) / len(rows), 4)}
                         for cat, rows in sorted(per_cat.items())},
        "search_ms_p50": round(sorted(latencies)[len(latencies) // 2] * 1000, 3),
    }


def run_beir(config: str) -> dict:
    root = DATA / "beir-msmarco-5k"
    corpus = [json.loads(line) for line in (root / "corpus.jsonl").open()]
    queries = {q["_id"]: q["text"] for q in map(json.loads, (root / "queries.jsonl").open())}
    qrels: dict[str, dict[str, int]] = defaultdict(dict)
    for line in list((root / "test.tsv").open())[1:]:
        qid, did, rel = line.rstrip("\n").split("\t")
        qrels[qid][did] = int(rel)
    items = [{"id": item_id(d["_id"]), "title": (d.get("title") or "")[:200], "content": d["text"][:3000],
              "_key": d["_id"]} for d in corpus]
    ndcg, rec = [], []
    with searcher(config, items) as search:
        for qid, graded in qrels.items():
            got = search(queries[qid], 100)
            rels = {d: r for d, r in graded.items() if r > 0}
            ndcg.append(ndcg_at(got, rels))
            rec.append(len(set(rels) & set(got)) / len(rels) if rels else 0.0)
    return {"queries": len(ndcg), "ndcg@10": round(sum(ndcg) / len(ndcg), 4),
            "recall@100": round(sum(rec) / len(rec), 4)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", choices=["locomo", "beir"])
    ap.add_argument("--configs", default=",".join([*BASELINES, *CONFIGS]),
                    help="comma-separated, of " + ", ".join([*BASELINES, *CONFIGS]) + "; default: all (the plain baselines, then every ragix configuration)")
    ap.add_argument("--recall", default="{}", help="JSON overrides of the [recall] settings")
    args = ap.parse_args()
    RECALL.update(json.loads(args.recall))
    configs = [name for name in args.configs.split(",") if name]
    unknown = [name for name in configs if name not in (*BASELINES, *CONFIGS)]
    if unknown:
        ap.error(f"unknown configuration {', '.join(unknown)}; known: {', '.join([*BASELINES, *CONFIGS])}")
    have_onnx = onnx_available()
    result: dict = {"bench": "retrieval", "onnx_available": have_onnx, "recall_overrides": RECALL,
                    "locomo": {}, "beir": {}}
    for name in configs:
        if (name.startswith("onnx") or name == "rrf-bm25-minilm") and not have_onnx:
            continue
        if args.only in (None, "locomo"):
            progress(f"locomo {name}")
            result["locomo"][name] = run_locomo(name)
        if args.only in (None, "beir"):
            progress(f"beir {name}")
            result["beir"][name] = run_beir(name)
    # The targets on the LoCoMo dev sample, for the configurations that ran.
    wanted = {"hash-hybrid": ("default_hybrid_r10_ge_0_64", 0.64), "onnx-hybrid": ("onnx_hybrid_r10_ge_0_72", 0.72)}
    result["targets"] = {key: result["locomo"][name]["recall@10"] >= floor
                         for name, (key, floor) in wanted.items() if name in result["locomo"]}
    emit(result)


if __name__ == "__main__":
    main()
