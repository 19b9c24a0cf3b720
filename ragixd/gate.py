"""The gate between queries and a rebuild, which drops the tables queries read."""

from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import Iterator


class Gate:
    """Reads share the store; a rebuild has it alone, since it drops the tables they read.
    A waiting rebuild holds new reads back, so a stream of queries cannot starve it."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._readers = 0
        self._exclusive = False  # held or wanted

    def acquire_shared(self, blocking: bool = True, timeout: float | None = None) -> bool:
        """Take a share; False if a rebuild holds (or wants) the store and `blocking` is off,
        or it still does after `timeout` seconds."""
        with self._cond:
            if self._exclusive and not blocking:
                return False
            if not self._cond.wait_for(lambda: not self._exclusive, timeout):
                return False
            self._readers += 1
            return True

    def release_shared(self) -> None:
        with self._cond:
            self._readers -= 1
            if self._readers == 0 and self._exclusive:
                self._cond.notify_all()

    @contextmanager
    def shared(self) -> Iterator[None]:
        self.acquire_shared()
        try:
            yield
        finally:
            self.release_shared()

    @contextmanager
    def exclusive(self) -> Iterator[None]:
        with self._cond:
            self._cond.wait_for(lambda: not self._exclusive)
            self._exclusive = True
            self._cond.wait_for(lambda: self._readers == 0)
        try:
            yield
        finally:
            with self._cond:
                self._exclusive = False
                self._cond.notify_all()
