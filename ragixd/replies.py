"""Answers: the msgpack answer envelope, and the per-thread PUSH sockets through which worker
threads hand answers back to the loop thread (only that thread may touch the ROUTER)."""

from __future__ import annotations

import threading
from typing import Any

import msgpack
import zmq

from .errors import RagixError
from .ops.catalog import PROTOCOL_VERSION

REPLIES = "inproc://ragixd-replies"


def encode_answer(req_id: Any, result: dict[str, Any] | None = None, error: RagixError | None = None) -> bytes:
    if error is not None:
        body = {"v": PROTOCOL_VERSION, "id": req_id, "ok": False, "error": error.to_wire()}
    else:
        body = {"v": PROTOCOL_VERSION, "id": req_id, "ok": True, "result": result}
    try:
        return msgpack.packb(body, use_bin_type=True)
    except (TypeError, ValueError, OverflowError) as e:
        fallback = RagixError(f"answer could not be encoded: {e}")
        return msgpack.packb({"v": PROTOCOL_VERSION, "id": req_id, "ok": False,
                              "error": fallback.to_wire()}, use_bin_type=True)


class Replier:
    """Per-thread PUSH sockets that hand answers back to the main loop, and a count of the
    answers handed over and forwarded, so that a thread can wait for its answers to leave
    before it goes on with work that would keep the loop thread from the interpreter."""

    def __init__(self, ctx: zmq.Context) -> None:
        self.ctx = ctx
        self.local = threading.local()
        self.sockets: list[zmq.Socket] = []
        self.lock = threading.Lock()
        self.handed = 0
        self.forwarded = 0
        self._left = threading.Condition()

    def send(self, route: list[bytes], payload: bytes) -> None:
        sock = getattr(self.local, "sock", None)
        if sock is None:
            sock = self.ctx.socket(zmq.PUSH)
            sock.setsockopt(zmq.LINGER, 1000)
            sock.connect(REPLIES)
            self.local.sock = sock
            with self.lock:
                self.sockets.append(sock)
        with self._left:
            self.handed += 1
        sock.send_multipart([*route, payload])

    def mark_forwarded(self, count: int) -> None:
        """The loop thread sent `count` more answers on to their clients."""
        with self._left:
            self.forwarded += count
            self._left.notify_all()

    def wait_forwarded(self, timeout: float) -> bool:
        """Wait up to `timeout` seconds until every answer handed over so far has been sent on."""
        with self._left:
            target = self.handed
            return self._left.wait_for(lambda: self.forwarded >= target, timeout)

    def close(self) -> None:
        with self.lock:
            for sock in self.sockets:
                sock.close()
            self.sockets.clear()
