"""The daemon's signal wake-up socket: a signal makes its read end readable at once, so the
server loop, which polls it beside the ZeroMQ sockets, wakes without waiting for its time-out."""

from __future__ import annotations

import os
import select
import signal

from ragixd.daemon import _stop_waking, _wake_on_signals


def test_a_signal_makes_the_wake_socket_readable_and_the_old_wakeup_fd_is_restored():
    seen = []
    previous = signal.signal(signal.SIGUSR1, lambda signum, _frame: seen.append(signum))
    pair = _wake_on_signals()
    try:
        assert pair is not None
        read_end, _write_end, _previous = pair
        assert select.select([read_end], [], [], 0)[0] == []  # nothing before a signal
        os.kill(os.getpid(), signal.SIGUSR1)
        assert select.select([read_end], [], [], 5)[0] == [read_end]
        assert read_end.recv(16) == bytes([signal.SIGUSR1]) and seen == [signal.SIGUSR1]
    finally:
        _stop_waking(pair)
        signal.signal(signal.SIGUSR1, previous)
    assert signal.set_wakeup_fd(-1) == -1  # the one before (none) is back


def test_a_wakeup_fd_set_before_is_put_back():
    import socket
    a, b = socket.socketpair()
    b.setblocking(False)
    signal.set_wakeup_fd(b.fileno())
    try:
        wake = _wake_on_signals()
        assert wake is not None and wake[2] == b.fileno()
        _stop_waking(wake)
        assert signal.set_wakeup_fd(-1) == b.fileno()
    finally:
        signal.set_wakeup_fd(-1)
        a.close()
        b.close()


def test_off_the_main_thread_there_is_no_wake_socket_and_no_error():
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(1) as pool:
        assert pool.submit(_wake_on_signals).result() is None
