"""Progress on a terminal: of a long daemon op (rebuild, verify) while ragixctl waits for it,
and of a pipe's ingest (Redraw).

The op's own request blocks until its answer; beside it, a second connection asks `status`
a few times a second and redraws one line on stderr from the op's `work` entry. Nothing is
drawn when stderr is not a terminal, so scripts and --json output are unaffected.
"""

from __future__ import annotations

import sys
import threading
import time
from typing import Any, Callable, TextIO, TypeVar

from ragixd.errors import RagixError

from .client import Client

T = TypeVar("T")
POLL_S = 0.25


def render_progress(work: dict[str, Any]) -> str:
    """One line: `rebuild: replay 40,000/100,000 events (40%), 5.1 s`."""
    done, total = work["done"], work["total"]
    share = f" ({100 * done // total}%)" if total else ""
    unit = work.get("unit", "events")
    return f"{work['op']}: {work['phase']} {done:,}/{total:,} {unit}{share}, {work['elapsed_s']:.1f} s"


def with_progress(endpoint: str | None, op: str, call: Callable[[], T],
                  stream: TextIO | None = None, client_args: dict[str, Any] | None = None) -> T:
    """Run `call` (the op's request); meanwhile show the daemon's progress for `op` (asked by a
    Client of `endpoint` made with `client_args`: CURVE keys)."""
    stream = stream or sys.stderr
    if not stream.isatty():
        return call()
    stop = threading.Event()
    watcher = threading.Thread(target=_watch, args=(endpoint, op, stop, stream, client_args or {}),
                               daemon=True)
    watcher.start()
    try:
        return call()
    finally:
        stop.set()
        watcher.join(5)


def _watch(endpoint: str | None, op: str, stop: threading.Event, stream: TextIO,
           client_args: dict[str, Any]) -> None:
    client = Client(endpoint, timeout=2, **client_args)
    drawn = 0
    try:
        while not stop.wait(POLL_S):
            try:
                work = [w for w in client.status().get("work", []) if w.get("op") == op]
            except RagixError:
                continue
            if work:
                line = render_progress(work[0])
                stream.write("\r" + line.ljust(drawn))
                stream.flush()
                drawn = len(line)
    finally:
        client.close()
        if drawn:
            stream.write("\r" + " " * drawn + "\r")
            stream.flush()


def still_working(probe: Client, op: str) -> Callable[[], bool]:
    """For Client.call's keep_waiting: whether the daemon still lists `op` under `work` (asked
    through `probe`, a client of its own: a rebuild of a large log outlasts any time-out), and
    once more after it did, so that its answer, on its way, is not taken for no answer."""
    seen = [False]

    def check() -> bool:
        try:
            working = any(w.get("op") == op for w in probe.status().get("work", []))
        except RagixError:
            working = False
        was, seen[0] = seen[0], working
        return working or was
    return check


class Redraw:
    """One line on a terminal, redrawn at most every POLL_S (a pipe ingesting thousands of
    chunks); nothing at all when the stream is not a terminal."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stderr
        self.on = self.stream.isatty()
        self.drawn, self.last = 0, 0.0

    def show(self, line: str) -> None:
        now = time.monotonic()
        if not self.on or now - self.last < POLL_S:
            return
        self.stream.write("\r" + line.ljust(self.drawn))
        self.stream.flush()
        self.drawn, self.last = len(line), now

    def clear(self) -> None:
        if self.drawn:
            self.stream.write("\r" + " " * self.drawn + "\r")
            self.stream.flush()
            self.drawn = 0
