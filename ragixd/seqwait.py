"""Queries parked until the projections reach their min_seq, on one thread of their own.

A query whose min_seq is not applied yet is handed here instead of waiting on a reader: a
client asking for a seq that no write reaches (a seq of another home, a stale one after a
restore) held a reader for the whole min_seq time-out, and four such queries held them all,
every other client's search and stats waiting behind them. One thread watches every parked
query and hands each back when its seq is reached, or when its time is up. It never runs a
query itself, and holds no store lock.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from .logs import call_safely, get

log = get("ragixd.seqwait")

# How long one wait lasts at most before the waiter looks at deadlines and back-fills again.
STEP_S = 0.05


class SeqWaiter:
    def __init__(self, applied: Callable[[], int], wait: Callable[[int, float], None],
                 ready: Callable[[Any], None], expired: Callable[[Any], None]) -> None:
        """applied() is the seq reached; wait(seq, timeout) returns when it may have moved;
        ready(job) and expired(job) are called on the waiter's thread."""
        self._applied, self._wait, self._ready, self._expired = applied, wait, ready, expired
        self._parked: list[tuple[int, float, Any]] = []  # (min_seq, deadline, job)
        self._cond = threading.Condition()
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name="ragixd-seqwait", daemon=True)
        self._thread.start()

    def park(self, seq: int, timeout_s: float, job: Any) -> bool:
        """Hold `job` until seq is applied or timeout_s has passed; False once stopped."""
        with self._cond:
            if self._stopping:
                return False
            self._parked.append((seq, time.monotonic() + timeout_s, job))
            self._cond.notify()
        return True

    def stop(self) -> list[Any]:
        """Stop watching; the jobs still parked, for the caller to answer."""
        with self._cond:
            self._stopping = True
            self._cond.notify()
        self._thread.join(10)
        with self._cond:
            left, self._parked = [job for _, _, job in self._parked], []
        return left

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._parked and not self._stopping:
                    self._cond.wait()
                if self._stopping:
                    return
                lowest = min(seq for seq, _, _ in self._parked)
                nearest = min(deadline for _, deadline, _ in self._parked)
            self._wait(lowest, max(0.0, min(STEP_S, nearest - time.monotonic())))
            self._release()

    def _release(self) -> None:
        applied, now = self._applied(), time.monotonic()
        with self._cond:
            ready = [job for seq, _, job in self._parked if seq <= applied]
            expired = [job for seq, deadline, job in self._parked if seq > applied and deadline <= now]
            self._parked = [p for p in self._parked if p[0] > applied and p[1] > now]
        for job in ready:
            call_safely(log, "seqwait.ready_failed", self._ready, job)
        for job in expired:
            call_safely(log, "seqwait.expired_failed", self._expired, job)
