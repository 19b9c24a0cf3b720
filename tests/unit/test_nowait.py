"""nowait: inside no_waiting() a held lock raises WouldBlock; outside it, holding waits."""

from __future__ import annotations

import threading

import pytest

from ragixd.nowait import WouldBlock, holding, no_waiting, waiting_allowed


def test_free_lock_is_taken_and_released_in_both_modes():
    lock = threading.Lock()
    with no_waiting():
        with holding(lock):
            assert lock.locked()
    assert not lock.locked()
    with holding(lock):
        assert lock.locked()
    assert not lock.locked()


def test_held_lock_raises_only_when_waiting_is_forbidden():
    lock = threading.Lock()
    lock.acquire()
    released = threading.Timer(0.05, lock.release)
    with no_waiting(), pytest.raises(WouldBlock):
        with holding(lock):
            pass
    released.start()
    with holding(lock):  # waits for the other thread's release
        assert lock.locked()
    released.join()
    assert not lock.locked()


def test_mode_is_per_thread_and_nests():
    seen = []
    with no_waiting():
        assert not waiting_allowed()
        with no_waiting():
            assert not waiting_allowed()
        assert not waiting_allowed()
        other = threading.Thread(target=lambda: seen.append(waiting_allowed()))
        other.start()
        other.join()
    assert waiting_allowed()
    assert seen == [True]


def test_state_restored_after_an_error():
    with pytest.raises(RuntimeError), no_waiting():
        raise RuntimeError("boom")
    assert waiting_allowed()
