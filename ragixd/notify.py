"""The systemd notify protocol (READY, STATUS, STOPPING, WATCHDOG, EXTEND_TIMEOUT_USEC) over
$NOTIFY_SOCKET."""

from __future__ import annotations

import os
import socket
import threading
import time
from contextlib import contextmanager
from typing import Iterator


class Notifier:
    """Sends sd_notify datagrams when NOTIFY_SOCKET is set; does nothing otherwise."""

    def __init__(self, env: dict | os._Environ = os.environ) -> None:
        address = env.get("NOTIFY_SOCKET", "")
        self.address = "\0" + address[1:] if address.startswith("@") else address
        usec = env.get("WATCHDOG_USEC", "")
        pid = env.get("WATCHDOG_PID", "")
        wanted = usec.isdigit() and (not pid or pid == str(os.getpid()))
        # Ping at half the watchdog period, as systemd recommends.
        self.watchdog_interval = int(usec) / 2e6 if wanted else None
        self._last_ping = 0.0

    @property
    def enabled(self) -> bool:
        return bool(self.address)

    def send(self, message: str) -> None:
        if not self.address:
            return
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            try:
                sock.connect(self.address)
                sock.sendall(message.encode())
            except OSError:
                pass

    def ready(self, status: str = "") -> None:
        self.send("READY=1" + (f"\nSTATUS={status}" if status else ""))

    def status(self, status: str) -> None:
        self.send(f"STATUS={status}")

    @contextmanager
    def extending(self, every_s: float = 10.0, by_s: float = 30.0, limit_s: float = 3600.0) -> Iterator[None]:
        """While the block runs (a start that replays or rebuilds a large log), ask systemd every
        `every_s` seconds for `by_s` more seconds of start time-out, for `limit_s` at most: a
        long but progressing start is not killed at the unit's TimeoutStartSec and restarted
        over and over."""
        if not self.address:
            yield
            return
        done = threading.Event()

        def extend() -> None:
            deadline = time.monotonic() + limit_s
            while not done.wait(every_s) and time.monotonic() < deadline:
                self.send(f"EXTEND_TIMEOUT_USEC={int(by_s * 1e6)}\nSTATUS=starting: catching up with the log")
        thread = threading.Thread(target=extend, name="ragix-notify-extend", daemon=True)
        self.send(f"EXTEND_TIMEOUT_USEC={int(by_s * 1e6)}\nSTATUS=starting")
        thread.start()
        try:
            yield
        finally:
            done.set()
            thread.join()

    def stopping(self) -> None:
        self.send("STOPPING=1")

    def reloading(self) -> None:
        # systemd 253+ (Type=notify-reload) ignores a RELOADING=1 without the monotonic time.
        usec = time.clock_gettime_ns(time.CLOCK_MONOTONIC) // 1000
        self.send(f"RELOADING=1\nMONOTONIC_USEC={usec}")

    def watchdog_due(self, now: float | None = None) -> bool:
        if self.watchdog_interval is None:
            return False
        now = time.monotonic() if now is None else now
        return now - self._last_ping >= self.watchdog_interval

    def ping(self) -> None:
        self._last_ping = time.monotonic()
        self.send("WATCHDOG=1")
