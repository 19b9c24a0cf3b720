"""Work for the reader pool, taken in turn from each client: a client that queues many slow
queries delays its own, not everyone's. Each client's jobs keep their order."""

from __future__ import annotations

import threading
from collections import OrderedDict, deque
from typing import Any, Hashable


class FairQueue:
    """Jobs by owner; `get` takes the oldest job of the owner whose turn it is, then moves that
    owner to the back of the line. Thread-safe. `get` is only called once per `put` (the pool
    runs one taker per job put), so it never waits."""

    def __init__(self) -> None:
        self._jobs: OrderedDict[Hashable, deque[Any]] = OrderedDict()
        self._lock = threading.Lock()

    def put(self, owner: Hashable, job: Any) -> None:
        with self._lock:
            queue = self._jobs.get(owner)
            if queue is None:
                queue = self._jobs[owner] = deque()
            queue.append(job)

    def get(self) -> Any:
        with self._lock:
            owner, queue = next(iter(self._jobs.items()))
            job = queue.popleft()
            if queue:
                self._jobs.move_to_end(owner)
            else:
                del self._jobs[owner]
            return job

    def __len__(self) -> int:
        with self._lock:
            return sum(len(q) for q in self._jobs.values())
