"""Crash loop: kill -9 the daemon at random moments during a stream of writes, again and again.

Each round starts ragixd on the same home, checks that every write acknowledged so far
(answered with status "created") reads back with its own title, that the log verifies and
that the projections equal a replay (the daemon's verify), then lets several clients write
(threads, a Client each, one write at a time) and kills the daemon with SIGKILL after a
random delay. A last restart checks the final round. Prints one JSON object.

Usage: python bench/crash_loop.py [--rounds 20] [--clients 4] [--max-delay 0.4] [--home DIR]
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(ROOT / "tests"))
from common import emit, progress
from ragix_client import Client
from support.daemon import Daemon

from ragixd.errors import RagixError

READ_BATCH = 500


class Ledger:
    """What the clients were told: acknowledged writes, and requests left without an answer."""

    def __init__(self) -> None:
        self.acked: dict[str, str] = {}
        self.unanswered = 0
        self.refused: list[str] = []
        self.lock = threading.Lock()

    def ack(self, item_id: str, title: str) -> None:
        with self.lock:
            self.acked[item_id] = title


def writer(endpoint: str, round_no: int, client_no: int, ledger: Ledger, stop: threading.Event,
           timeout: float) -> None:
    client = Client(endpoint, timeout=timeout)
    n = 0
    try:
        while not stop.is_set():
            title = f"crash r{round_no} c{client_no} n{n}"
            try:
                answer = client.write(title=title, content=f"round {round_no} client {client_no} write {n}",
                                      tags=[f"r{round_no}"])
            except RagixError as err:
                # No answer (daemon killed, or too slow): the write may or may not have landed.
                with ledger.lock:
                    if err.code in ("timeout", "unavailable"):
                        ledger.unanswered += 1
                    else:
                        ledger.refused.append(f"{err.code}: {err.message}")
                continue
            finally:
                n += 1
            if answer.get("status") == "created":
                ledger.ack(answer["id"], title)
    finally:
        client.close()


def check(daemon: Daemon, ledger: Ledger) -> dict[str, Any]:
    """Every acknowledged write is there with its own title; the log and projections verify."""
    client = daemon.client(timeout=60)
    try:
        ids = sorted(ledger.acked)
        lost = []
        for start in range(0, len(ids), READ_BATCH):
            batch = ids[start:start + READ_BATCH]
            found = {i["id"]: i["title"] for i in client.read(*batch)["items"]}
            lost += [i for i in batch if found.get(i) != ledger.acked[i]]
        report = client.verify()
        items = client.stats()["items"]
    finally:
        client.close()
    return {"lost": lost, "verify_ok": bool(report.get("ok")), "chain_ok": bool(report.get("chain_ok")),
            "mismatched_tables": report.get("mismatched_tables", []), "items": items}


def crash_round(daemon: Daemon, round_no: int, clients: int, delay: float, ledger: Ledger,
                timeout: float) -> None:
    stop = threading.Event()
    threads = [threading.Thread(target=writer, args=(daemon.endpoint, round_no, c, ledger, stop, timeout))
               for c in range(clients)]
    for t in threads:
        t.start()
    time.sleep(delay)  # the random moment of the crash
    daemon.kill()
    stop.set()
    for t in threads:
        t.join(30)


def run(rounds: int = 20, clients: int = 4, max_delay: float = 0.4, home: Path | None = None,
        seed: int | None = None, timeout: float = 0.5) -> dict[str, Any]:
    """Run the loop; return the JSON-ready summary (lost must be 0, verify ok every round)."""
    seed = random.randrange(1 << 30) if seed is None else seed
    rng = random.Random(seed)
    tmp = None
    if home is None:
        tmp = tempfile.TemporaryDirectory(prefix="ragix-crash-")
        home = Path(tmp.name) / "home"
    daemon = Daemon(home)
    ledger = Ledger()
    per_round = []
    start = time.perf_counter()
    try:
        for round_no in range(rounds + 1):
            daemon.start(timeout=30)
            result = check(daemon, ledger)
            result.update(round=round_no, acknowledged=len(ledger.acked))
            per_round.append(result)
            progress(f"round {round_no}: {len(ledger.acked)} acknowledged, lost {len(result['lost'])}, "
                     f"verify {result['verify_ok']}")
            if round_no == rounds:
                daemon.stop()
                break
            crash_round(daemon, round_no, clients, rng.uniform(0.0, max_delay), ledger, timeout)
    finally:
        daemon.kill()
        if tmp is not None:
            tmp.cleanup()
    lost = sorted({i for r in per_round for i in r["lost"]})
    return {
        "rounds": rounds, "clients": clients, "seed": seed, "max_delay_s": max_delay,
        "acknowledged_writes": len(ledger.acked), "unanswered_writes": ledger.unanswered,
        "refused_writes": len(ledger.refused), "refusals": ledger.refused[:5],
        "items_after": per_round[-1]["items"], "lost": len(lost), "lost_ids": lost[:20],
        "verify_ok_rounds": sum(r["verify_ok"] for r in per_round), "checks": len(per_round),
        "all_verify_ok": all(r["verify_ok"] for r in per_round),
        "seconds": round(time.perf_counter() - start, 2),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--clients", type=int, default=4)
    ap.add_argument("--max-delay", type=float, default=0.4, help="longest wait before the kill (s)")
    ap.add_argument("--home", type=Path, help="data directory to crash (default: a fresh temp dir)")
    ap.add_argument("--seed", type=int)
    ns = ap.parse_args(argv)
    result = run(ns.rounds, ns.clients, ns.max_delay, ns.home, ns.seed)
    emit(result)
    return 0 if result["lost"] == 0 and result["all_verify_ok"] and not result["refused_writes"] else 1


if __name__ == "__main__":
    sys.exit(main())
