"""The cyclic garbage collector paused while a replay runs.

A replay allocates millions of short-lived objects and keeps tens of thousands of folded item
states alive, so the collector's full passes, which walk every object it tracks, ran dozens of
times over the same live states and took about a fifth of a 1M-event replay's CPU (session 27),
while finding nothing to free: a replay makes no reference cycles (a test checks it). The
pause is process-wide, so it is counted: overlapping replays (a rebuild and a verify's replay
in other threads) turn the collector back on only when the last one ends, and only if it was
on before the first began.
"""

from __future__ import annotations

import gc
import threading
from contextlib import contextmanager
from typing import Iterator

_lock = threading.Lock()
_depth = 0
_was_enabled = False


@contextmanager
def collector_paused() -> Iterator[None]:
    global _depth, _was_enabled
    with _lock:
        if _depth == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _was_enabled:
                gc.enable()
