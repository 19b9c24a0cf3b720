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

Leave-one-conversation-out (`--folds GRID`, GRID a JSON object of [recall] keys to lists of
values): LoCoMo only, every combination of the grid for every configuration; for each
conversation the combination with the best R@10 on the other three (question-weighted) is
chosen and its R@10 on the held-out one reported, per configuration and jointly (the best sum
over the configurations run), with each combination's per-conversation figures.

Noisy queries (`--typos SEED`, `--inflect SEED`; either or both, with any other option): each
query is rewritten before it is searched, as a hurried user would type it, deterministically
from the seed and the query's id (LoCoMo: conversation and question number; BEIR: query id),
with no list tied to a dataset. Typos: one or two words of at least 5 letters that are not stop
words (the embedder's English + French list) get one edit each, a swap of two adjacent
letters, the deletion of one or the doubling of one, never on the first letter. Inflection:
one such word of at least 4 letters, lower-case (not a name), not ending in -ing/-ed/-ly (a
crude "noun-like") has its plural toggled (-s/-es/-ies added or removed), before any typos.

Usage: python bench/bench_retrieval.py [--only locomo|beir] [--configs fts,hash-hybrid,...]
       python bench/bench_retrieval.py --folds '{"w_entity": [0, 0.2, 0.4]}' --configs hash-hybrid,onnx-hybrid
       python bench/bench_retrieval.py --typos 1 --configs fts,hash-hybrid
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import random
import re
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
from ragixd.embed.text import STOP_WORDS
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
# Query noise (--typos, --inflect): seeds, None for clean queries.
NOISE: dict[str, int | None] = {"typos": None, "inflect": None}
_WORD = re.compile(r"[^\W\d_]+")


def _rng(kind: str, seed: int, key: str) -> random.Random:
    digest = hashlib.sha256(f"{kind}:{seed}:{key}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "little"))


def _content_words(query: str, min_len: int) -> list[re.Match]:
    return [m for m in _WORD.finditer(query) if len(m.group()) >= min_len and m.group().lower() not in STOP_WORDS]


def _replace(query: str, match: re.Match, word: str) -> str:
    return query[:match.start()] + word + query[match.end():]


def _typo(word: str, rng: random.Random) -> str:
    """One edit, never on the first letter: swap two adjacent letters (differing ones), delete
    one, or double one."""
    swaps = [i for i in range(1, len(word) - 1) if word[i].lower() != word[i + 1].lower()]
    kinds = ["delete", "double"] + (["swap"] if swaps else [])
    kind = rng.choice(kinds)
    if kind == "swap":
        i = rng.choice(swaps)
        return word[:i] + word[i + 1] + word[i] + word[i + 2:]
    i = rng.randrange(1, len(word))
    return word[:i] + word[i + 1:] if kind == "delete" else word[:i] + word[i] + word[i:]


def _toggle_plural(word: str) -> str:
    lower = word.lower()
    if lower.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if lower.endswith(("sses", "shes", "ches", "xes")):
        return word[:-2]
    if lower.endswith("s") and not lower.endswith(("ss", "us", "is")):
        return word[:-1]
    if lower.endswith("y") and lower[-2] not in "aeiou":
        return word[:-1] + "ies"
    if lower.endswith(("s", "sh", "ch", "x", "z")):
        return word + "es"
    return word + "s"


def noisy(query: str, key: str) -> str:
    """The query as --typos / --inflect rewrite it (itself when neither is set); `key` names the
    query (its id), so every run of a seed rewrites it alike."""
    if NOISE["inflect"] is not None:
        rng = _rng("inflect", NOISE["inflect"], key)
        words = [m for m in _content_words(query, 4)
                 if m.group().islower() and not m.group().endswith(("ing", "ed", "ly"))]
        if words:
            m = rng.choice(words)
            query = _replace(query, m, _toggle_plural(m.group()))
    if NOISE["typos"] is not None:
        rng = _rng("typos", NOISE["typos"], key)
        words = _content_words(query, 5)
        if words:
            chosen = rng.sample(words, min(len(words), rng.choice((1, 2))))
            for m in sorted(chosen, key=lambda m: -m.start()):  # right to left: offsets hold
                query = _replace(query, m, _typo(m.group(), rng))
    return query


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


def _recalls(rows: list[tuple[float, float]]) -> dict:
    return {"n": len(rows), "recall@5": round(sum(r[0] for r in rows) / len(rows), 4),
            "recall@10": round(sum(r[1] for r in rows) / len(rows), 4)}


def run_locomo(config: str) -> dict:
    samples = json.loads((DATA / "locomo" / "locomo-dev.json").read_text())
    per_cat: dict[int, list[tuple[float, float]]] = defaultdict(list)
    per_conv: dict[str, list[tuple[float, float]]] = defaultdict(list)
    latencies = []
    for sample in samples:
        with searcher(config, locomo_items(sample)) as search:
            for number, qa in enumerate(sample["qa"]):
                if qa["category"] not in (1, 2, 3, 4) or not qa.get("evidence"):
                    continue
                query = noisy(qa["question"], f"{sample['sample_id']}:{number}")
                start = time.perf_counter()
                got = search(query, 10)
                latencies.append(time.perf_counter() - start)
                evidence = set(qa["evidence"])
                row = (len(evidence & set(got[:5])) / len(evidence), len(evidence & set(got[:10])) / len(evidence))
                per_cat[qa["category"]].append(row)
                per_conv[sample["sample_id"]].append(row)
    everything = [r for rows in per_cat.values() for r in rows]
    return {
        "questions": len(everything),
        "recall@5": round(sum(r[0] for r in everything) / len(everything), 4),
        "recall@10": round(sum(r[1] for r in everything) / len(everything), 4),
        "per_category": {str(cat): {"n": len(rows), "recall@5": round(sum(r[0] for r in rows) / len(rows), 4),
                                    "recall@10": round(sum(r[1] for r in rows) / len(rows), 4)}
                         for cat, rows in sorted(per_cat.items())},
        "per_conversation": {sid: _recalls(rows) for sid, rows in per_conv.items()},
        "search_ms_p50": round(sorted(latencies)[len(latencies) // 2] * 1000, 3),
    }


def held_out(runs: dict[str, dict[str, dict]]) -> dict:
    """Leave-one-conversation-out over `runs` ({label: per_conversation}, every label with the
    same conversations): for each conversation, the label whose R@10 on the others is best
    (question-weighted; ties to the first label) and its R@10 on that one; then the overall
    figure, question-weighted over the held-out conversations."""
    labels = list(runs)
    convs = list(runs[labels[0]])

    def others(label: str, held: str) -> float:
        rows = [runs[label][c] for c in convs if c != held]
        return sum(r["recall@10"] * r["n"] for r in rows) / sum(r["n"] for r in rows)

    folds = {}
    for held in convs:
        chosen = max(labels, key=lambda label: (others(label, held), -labels.index(label)))
        folds[held] = {"chosen": chosen, "recall@10": runs[chosen][held]["recall@10"], "n": runs[chosen][held]["n"]}
    overall = sum(f["recall@10"] * f["n"] for f in folds.values()) / sum(f["n"] for f in folds.values())
    return {"folds": folds, "recall@10": round(overall, 4)}


def run_folds(grid: dict[str, list], configs: list[str]) -> dict:
    """Every combination of `grid` (as [recall] overrides) for every configuration, on LoCoMo,
    with the leave-one-conversation-out choice per configuration and jointly."""
    keys = list(grid)
    combos = [dict(zip(keys, values)) for values in itertools.product(*(grid[k] for k in keys))]
    base = dict(RECALL)
    per: dict[str, dict[str, dict]] = {}
    for config in configs:
        per[config] = {}
        for combo in combos:
            label = json.dumps(combo, sort_keys=True)
            progress(f"folds {config} {label}")
            RECALL.clear()
            RECALL.update({**base, **combo})
            per[config][label] = run_locomo(config)["per_conversation"]
    RECALL.clear()
    RECALL.update(base)
    out: dict = {"grid": grid, "per_combination": per,
                 "held_out": {config: held_out(runs) for config, runs in per.items()}}
    if len(configs) > 1:  # one choice for every configuration: the best sum on the other three
        labels = list(per[configs[0]])
        convs = list(per[configs[0]][labels[0]])
        summed = {label: {c: {"n": per[configs[0]][label][c]["n"],
                              "recall@10": sum(per[cfg][label][c]["recall@10"] for cfg in configs)}
                          for c in convs} for label in labels}
        joint = held_out(summed)["folds"]
        out["held_out_joint"] = {}
        for config in configs:
            folds = {c: {"chosen": f["chosen"], "recall@10": per[config][f["chosen"]][c]["recall@10"], "n": f["n"]}
                     for c, f in joint.items()}
            overall = sum(f["recall@10"] * f["n"] for f in folds.values()) / sum(f["n"] for f in folds.values())
            out["held_out_joint"][config] = {"folds": folds, "recall@10": round(overall, 4)}
    return out


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
            got = search(noisy(queries[qid], qid), 100)
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
    ap.add_argument("--folds", metavar="GRID", help="leave-one-conversation-out on LoCoMo over a JSON grid of "
                    "[recall] settings, e.g. '{\"w_entity\": [0, 0.4]}' (ragix configurations only)")
    ap.add_argument("--typos", metavar="SEED", type=int, help="search every query with one or two typos: "
                    "words of >= 5 letters, not stop words, one edit each (adjacent swap, deletion or "
                    "doubling of a letter, never the first), chosen by a RNG keyed on SEED and the query id")
    ap.add_argument("--inflect", metavar="SEED", type=int, help="search every query with the plural of one "
                    "noun-like word toggled (>= 4 letters, lower-case, not a stop word, not -ing/-ed/-ly; "
                    "-s/-es/-ies added or removed), chosen as --typos does; before the typos when both")
    args = ap.parse_args()
    RECALL.update(json.loads(args.recall))
    NOISE.update(typos=args.typos, inflect=args.inflect)
    configs = [name for name in args.configs.split(",") if name]
    unknown = [name for name in configs if name not in (*BASELINES, *CONFIGS)]
    if unknown:
        ap.error(f"unknown configuration {', '.join(unknown)}; known: {', '.join([*BASELINES, *CONFIGS])}")
    have_onnx = onnx_available()
    if args.folds:
        grid = json.loads(args.folds)
        if not isinstance(grid, dict) or not all(isinstance(v, list) and v for v in grid.values()):
            ap.error("--folds takes a JSON object of [recall] keys to non-empty lists of values")
        configs = [name for name in configs if name in CONFIGS and (have_onnx or not name.startswith("onnx"))]
        emit({"bench": "retrieval-folds", "onnx_available": have_onnx, "recall_overrides": RECALL, "query_noise": NOISE,
              **run_folds(grid, configs)})
        return
    result: dict = {"bench": "retrieval", "onnx_available": have_onnx, "recall_overrides": RECALL,
                    "query_noise": NOISE, "locomo": {}, "beir": {}}
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
