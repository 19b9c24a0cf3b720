"""Answers handed from worker threads to the loop thread: the count the writer waits on."""

from __future__ import annotations

import threading

import msgpack
import zmq

from ragixd.replies import REPLIES, Replier, encode_answer


def test_wait_forwarded_follows_the_answers_handed_over_and_sent_on():
    ctx = zmq.Context()
    pull = ctx.socket(zmq.PULL)
    pull.bind(REPLIES)
    replier = Replier(ctx)
    try:
        assert replier.wait_forwarded(0.0)  # nothing handed over: nothing to wait for
        worker = threading.Thread(target=replier.send, args=([b"0", b"client"], encode_answer(7, {"x": 1})))
        worker.start()
        worker.join()
        assert replier.handed == 1
        assert not replier.wait_forwarded(0.01)  # handed over, not sent on yet
        frames = pull.recv_multipart()
        assert frames[:2] == [b"0", b"client"]
        assert msgpack.unpackb(frames[2]) == {"v": 1, "id": 7, "ok": True, "result": {"x": 1}}
        waiter_saw: list[bool] = []
        waiter = threading.Thread(target=lambda: waiter_saw.append(replier.wait_forwarded(5.0)))
        waiter.start()
        replier.mark_forwarded(1)
        waiter.join()
        assert waiter_saw == [True]
        assert replier.wait_forwarded(0.0)
    finally:
        replier.close()
        pull.close()
        ctx.term()
