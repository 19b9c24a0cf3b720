"""Retrieval quality of the embedders on LoCoMo (evidence recall) and a BEIR sample.

Prints one JSON object. Rankers: a plain BM25 baseline (k1 1.2, b 0.75, lower-cased
alphanumeric tokens), each embedder alone (exact cosine), and reciprocal-rank fusion (k 60) of
BM25 with each embedder. Also the hash embedder's throughput and the HNSW index's recall
against exact search on hash vectors. Data is read in place from ../shared/data (never copied).

    .venv/bin/python bench/eval_embedders.py [--no-onnx] [--hash-dim 384]
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from common import ndcg_at

from ragixd.embed.hashing import feature_hash
from ragixd.embed.protocol import Embedder
from ragixd.embed.registry import make_embedder
from ragixd.errors import ConfigError
from ragixd.vectors.index import VectorIndex, exact_search

DATA = ROOT.parent / "shared" / "data"
LOCOMO = DATA / "locomo" / "locomo-dev.json"
BEIR = DATA / "beir-msmarco-5k"
RRF_K = 60
DEPTH = 100

Ranker = Callable[[str], list[int]]


# ---------------------------------------------------------------- data


def load_locomo() -> list[dict]:
    """Per conversation: item ids, item texts and the category 1-4 questions with evidence."""
    convs = []
    for sample in json.loads(LOCOMO.read_text()):
        conv = sample["conversation"]
        ids, texts = [], []
        for key in sorted(k for k in conv if re.fullmatch(r"session_\d+", k)):
            for turn in conv[key]:
                text = f"{turn['speaker']}: {turn['text']}"
                if turn.get("blip_caption"):
                    text += f" [image: {turn['blip_caption']}]"
                ids.append(turn["dia_id"])
                texts.append(text)
        questions = [
            (qa["question"], set(qa["evidence"]), qa["category"])
            for qa in sample["qa"]
            if qa["category"] in (1, 2, 3, 4) and qa.get("evidence")
        ]
        convs.append({"ids": ids, "texts": texts, "questions": questions})
    return convs


def _lines(path: Path) -> list[str]:
    # Split on newlines only: passages contain U+2028, which str.splitlines() would break on.
    return [line for line in path.read_text(encoding="utf-8").split("\n") if line.strip()]


def load_beir() -> tuple[list[str], list[str], list[tuple[str, str]], dict[str, dict[str, int]]]:
    doc_ids, docs = [], []
    for line in _lines(BEIR / "corpus.jsonl"):
        row = json.loads(line)
        doc_ids.append(row["_id"])
        docs.append(f"{row.get('title', '')} {row['text']}".strip())
    queries = [(row["_id"], row["text"]) for row in map(json.loads, _lines(BEIR / "queries.jsonl"))]
    qrels: dict[str, dict[str, int]] = defaultdict(dict)
    for line in _lines(BEIR / "test.tsv")[1:]:
        qid, did, rel = line.split("\t")
        qrels[qid][did] = int(rel)
    queries = [q for q in queries if q[0] in qrels]
    return doc_ids, docs, queries, qrels


# ---------------------------------------------------------------- rankers


def bm25_tokens(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


class BM25:
    """Okapi BM25 over an in-memory inverted index (the baseline the README quotes)."""

    def __init__(self, docs: list[str], k1: float = 1.2, b: float = 0.75) -> None:
        self.k1, self.b = k1, b
        self.postings: dict[str, list[tuple[int, int]]] = defaultdict(list)
        lengths = []
        for i, doc in enumerate(docs):
            toks = bm25_tokens(doc)
            lengths.append(len(toks))
            for term, tf in Counter(toks).items():
                self.postings[term].append((i, tf))
        self.n = len(docs)
        self.lengths = np.array(lengths, dtype=np.float64)
        self.avgdl = float(self.lengths.mean()) if self.n else 0.0

    def rank(self, query: str, k: int = DEPTH) -> list[int]:
        scores = np.zeros(self.n)
        for term in set(bm25_tokens(query)):
            plist = self.postings.get(term)
            if not plist:
                continue
            idf = math.log(1 + (self.n - len(plist) + 0.5) / (len(plist) + 0.5))
            rows = np.array([p[0] for p in plist])
            tf = np.array([p[1] for p in plist], dtype=np.float64)
            norm = self.k1 * (1 - self.b + self.b * self.lengths[rows] / self.avgdl)
            scores[rows] += idf * tf * (self.k1 + 1) / (tf + norm)
        top = np.argsort(-scores, kind="stable")[:k]
        return [int(i) for i in top if scores[i] > 0]


def dense_ranker(embedder: Embedder, docs: list[str]) -> Ranker:
    matrix = embed_all(embedder, docs)

    def rank(query: str) -> list[int]:
        qv = embedder.embed_batch([query])[0]
        return [key for key, _ in exact_search(matrix, qv, DEPTH)]

    return rank


def embed_all(embedder: Embedder, texts: list[str], batch: int = 256) -> np.ndarray:
    parts = [embedder.embed_batch(texts[i : i + batch]) for i in range(0, len(texts), batch)]
    return np.vstack(parts)


def rrf(*rankers: Ranker) -> Ranker:
    def rank(query: str) -> list[int]:
        scores: dict[int, float] = defaultdict(float)
        for ranker in rankers:
            for pos, doc in enumerate(ranker(query)):
                scores[doc] += 1.0 / (RRF_K + pos + 1)
        return sorted(scores, key=lambda d: -scores[d])[:DEPTH]

    return rank


# ---------------------------------------------------------------- metrics


def locomo_recall(
    convs: list[dict], make_rankers: Callable[[list[str]], dict[str, Ranker]]
) -> dict:
    hits: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for conv in convs:
        rankers = make_rankers(conv["texts"])
        for question, evidence, cat in conv["questions"]:
            for name, ranker in rankers.items():
                top = [conv["ids"][i] for i in ranker(question)]
                for k in (5, 10):
                    r = len(evidence & set(top[:k])) / len(evidence)
                    hits[name][f"R@{k}"].append(r)
                    hits[name][f"cat{cat}_R@{k}"].append(r)
    return {
        name: {m: round(float(np.mean(v)), 4) for m, v in sorted(metrics.items())}
        | {"questions": len(metrics["R@5"])}
        for name, metrics in hits.items()
    }


def beir_scores(beir, rankers: dict[str, Ranker]) -> dict:
    doc_ids, _, queries, qrels = beir
    out = {}
    for name, ranker in rankers.items():
        ndcg, rec = [], []
        for qid, text in queries:
            ranked = [doc_ids[i] for i in ranker(text)]
            rels = {d: r for d, r in qrels[qid].items() if r > 0}
            ndcg.append(ndcg_at(ranked, rels))
            rec.append(len(set(ranked[:100]) & set(rels)) / len(rels))
        out[name] = {
            "nDCG@10": round(float(np.mean(ndcg)), 4),
            "R@100": round(float(np.mean(rec)), 4),
        }
    return out


# ---------------------------------------------------------------- extras


def throughput(spec: dict, texts: list[str]) -> dict:
    """Texts per CPU-second (one core; immune to other load on the machine), cold then warm."""
    feature_hash.cache_clear()  # the n-gram hash cache is per process: make "cold" cold
    embedder = make_embedder(spec)
    rates = []
    for _ in ("cold", "warm"):
        start = time.process_time()
        embed_all(embedder, texts)
        rates.append(round(len(texts) / (time.process_time() - start)))
    return {"texts": len(texts), "cold_texts_per_cpu_s": rates[0], "warm_texts_per_cpu_s": rates[1]}


def hnsw_recall(embedder: Embedder, docs: list[str], queries: list[str], k: int = 10) -> dict:
    matrix = embed_all(embedder, docs)
    qmat = embed_all(embedder, queries)
    with tempfile.TemporaryDirectory() as tmp:
        index = VectorIndex(Path(tmp) / "bench.usearch", embedder.dimension)
        index.add(np.arange(len(docs)), matrix)
        found = []
        for qv in qmat:
            truth = {key for key, _ in exact_search(matrix, qv, k)}
            got = {key for key, _ in index.search(qv, k)}
            found.append(len(truth & got) / k)
    return {
        "docs": len(docs),
        "queries": len(queries),
        f"recall@{k}": round(float(np.mean(found)), 4),
    }


def available_embedders(args) -> dict[str, dict]:
    specs = {"hash": {"backend": "hash", "dimension": args.hash_dim}}
    if not args.no_onnx:
        try:
            make_embedder({"backend": "onnx"}).embed_batch(["probe"])
            specs["onnx"] = {"backend": "onnx"}
        except ConfigError as exc:
            print(f"onnx skipped: {exc}", file=sys.stderr)
    return specs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-onnx", action="store_true", help="skip the onnx embedder")
    parser.add_argument("--hash-dim", type=int, default=384)
    args = parser.parse_args()
    specs = available_embedders(args)
    embedders = {name: make_embedder(spec) for name, spec in specs.items()}

    def make_rankers(docs: list[str]) -> dict[str, Ranker]:
        bm25 = BM25(docs)
        rankers: dict[str, Ranker] = {"bm25": bm25.rank}
        for name, emb in embedders.items():
            rankers[name] = dense_ranker(emb, docs)
            rankers[f"rrf_bm25_{name}"] = rrf(bm25.rank, rankers[name])
        return rankers

    convs = load_locomo()
    beir = load_beir()
    result = {
        "models": {name: emb.model_name for name, emb in embedders.items()},
        "locomo": locomo_recall(convs, make_rankers),
        "beir_msmarco_5k": beir_scores(beir, make_rankers(beir[1])),
        "hash_throughput": {
            "locomo_turns": throughput(specs["hash"], [t for c in convs for t in c["texts"]]),
            "msmarco_passages": throughput(specs["hash"], beir[1]),
        },
        "hnsw_vs_exact_hash": hnsw_recall(embedders["hash"], beir[1], [q for _, q in beir[2]]),
    }
    print(json.dumps(result, indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
