"""Work taken in turn from each client: a client that queues many jobs delays its own, not
everyone's. Each client's jobs keep their order. The reader pool takes its queries from one,
the writer its commands (ragixd/readers.py, ragixd/writer.py)."""

from __future__ import annotations

import queue
import threading
from collections import OrderedDict, deque
from typing import Any, Callable, Hashable


class FairQueue:
    """Jobs by owner; `get` takes the oldest job of the owner whose turn it is, then moves that
    owner to the back of the line. Thread-safe."""

    def __init__(self) -> None:
        self._jobs: OrderedDict[Hashable, deque[Any]] = OrderedDict()
        self._ready = threading.Condition()
        self._waiting = 0  # takers blocked in get(wait=True), with nothing of theirs in hand

    def put(self, owner: Hashable, job: Any) -> None:
        with self._ready:
            self._queue_of(owner).append(job)
            self._ready.notify()

    def put_front(self, owner: Hashable, job: Any) -> None:
        """Put a job back first among its owner's (the rest of one just taken): the owner keeps
        its place in the line, or joins at the back."""
        with self._ready:
            self._queue_of(owner).appendleft(job)
            self._ready.notify()

    def _queue_of(self, owner: Hashable) -> deque[Any]:
        jobs = self._jobs.get(owner)
        if jobs is None:
            jobs = self._jobs[owner] = deque()
        return jobs

    def get(self, wait: bool = False, fits: Callable[[Any], bool] | None = None) -> Any:
        """The next job in turn; with wait, block until there is one, else raise queue.Empty.
        With `fits`, the first owner in turn whose next job fits: the owners passed over keep
        their place at the front of the line (queue.Empty if no job fits)."""
        with self._ready:
            if wait and not self._jobs:
                self._waiting += 1
                try:
                    self._ready.wait_for(lambda: self._jobs)
                finally:
                    self._waiting -= 1
            for owner, jobs in self._jobs.items():
                if fits is None or fits(jobs[0]):
                    break
            else:
                raise queue.Empty
            job = jobs.popleft()
            if jobs:
                self._jobs.move_to_end(owner)
            else:
                del self._jobs[owner]
            return job

    def idle(self) -> bool:
        """Whether no job is queued and a taker is blocked waiting for one (so it holds none
        it took before: it waits only between jobs)."""
        with self._ready:
            return not self._jobs and self._waiting > 0

    def has_others(self, owner: Hashable) -> bool:
        """Whether a job of another owner is waiting."""
        with self._ready:
            return any(other != owner for other in self._jobs)

    def __len__(self) -> int:
        with self._ready:
            return sum(len(q) for q in self._jobs.values())
