"""The reader pool: threads that run queries and slow admin work off the loop thread.

Owns the threads, the fair queue they take work from (each client in turn, each client's jobs
in order), and the count of jobs open and done that `status` shows. A job counts as done when
its answer is handed over (or it ends without one), so a client that has its answer already
sees it counted.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from .fairqueue import FairQueue


class ReaderPool:
    def __init__(self, workers: int) -> None:
        self._threads = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="ragixd-reader")
        self._fair = FairQueue()
        self._lock = threading.Lock()
        self._open = 0   # jobs submitted and not done
        self._done = 0   # jobs done since the start
        self._job = threading.local()  # on a reader: whether its job is still counted as open

    @property
    def busy(self) -> bool:
        """Whether any job is queued or running."""
        return self._open > 0

    @property
    def done(self) -> int:
        return self._done

    def submit(self, owner: Hashable, fn: Callable[..., None], *args: Any) -> None:
        """Queue fn(*args) under its owner (a client): the pool takes owners in turn."""
        with self._lock:
            self._open += 1
        self._fair.put(owner, (fn, args))
        self._threads.submit(self._run_next).add_done_callback(self._cancelled)

    def answered(self) -> None:
        """Called on a reader as it hands over its answer: its job counts as done from now."""
        if getattr(self._job, "open", False):
            self._job.open = False
            self._count_done()

    def shutdown(self) -> None:
        """Run the jobs already queued, then stop the threads."""
        self._threads.shutdown(wait=True)

    def _run_next(self) -> None:
        fn, args = self._fair.get()
        self._job.open = True
        try:
            fn(*args)
        finally:
            self.answered()

    def _cancelled(self, future: Future) -> None:
        if future.cancelled():
            self._count_done()  # never ran: count it here

    def _count_done(self) -> None:
        with self._lock:
            self._open -= 1
            self._done += 1
