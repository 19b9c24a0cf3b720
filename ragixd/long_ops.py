"""Progress of the daemon's long ops (rebuild, verify): what `status` shows while one runs, the
log line every few seconds, and the busy answer a query gets while a rebuild holds the store.

A stop is noticed at the op's next report, between its batches (after a commit), so it need not
wait out a long replay or check: the report raises Busy there, leaving the store as a crash at
that point would (the next start completes a rebuild left undone)."""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager
from typing import Any, Callable, Iterator

from .errors import Busy
from .logs import get

log = get("ragixd.long_ops")
PROGRESS_LOG_S = 5.0
# What a long op's progress counts, by phase (a rebuild's full-text index counts items).
PHASE_UNITS = {"index": "items"}

Report = Callable[[str, int, int], None]  # (phase, done, total)


class LongOps:
    def __init__(self, stopping: threading.Event) -> None:
        self.stopping = stopping
        self.work: dict[str, dict[str, Any]] = {}  # op -> its last progress

    def under_way(self) -> list[dict[str, Any]]:
        return list(self.work.values())

    @contextmanager
    def tracked(self, op: str, total: int) -> Iterator[Report]:
        """Progress of `op` while the block runs: the report it yields is called between batches."""
        started = time.monotonic()
        logged = [started]

        def report(phase: str, done: int, total: int) -> None:
            if self.stopping.is_set():
                again = " (the next start completes what it left undone)" if op == "rebuild" else ""
                raise Busy(f"the daemon is stopping: the {op} stopped in its {phase} phase, at "
                           f"{done:,} of {total:,}{again}", op=op, phase=phase, done=done, total=total)
            now = time.monotonic()
            self.work[op] = {"op": op, "phase": phase, "done": done, "total": total,
                             "unit": PHASE_UNITS.get(phase, "events"), "elapsed_s": round(now - started, 1)}
            if now - logged[0] >= PROGRESS_LOG_S:
                logged[0] = now
                log.info("work.progress", **self.work[op])
        report("start", 0, total)
        try:
            yield report
        finally:
            self.work.pop(op, None)

    def busy_rebuilding(self) -> Busy:
        """The answer to a query that found a rebuild running: busy, with how far it is."""
        work = self.work.get("rebuild")
        if not work:
            return Busy("a rebuild holds the store; try again when it is done")
        done, total = work.get("done", 0), work.get("total", 0)
        where = (f"{work.get('phase')} {done:,}/{total:,} {work.get('unit', 'events')}" if total
                 else str(work.get("phase")))
        return Busy(f"a rebuild holds the store ({where}, {work.get('elapsed_s')} s so far); "
                    "try again when it is done", rebuild=work)
