"""The settler: one thread that follows the writer's commits with the work durability does not
need — bringing the vector indexes up to a group, then streaming its events on the PUB socket.

The writer hands each committed group over and goes straight on to the next one, so a write
never waits behind the previous group's index insertions (an HNSW insert costs ~0.5–1.5 ms,
as much as the commit itself). Groups are settled in commit order; several waiting groups are
settled in one pass. Queries that must see a write wait for it with min_seq, which counts the
vector index's seq. The thread owns the PUB socket: it opens it when it starts and closes it
when it ends.
"""

from __future__ import annotations

import queue
import threading
from typing import Any, Callable

from .logs import call_safely, get

log = get("ragixd.settler")

_STOP = object()


class Settler:
    def __init__(self, settle: Callable[[list[Any]], None],
                 on_settled: Callable[[list[Any]], None] | None = None,
                 on_start: Callable[[], None] | None = None,
                 on_exit: Callable[[], None] | None = None,
                 before: Callable[[], None] | None = None) -> None:
        self.settle = settle          # the groups' events, in commit order
        self.on_settled = on_settled  # then: e.g. publish them
        self.on_start = on_start
        self.on_exit = on_exit
        self.before = before          # first: e.g. let the loop thread send the answers on
        self._queue: queue.Queue = queue.Queue()
        self._idle = threading.Condition()
        self._pending = 0
        self._thread = threading.Thread(target=self._run, name="ragixd-settler", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def hand(self, events: list[Any]) -> None:
        """A committed group's events (called by the writer, after its answers)."""
        with self._idle:
            self._pending += 1
        self._queue.put(events)

    def drain(self, timeout: float = 60.0) -> bool:
        """Wait until every group handed over is settled (before the writer runs exclusive work
        such as a rebuild, which must not race a settle of the old rows)."""
        with self._idle:
            return self._idle.wait_for(lambda: self._pending == 0, timeout)

    def stop(self, timeout: float = 30.0) -> None:
        """Settle what was handed over, then end the thread."""
        self._queue.put(_STOP)
        self._thread.join(timeout)

    def _run(self) -> None:
        if self.on_start:
            self._safe(self.on_start)
        try:
            while True:
                first = self._queue.get()
                if first is _STOP:
                    return
                groups, stop = self._gather(first)
                self._settle(groups)
                if stop:
                    return
        finally:
            if self.on_exit:
                self._safe(self.on_exit)

    def _gather(self, first: list[Any]) -> tuple[list[list[Any]], bool]:
        groups = [first]
        while True:
            try:
                nxt = self._queue.get_nowait()
            except queue.Empty:
                return groups, False
            if nxt is _STOP:
                return groups, True
            groups.append(nxt)

    def _settle(self, groups: list[list[Any]]) -> None:
        events = [event for group in groups for event in group]
        try:
            if self.before:
                self._safe(self.before)
            if events:
                self._safe(self.settle, events)
                if self.on_settled:
                    self._safe(self.on_settled, events)
        finally:
            with self._idle:
                self._pending -= len(groups)
                self._idle.notify_all()

    @staticmethod
    def _safe(fn: Callable[..., Any], *args: Any) -> None:
        call_safely(log, "settler.callback_failed", fn, *args)
