"""Retrieval quality of the real system (issue 5). Prints one JSON object.

LoCoMo (protocol in ../shared/data/README.md): each conversation is its own memory home;
every dialogue turn is one item whose text is "<speaker>: <text>" (plus " [image: caption]"),
created at its session's time; for each question of categories 1-4 with evidence, the top k
items are retrieved and evidence recall@5/@10 is reported, overall and per category.
BEIR msmarco-5k: nDCG@10 and recall@100 over the 50 queries.

Configurations: fts (BM25 only), vector with the hash embedder, vector with onnx, hybrid with
hash (the default), hybrid with onnx (when the onnx extra is installed).

Usage: python bench/bench_retrieval.py [--only locomo|beir] [--configs fts,hash-hybrid,...]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
import tempfile
import time
from collections import defaultdict
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import emit, progress  # noqa: E402

from ragixd.domain import commands as c  # noqa: E402
from ragixd.domain.clock import format_ts  # noqa: E402
from ragixd.memory import Memory  # noqa: E402
from ragixd.store.filters import Filters  # noqa: E402

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


def run_locomo(config: str) -> dict:
    embedder, mode = CONFIGS[config]
    samples = json.loads((DATA / "locomo" / "locomo-dev.json").read_text())
    per_cat: dict[int, list[tuple[float, float]]] = defaultdict(list)
    latencies = []
    for sample in samples:
        items = locomo_items(sample)
        back = {i["id"]: i["_key"] for i in items}
        with tempfile.TemporaryDirectory() as tmp:
            memory = open_memory(Path(tmp), embedder)
            load(memory, items)
            conn = memory.store.reader()
            for qa in sample["qa"]:
                if qa["category"] not in (1, 2, 3, 4) or not qa.get("evidence"):
                    continue
                start = time.perf_counter()
                hits, _used = memory.search.search(conn, qa["question"], Filters(), 10, mode)
                latencies.append(time.perf_counter() - start)
                got = [back.get(h.item.id) for h in hits]
                evidence = set(qa["evidence"])
                per_cat[qa["category"]].append(
                    (len(evidence & set(got[:5])) / len(evidence), len(evidence & set(got[:10])) / len(evidence)))
            memory.close()
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
    embedder, mode = CONFIGS[config]
    root = DATA / "beir-msmarco-5k"
    corpus = [json.loads(line) for line in (root / "corpus.jsonl").open()]
    queries = {q["_id"]: q["text"] for q in map(json.loads, (root / "queries.jsonl").open())}
    qrels: dict[str, dict[str, int]] = defaultdict(dict)
    for line in list((root / "test.tsv").open())[1:]:
        qid, did, rel = line.rstrip("\n").split("\t")
        qrels[qid][did] = int(rel)
    items = [{"id": item_id(d["_id"]), "title": (d.get("title") or "")[:200], "content": d["text"][:3000],
              "_key": d["_id"]} for d in corpus]
    back = {i["id"]: i["_key"] for i in items}
    ndcg, rec = [], []
    with tempfile.TemporaryDirectory() as tmp:
        memory = open_memory(Path(tmp), embedder)
        load(memory, items)
        conn = memory.store.reader()
        for qid, rels in qrels.items():
            hits, _ = memory.search.search(conn, queries[qid], Filters(), 100, mode)
            got = [back.get(h.item.id) for h in hits]
            dcg = sum((2 ** rels.get(d, 0) - 1) / math.log2(i + 2) for i, d in enumerate(got[:10]))
            ideal = sorted(rels.values(), reverse=True)[:10]
            idcg = sum((2 ** r - 1) / math.log2(i + 2) for i, r in enumerate(ideal))
            ndcg.append(dcg / idcg if idcg else 0.0)
            relevant = {d for d, r in rels.items() if r > 0}
            rec.append(len(relevant & set(got)) / len(relevant) if relevant else 0.0)
        memory.close()
    return {"queries": len(ndcg), "ndcg@10": round(sum(ndcg) / len(ndcg), 4),
            "recall@100": round(sum(rec) / len(rec), 4)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", choices=["locomo", "beir"])
    ap.add_argument("--configs", default=",".join(CONFIGS))
    ap.add_argument("--recall", default="{}", help="JSON overrides of the [recall] settings")
    args = ap.parse_args()
    RECALL.update(json.loads(args.recall))
    configs = [name for name in args.configs.split(",") if name]
    have_onnx = onnx_available()
    result: dict = {"bench": "retrieval", "onnx_available": have_onnx, "recall_overrides": RECALL,
                    "locomo": {}, "beir": {}}
    for name in configs:
        if name.startswith("onnx") and not have_onnx:
            continue
        if args.only in (None, "locomo"):
            progress(f"locomo {name}")
            result["locomo"][name] = run_locomo(name)
        if args.only in (None, "beir"):
            progress(f"beir {name}")
            result["beir"][name] = run_beir(name)
    emit(result)


if __name__ == "__main__":
    main()
