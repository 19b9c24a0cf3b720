"""Work that must not wait: locks that can be held for long raise WouldBlock instead.

The server answers a query on its loop thread when nothing else is waiting (two thread
hand-offs saved), but that thread must never sit behind a lock held by a long vector add or a
checkpoint. Code that takes such a lock does it through `holding`; inside `no_waiting()` a
lock already taken raises WouldBlock, and the caller runs the (read-only) work again where
waiting is allowed. Outside `no_waiting()`, `holding` is a plain `with lock`.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import Iterator

_state = threading.local()


class WouldBlock(Exception):
    """A lock was taken while waiting was not allowed; nothing has been changed."""


@contextmanager
def no_waiting() -> Iterator[None]:
    previous = getattr(_state, "active", False)
    _state.active = True
    try:
        yield
    finally:
        _state.active = previous


def waiting_allowed() -> bool:
    return not getattr(_state, "active", False)


@contextmanager
def holding(lock: threading.Lock | threading.RLock) -> Iterator[None]:
    if not lock.acquire(blocking=waiting_allowed()):
        raise WouldBlock("lock is held")
    try:
        yield
    finally:
        lock.release()
