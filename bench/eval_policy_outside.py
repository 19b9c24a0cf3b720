"""Write-policy quality on labelled texts outside the development sample. Prints one JSON object.

Reads one or more JSONL files with the dev corpus's schema (text, label ∈ secret/injection/benign,
kind, source) and reports, per file, what `bench_policy.py` reports for the dev corpus: the share
of each label and kind the policy refuses (detection for secrets and injections, false positives
for benign texts) and, with `--misses`, the texts it gets wrong with the rules that fired. The
files are public third-party text and are not shipped: docs/policy-history.md, "Outside the
sample (session 14)", says where they come from and how they were assembled.

Usage: python bench/eval_policy_outside.py PATH [PATH ...] [--misses]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
from bench_policy import quality  # noqa: E402
from ragixd.domain.policy import Policy  # noqa: E402


def load(path: Path) -> list[dict]:
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def misses(policy: Policy, rows: list[dict]) -> list[dict]:
    """Injections and secrets accepted, benign texts refused, with the rules that fired."""
    out = []
    for row in rows:
        verdict = policy.check_text(row["text"])
        if verdict.rejected == (row["label"] == "benign"):
            out.append({"label": row["label"], "kind": row["kind"], "rules": list(verdict.rule_ids),
                        "text": row["text"][:300]})
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+", type=Path)
    parser.add_argument("--misses", action="store_true", help="list the texts the policy gets wrong")
    args = parser.parse_args()
    policy = Policy()
    report = {}
    for path in args.paths:
        rows = load(path)
        entry = {"texts": len(rows), **quality(rows, lambda t: policy.check_text(t).rejected)}
        if args.misses:
            entry["misses"] = misses(policy, rows)
        report[str(path)] = entry
    print(json.dumps(report, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
