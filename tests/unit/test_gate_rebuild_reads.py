"""A query that finds a rebuild running waits a bounded time, then answers busy with the
rebuild's progress (a rebuild of a large log outlasts a client's time-out); inline queries
never wait."""

from __future__ import annotations

import threading
from types import SimpleNamespace

import pytest

from ragixd import server
from ragixd.errors import Busy
from ragixd.gate import Gate
from ragixd.long_ops import LongOps
from ragixd.nowait import WouldBlock


@pytest.fixture
def held():
    """A gate held by a 'rebuild' on another thread until the test ends."""
    gate = Gate()
    taken, release = threading.Event(), threading.Event()

    def rebuild():
        with gate.exclusive():
            taken.set()
            release.wait(10)
    thread = threading.Thread(target=rebuild)
    thread.start()
    assert taken.wait(10)
    yield gate
    release.set()
    thread.join(10)


def test_a_share_times_out_while_a_rebuild_holds_the_gate_and_is_had_after(held):
    assert held.acquire_shared(timeout=0.05) is False
    assert held.acquire_shared(blocking=False) is False


def test_a_share_is_had_once_the_rebuild_ends():
    gate = Gate()
    with gate.exclusive():
        pass
    assert gate.acquire_shared(timeout=0.05) is True
    gate.release_shared()




def test_a_pooled_query_during_a_rebuild_is_answered_busy_with_its_progress(held, monkeypatch):
    monkeypatch.setattr(server, "REBUILD_READ_WAIT_S", 0.05)
    work = {"op": "rebuild", "phase": "replay", "done": 40000, "total": 100000, "elapsed_s": 5.1}
    long_ops = LongOps(threading.Event())
    long_ops.work["rebuild"] = work
    with pytest.raises(Busy) as err:
        with server.Server._reading(SimpleNamespace(gate=held, long_ops=long_ops), False):
            pass
    assert "replay 40,000/100,000 events" in str(err.value)
    assert err.value.details["rebuild"] == work


def test_an_inline_query_never_waits_for_a_rebuild(held):
    with pytest.raises(WouldBlock):
        with server.Server._reading(SimpleNamespace(gate=held, long_ops=LongOps(threading.Event())), True):
            pass
