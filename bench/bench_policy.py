"""Benchmark of the write policy (issue: policy). Prints one JSON object.

In one run, on the labelled sample corpus ../shared/data/policy/dev.jsonl (relative to the
project root):
- per label and kind: share of texts the policy blocks (detection rate for secrets and
  injections, false-positive rate for benign texts), overall block rates and benign FP rate;
- check time in microseconds per kB of text (CPU time, median over several passes, each
  pass starting with the policy's memo caches empty, as a first pass would), for the
  default policy, the exhaustive policy (every rule evaluated) and the baseline, on the corpus
  as it is (short texts) and on the same text cut into ~2 kB items;
- with the native prefilter, the floor: its databases scanned once over each text, no rule read
  in Python (`native_scan_only_us_per_kb`), what a check of these rules costs at the least;
- side by side, a plain baseline: the seeds' naive rules (9 secret and 8 injection regexes);
- with the native prefilter (hyperscan) installed, the same figures for the pure-Python gates
  alone (`pure_python`), measured in the same run, so that the two compare on one load;
- benign prose, the common case on the write path: check time on MS MARCO passages
  (../shared/data/beir-msmarco-5k/corpus.jsonl, ~350 bytes each), and `Policy.evaluate` on
  whole items built from them (content, title, tags, provenance, type, tier, scope, why_store),
  per item and per kB of item text, the policy's memo of clean short values emptied each pass;
- false positives beyond the labelled sample: how many of the 5,000 MS MARCO passages and of
  LoCoMo's dialogue turns (../shared/data/locomo/locomo-dev.json; public text, all benign) the
  policy and the baseline refuse, and which rules fired (rules written against shapes should
  leave these alone).

Usage: python bench/bench_policy.py [--runs 7]
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from ragixd.domain.policy import Policy, PolicyConfig  # noqa: E402
from ragixd.domain.policy.scan import RuleIndex  # noqa: E402

DEV = ROOT / ".." / "shared" / "data" / "policy" / "dev.jsonl"
PROSE = ROOT / ".." / "shared" / "data" / "beir-msmarco-5k" / "corpus.jsonl"
PROSE_TEXTS = 2000
LOCOMO = ROOT / ".." / "shared" / "data" / "locomo" / "locomo-dev.json"

# The seeds' policy as described there: 9 secret patterns, 8 injection patterns.
BASELINE_SECRETS = [re.compile(p) for p in (
    r"-----BEGIN [A-Z ]*PRIVATE KEY-----",
    r"(?i)(?:api[_-]?key|apikey|secret[_-]?key)\s*[:=]\s*['\"]?[A-Za-z0-9_\-]{16,}",
    r"eyJ[A-Za-z0-9_\-]+\.eyJ[A-Za-z0-9_\-]+\.[A-Za-z0-9_\-]+",
    r"gh[pousr]_[A-Za-z0-9]{36,}",
    r"AKIA[0-9A-Z]{16}",
    r"(?i)aws_secret_access_key\s*[:=]\s*['\"]?[A-Za-z0-9/+=]{40}",
    r"sk-[A-Za-z0-9]{20,}",
    r"xox[abprs]-[A-Za-z0-9\-]{10,}",
    r"[A-Za-z0-9+/]{60,}={0,2}",
)]
BASELINE_INJECTIONS = [re.compile(p, re.IGNORECASE) for p in (
    r"ignore (?:all )?(?:previous|prior|above) instructions",
    r"disregard (?:all )?(?:previous|prior|above)",
    r"forget (?:all )?(?:previous|your) instructions",
    r"you are now",
    r"<\s*/?\s*system\s*>",
    r"\[/?INST\]",
    r"new instructions:",
    r"store this prompt",
)]


def baseline_blocks(text: str) -> bool:
    return any(p.search(text) for p in BASELINE_SECRETS) or any(p.search(text) for p in BASELINE_INJECTIONS)


def kind_of(row: dict) -> str:
    return "api_token" if row["kind"].startswith("api_token:") else row["kind"]


def quality(rows: list[dict], blocks: Callable[[str], bool]) -> dict:
    per_kind: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    per_label: Counter[tuple[str, bool]] = Counter()
    for row in rows:
        blocked = blocks(row["text"])
        per_kind[(row["label"], kind_of(row))][0] += blocked
        per_kind[(row["label"], kind_of(row))][1] += 1
        per_label[(row["label"], blocked)] += 1

    def rate(label: str) -> float:
        total = per_label[(label, True)] + per_label[(label, False)]
        return round(per_label[(label, True)] / total, 4) if total else 0.0

    kinds = {}
    for (label, kind), (hit, n) in sorted(per_kind.items()):
        name = "false_positive_rate" if label == "benign" else "detection_rate"
        kinds[f"{label}/{kind}"] = {name: round(hit / n, 4), "n": n}
    return {"secret_block_rate": rate("secret"), "injection_block_rate": rate("injection"),
            "benign_fp_rate": rate("benign"), "per_kind": kinds}


def clear_policy_caches() -> None:
    """Empty the policy's memo caches (functools caches in its modules), so that every timed
    pass is a first pass: checking the very same texts again would otherwise be answered
    partly from a cache, which no real stream of writes is."""
    for name, module in list(sys.modules.items()):
        if name.startswith("ragixd.domain.policy") and module is not None:
            for value in list(vars(module).values()):
                if callable(getattr(value, "cache_clear", None)):
                    value.cache_clear()


def us_per_kb(texts: list[str], check: Callable[[str], object], runs: int) -> float:
    kb = sum(len(t.encode("utf-8")) for t in texts) / 1024
    for text in texts:  # untimed: a process's first pass compiles what the daemon builds at start
        check(text)
    samples = []
    for _ in range(runs):
        clear_policy_caches()
        start = time.process_time()
        for text in texts:
            check(text)
        samples.append((time.process_time() - start) / kb * 1e6)
    return round(statistics.median(samples), 1)


def prose_items(texts: list[str]) -> list[dict]:
    """Items as a client writes them: the passage as content, fields around it that vary
    (title, source id, reason) and fields drawn from small vocabularies, as in real writes."""
    kinds, tiers, tags = ("note", "fact", "reference"), ("stm", "mtm"), ("health", "science", "travel", "history")
    return [{"title": " ".join(t.split()[:8]), "content": t, "type": kinds[i % 3], "tier": tiers[i % 2],
             "scope": "personal", "tags": [tags[i % 4], tags[(i + 1) % 4]], "entities": t.split()[:2],
             "provenance": {"source_id": f"chat:session-{i // 10}", "source_kind": "chat"},
             "why_store": f"answers a question about {' '.join(t.split()[1:4])}"} for i, t in enumerate(texts)]


def item_bytes(item: dict) -> int:
    total = 0
    for value in item.values():
        if isinstance(value, str):
            total += len(value.encode("utf-8"))
        elif isinstance(value, dict):
            total += item_bytes(value)
        elif isinstance(value, list):
            total += sum(len(v.encode("utf-8")) for v in value)
    return total


def evaluate_timing(policy: Policy, items: list[dict], runs: int) -> dict:
    samples = []
    for _ in range(runs):
        clear_policy_caches()
        policy.clear_memo()
        start = time.process_time()
        for item in items:
            policy.evaluate(item)
        samples.append(time.process_time() - start)
    best = statistics.median(samples)
    kb = sum(item_bytes(i) for i in items) / 1024
    return {"evaluate_us_per_item": round(best / len(items) * 1e6, 1),
            "evaluate_us_per_kb": round(best / kb * 1e6, 1), "items": len(items),
            "item_bytes_mean": round(kb * 1024 / len(items))}


def chunked(texts: list[str], size: int = 2048) -> list[str]:
    out, current = [], ""
    for text in texts:
        current = f"{current}\n\n{text}" if current else text
        if len(current) >= size:
            out.append(current[:3000])
            current = ""
    return out + ([current] if current else [])


def unlabelled_benign(policy: Policy) -> dict:
    """Refusals on public benign text outside the labelled sample, for the policy and the
    baseline, with the rules that fired."""
    sets: dict[str, list[str]] = {}
    if PROSE.exists():
        sets["msmarco_passages"] = [json.loads(line)["text"]
                                    for line in PROSE.read_text(encoding="utf-8").split("\n") if line.strip()]
    if LOCOMO.exists():
        turns = []
        for conv in json.loads(LOCOMO.read_text(encoding="utf-8")):
            for key, session in conv["conversation"].items():
                if key.startswith("session_") and isinstance(session, list):
                    turns += [f"{t['speaker']}: {t['text']}" for t in session]
        sets["locomo_turns"] = turns
    out = {}
    for name, texts in sets.items():
        fired: Counter = Counter()
        blocked = 0
        for text in texts:
            verdict = policy.check_text(text)
            if verdict.rejected:
                blocked += 1
                fired.update(verdict.rule_ids)
        out[name] = {"texts": len(texts), "policy_blocked": blocked, "rules": dict(fired),
                     "baseline_blocked": sum(baseline_blocks(t) for t in texts)}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="timing passes; the median is reported")
    args = parser.parse_args()
    if not DEV.exists():
        print(json.dumps({"error": f"no corpus at {DEV.resolve()}"}))
        sys.exit(1)
    rows = [json.loads(line) for line in DEV.read_text(encoding="utf-8").splitlines() if line.strip()]
    policy = Policy()
    exhaustive = Policy(PolicyConfig(exhaustive=True))
    texts = [r["text"] for r in rows]
    items = chunked(texts)
    by_label = {label: [r["text"] for r in rows if r["label"] == label] for label in ("secret", "injection", "benign")}

    timing = {
        "policy_us_per_kb": us_per_kb(texts, policy.check_text, args.runs),
        "policy_exhaustive_us_per_kb": us_per_kb(texts, exhaustive.check_text, args.runs),
        "baseline_us_per_kb": us_per_kb(texts, baseline_blocks, args.runs),
        "policy_us_per_kb_2kb_items": us_per_kb(items, policy.check_text, args.runs),
        "baseline_us_per_kb_2kb_items": us_per_kb(items, baseline_blocks, args.runs),
        "policy_us_per_kb_by_label": {k: us_per_kb(v, policy.check_text, args.runs) for k, v in by_label.items()},
        "target_us_per_kb": 50,
        "clock": "process CPU time, median of passes, policy caches emptied before each pass",
    }
    if PROSE.exists():
        lines = [line for line in PROSE.read_text(encoding="utf-8").split("\n") if line.strip()]
        prose = [json.loads(line)["text"] for line in lines[:PROSE_TEXTS]]
        timing["benign_prose_us_per_kb"] = us_per_kb(prose, policy.check_text, args.runs)
        timing["benign_prose"] = {"path": "../shared/data/beir-msmarco-5k/corpus.jsonl", "texts": len(prose),
                                  "bytes_mean": round(sum(len(t.encode("utf-8")) for t in prose) / len(prose))}
        timing["write_path"] = evaluate_timing(policy, prose_items(prose[:1000]), args.runs)
    if policy._index.native is not None:
        # The least a check of these rules can cost: the native databases (gate literals and
        # every rule's pattern) scanned once over the text as it is, no view made, no rule read.
        native = policy._index.native
        timing["native_scan_only_us_per_kb"] = us_per_kb(
            texts, lambda t: native.scan("ascii" if t.isascii() else "text", t), args.runs)
        pure = Policy()
        pure._index = RuleIndex(pure.rules, native=False)
        timing["pure_python"] = {
            "policy_us_per_kb": us_per_kb(texts, pure.check_text, args.runs),
            "policy_us_per_kb_by_label": {k: us_per_kb(v, pure.check_text, args.runs) for k, v in by_label.items()},
        }
        if PROSE.exists():
            timing["pure_python"]["benign_prose_us_per_kb"] = us_per_kb(prose, pure.check_text, args.runs)
            timing["pure_python"]["write_path"] = evaluate_timing(pure, prose_items(prose[:1000]), args.runs)
    timing["native_prefilter"] = policy._index.native is not None
    result = {
        "corpus": {"path": "../shared/data/policy/dev.jsonl", "texts": len(rows),
                   "kb": round(sum(len(t.encode("utf-8")) for t in texts) / 1024, 1),
                   "labels": dict(Counter(r["label"] for r in rows)), "items_2kb": len(items)},
        "policy": quality(rows, lambda t: policy.check_text(t).rejected),
        "baseline": quality(rows, baseline_blocks),
        "unlabelled_benign": unlabelled_benign(policy),
        "timing": timing,
        "rules": {"secret": sum(r.kind == "secret" for r in policy.rules),
                  "injection": sum(r.kind == "injection" for r in policy.rules)},
    }
    got = result["policy"]
    result["targets"] = {
        "secrets_blocked_ge_95pct": got["secret_block_rate"] >= 0.95,
        "injections_blocked_ge_90pct": got["injection_block_rate"] >= 0.90,
        "benign_blocked_le_2pct": got["benign_fp_rate"] <= 0.02,
        "check_le_50_us_per_kb": timing["policy_us_per_kb"] <= 50,
    }
    json.dump(result, sys.stdout, indent=2)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
