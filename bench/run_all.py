"""Run every benchmark, one after another, and print one JSON object: each benchmark's
targets (met or not), its exit status, its time, and where its full JSON was written.

Each benchmark runs as its own process (as a user would run it), its JSON saved to
bench/out/<name>.json and its progress lines to bench/out/<name>.log. With `--quick`, every
benchmark runs at a small size (minutes in all: a check that they run and a first look, not
the figures the README records); without it, at the sizes the README quotes (hours on two
cores: 100k-item stores, 1M-event replay, 100k and 1M vectors).

Usage: python bench/run_all.py [--quick] [--only store,daemon,...]
       make bench            (the full run)
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
OUT = HERE / "out"

# name -> (script, full-size arguments, quick arguments)
BENCHES: dict[str, tuple[str, list[str], list[str]]] = {
    "store": ("bench_store.py", [], ["--items", "5000", "--rebuild-events", "20000", "--single", "100",
                                     "--queries", "100"]),
    "daemon": ("bench_daemon.py", [], ["--items", "5000", "--n", "300", "--writes", "200", "--warmup", "200",
                                       "--seconds", "1", "--queries", "100"]),
    "policy": ("bench_policy.py", [], ["--runs", "2"]),
    "retrieval": ("bench_retrieval.py", [], ["--only", "locomo", "--configs", "bm25-plain,fts,hash-hybrid"]),
    "vectors": ("bench_vectors.py", [], ["--quick"]),
    "vector_dtypes": ("bench_vector_dtypes.py", [], ["--quick"]),
}


def run(name: str, quick: bool) -> dict[str, Any]:
    script, full, small = BENCHES[name]
    out_json, out_log = OUT / f"{name}.json", OUT / f"{name}.log"
    print(f"[{name}] running {script}{' (quick)' if quick else ''}; progress in {out_log}", file=sys.stderr,
          flush=True)
    start = time.monotonic()
    with out_json.open("w") as stdout, out_log.open("w") as stderr:
        code = subprocess.call([sys.executable, str(HERE / script), *(small if quick else full)],
                               stdout=stdout, stderr=stderr)
    took = round(time.monotonic() - start, 1)
    entry: dict[str, Any] = {"exit_code": code, "seconds": took, "json": str(out_json)}
    try:
        result = json.loads(out_json.read_text())
        entry["targets"] = result.get("targets", {})
    except (OSError, ValueError):
        entry["error"] = f"no JSON output; see {out_log}"
    print(f"[{name}] done in {took} s, exit code {code}", file=sys.stderr, flush=True)
    return entry


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="every benchmark at a small size (minutes)")
    ap.add_argument("--only", default=",".join(BENCHES),
                    help=f"comma-separated subset of: {', '.join(BENCHES)}")
    args = ap.parse_args()
    names = [n for n in args.only.split(",") if n]
    unknown = [n for n in names if n not in BENCHES]
    if unknown:
        ap.error(f"unknown benchmark(s): {', '.join(unknown)}; choose from {', '.join(BENCHES)}")
    OUT.mkdir(exist_ok=True)
    results = {name: run(name, args.quick) for name in names}
    json.dump({"bench": "all", "quick": args.quick, "results": results}, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0 if all(r["exit_code"] == 0 for r in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
