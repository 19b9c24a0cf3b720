"""The systemd notify protocol, seen from systemd's side: a Unix datagram socket that receives
READY, STATUS, WATCHDOG, RELOADING and STOPPING from a real ragixd."""

from __future__ import annotations

import signal
import socket
import tempfile
import time
from pathlib import Path

import pytest
from support.daemon import Daemon


class NotifySocket:
    """What systemd would bind: NOTIFY_SOCKET points here."""

    def __init__(self, directory: Path) -> None:
        self.path = directory / "notify.sock"
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(self.path))
        self.received: list[dict[str, str]] = []

    def next(self, timeout_s: float = 10.0) -> dict[str, str] | None:
        self.sock.settimeout(timeout_s)
        try:
            data = self.sock.recv(4096)
        except TimeoutError:
            return None
        fields = dict(line.split("=", 1) for line in data.decode().splitlines() if "=" in line)
        self.received.append(fields)
        return fields

    def wait_for(self, key: str, timeout_s: float = 10.0) -> dict[str, str]:
        deadline = time.monotonic() + timeout_s
        while (left := deadline - time.monotonic()) > 0:
            message = self.next(left)
            if message is not None and key in message:
                return message
        raise AssertionError(f"no {key} within {timeout_s}s; got {self.received}")

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def notified():
    # A short directory: AF_UNIX paths are limited to 108 bytes.
    with tempfile.TemporaryDirectory(prefix="rgx-") as tmp:
        ns = NotifySocket(Path(tmp))
        daemon = Daemon(Path(tmp) / "home", extra_env={
            "NOTIFY_SOCKET": str(ns.path), "WATCHDOG_USEC": "200000"}).start()
        yield daemon, ns
        daemon.kill()
        ns.close()


def test_ready_with_status_then_watchdog_pings(notified):
    daemon, ns = notified
    ready = ns.wait_for("READY")
    assert ready["READY"] == "1"
    assert daemon.endpoint in ready["STATUS"]
    # Before READY, the start asked for more start time (it may replay a large log).
    assert "EXTEND_TIMEOUT_USEC" in ns.received[0] and int(ns.received[0]["EXTEND_TIMEOUT_USEC"]) > 0
    # Pings keep coming at about half the watchdog period (100 ms): count several.
    pings = 0
    for _ in range(5):
        assert ns.wait_for("WATCHDOG", timeout_s=2.0)["WATCHDOG"] == "1"
        pings += 1
    assert pings == 5
    assert daemon.client().status()["pid"] == daemon.proc.pid


def test_sigterm_sends_stopping_and_exits_cleanly(notified):
    daemon, ns = notified
    ns.wait_for("READY")
    written = daemon.client().write(title="before the stop", content="written before the stop")
    daemon.proc.send_signal(signal.SIGTERM)
    assert ns.wait_for("STOPPING")["STOPPING"] == "1"
    assert daemon.proc.wait(20) == 0
    # The write answered before the stop is there on the next start.
    daemon.start()
    assert daemon.client().read(written["id"])["count"] == 1


def test_sighup_reloads_and_keeps_serving(notified):
    daemon, ns = notified
    ns.wait_for("READY")
    c = daemon.client()
    first = c.write(title="before the reload", content="written before the reload")
    before = time.clock_gettime_ns(time.CLOCK_MONOTONIC) // 1000
    daemon.proc.send_signal(signal.SIGHUP)
    reloading = ns.wait_for("RELOADING")
    after = time.clock_gettime_ns(time.CLOCK_MONOTONIC) // 1000
    assert reloading["RELOADING"] == "1"
    # systemd (Type=notify-reload) needs the reload's monotonic time along with it.
    assert before <= int(reloading["MONOTONIC_USEC"]) <= after
    again = ns.wait_for("READY")
    assert again["READY"] == "1"
    second = c.write(title="after the reload", content="written after the reload")
    assert second["seq"] > first["seq"]
    assert c.read(first["id"], second["id"])["count"] == 2
    assert daemon.proc.poll() is None
    # Still pinging the watchdog after the reload.
    assert ns.wait_for("WATCHDOG", timeout_s=2.0)["WATCHDOG"] == "1"
    c.close()


def test_a_long_start_keeps_asking_for_more_time_until_it_ends(tmp_path):
    from ragixd.notify import Notifier
    with tempfile.TemporaryDirectory(prefix="rgx-") as tmp:
        ns = NotifySocket(Path(tmp))
        notifier = Notifier({"NOTIFY_SOCKET": str(ns.path)})
        with notifier.extending(every_s=0.01, by_s=2.0):
            asks = [ns.wait_for("EXTEND_TIMEOUT_USEC") for _ in range(3)]
        assert all(a["EXTEND_TIMEOUT_USEC"] == "2000000" for a in asks)
        ns.sock.settimeout(0.2)
        while True:  # what was sent before the block ended
            try:
                ns.sock.recv(4096)
            except TimeoutError:
                break
        assert ns.next(timeout_s=0.2) is None  # nothing after it
        ns.close()
