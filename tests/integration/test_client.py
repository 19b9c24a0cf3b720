"""The client library's promises, against the real daemon: reconnection after a restart, a
time-out's late answer never taken for the next one's, one Client shared by many threads, and
no socket left behind by a thread that ends or by close()."""

from __future__ import annotations

import gc
import os
import threading
import time

import pytest

from ragix_client import Client
from ragixd.errors import Timeout
from support.daemon import Daemon


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def test_a_client_carries_on_across_a_daemon_restart(tmp_path):
    daemon = Daemon(tmp_path / "home").start()
    c = daemon.client(timeout=20)
    try:
        written = c.write(title="before the restart", content="kept")
        daemon.stop()
        daemon.start()
        assert c.read(written["id"])["items"][0]["title"] == "before the restart"
        assert c.write(title="after the restart", content="also kept")["status"] == "created"
    finally:
        c.close()
        daemon.stop()


def test_a_late_answer_to_a_timed_out_request_is_never_the_next_ones(daemon):
    c = daemon.client(timeout=20)
    head = c.status()["head_seq"]
    # The search waits (in the daemon) for a seq no write has reached yet: the client gives up.
    with pytest.raises(Timeout):
        c.search("late", min_seq=head + 1, timeout=0.2)
    # This write reaches that seq: the daemon now answers the search, late, to the old socket.
    written = c.write(title="the late one", content="reaches the seq the search waited for")
    assert set(written) >= {"id", "seq", "status"} and "items" not in written
    for n in range(20):  # every later answer is the one asked for
        assert c.read(written["id"])["items"][0]["id"] == written["id"]
        assert "head_seq" in c.status()
    c.close()


def test_one_client_shared_by_many_threads_gives_each_its_own_answers(daemon):
    c = daemon.client(timeout=60)
    errors: list[BaseException] = []

    def worker(n: int) -> None:
        try:
            for i in range(15):
                title = f"thread {n} item {i}"
                written = c.write(title=title, content=f"from thread {n}")
                assert c.read(written["id"])["items"][0]["title"] == title
        except BaseException as e:  # noqa: BLE001 - reported by the main thread
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[:3]
    assert c.stats()["items"] == 16 * 15
    c.close()


def test_threads_that_end_leave_no_socket_behind(daemon):
    c = daemon.client(timeout=60)
    c.status()
    before = open_fds()

    def once() -> None:
        c.status()

    for _ in range(1000):  # more than ZeroMQ's default of 1023 sockets a context
        t = threading.Thread(target=once)
        t.start()
        t.join()
    gc.collect()
    assert open_fds() <= before + 10
    c.status()
    c.close()


def test_close_closes_every_threads_socket_and_the_client_can_be_used_again(daemon):
    before = open_fds()
    c = daemon.client(timeout=60)
    started, release = threading.Barrier(5), threading.Event()

    def idle_thread() -> None:
        c.status()
        started.wait()
        release.wait()

    threads = [threading.Thread(target=idle_thread) for _ in range(4)]
    for t in threads:
        t.start()
    started.wait()
    c.close()  # the four threads are alive, their sockets idle
    gc.collect()
    assert open_fds() <= before + 2
    release.set()
    for t in threads:
        t.join()
    assert "head_seq" in c.status()  # a call after close opens a socket again
    c.close()
    c.close()  # twice is harmless
    with Client(daemon.endpoint) as again:
        assert "head_seq" in again.status()


def test_close_during_another_threads_call_lets_that_call_end_as_usual(daemon):
    """A ZeroMQ socket is not closed under the thread using it: the call in flight ends with
    its own answer or time-out (a RagixError, never a raw ZMQError), then its socket closes."""
    from ragixd.errors import RagixError

    before = open_fds()
    c = daemon.client(timeout=30)
    head = c.status()["head_seq"]
    outcome: dict[str, BaseException] = {}
    in_call = threading.Event()

    def waiting_call() -> None:
        in_call.set()
        try:  # a seq a little ahead of the head: the daemon holds the read until it times out
            c.read("MEM-0000000000000000", min_seq=head + 3, timeout=1.5)
        except BaseException as err:  # noqa: BLE001 - what it raised is the point
            outcome["err"] = err

    thread = threading.Thread(target=waiting_call)
    thread.start()
    in_call.wait()
    time.sleep(0.3)  # inside its poll by now (and if not, the call still ends as usual)
    c.close()
    thread.join(30)
    assert isinstance(outcome.get("err"), Timeout), repr(outcome.get("err"))
    assert isinstance(outcome["err"], RagixError)
    gc.collect()
    assert open_fds() <= before + 2  # its socket closed once the call ended
    assert "head_seq" in c.status()
    c.close()
