"""ragixd as the integration tests run it: the real daemon, with every answer it sends and every
event it publishes checked against schemas/ on the way out (support/contract_check.py). A
mismatch does not change what is sent; it is appended to $RAGIX_TEST_CONTRACT_LOG, which the
tests read after each test."""

from __future__ import annotations

import os
from typing import Any

import msgpack

from ragixd import daemon, server
from ragixd.replies import encode_answer

from contract_check import answer_problem, event_problem, record

LOG = os.environ["RAGIX_TEST_CONTRACT_LOG"]
Server = server.Server
_dispatch, _reply, _publish = Server._dispatch, Server._reply, Server._publish
_ops: dict[tuple[Any, ...], str] = {}  # (route, request id) -> the op it asked for


def dispatch(self: Any, route: list[bytes], req_id: Any, op: str, *args: Any) -> None:
    _ops[(*route, req_id)] = op
    return _dispatch(self, route, req_id, op, *args)


def reply(self: Any, route: list[bytes], req_id: Any, result: Any = None, error: Any = None) -> None:
    op = _ops.pop((*route, req_id), None)
    answer = msgpack.unpackb(encode_answer(req_id, result, error), raw=False, strict_map_key=False)
    problem = answer_problem(op, answer)
    if problem is not None:
        record(LOG, f"answer to {op}", problem, answer)
    return _reply(self, route, req_id, result, error)


def publish(self: Any, events: list[Any]) -> None:
    for event in events:
        sent = msgpack.unpackb(msgpack.packb(event.to_dict(), use_bin_type=True), raw=False)
        problem = event_problem(sent)
        if problem is not None:
            record(LOG, "published event", problem, sent)
    return _publish(self, events)


Server._dispatch, Server._reply, Server._publish = dispatch, reply, publish

if __name__ == "__main__":
    daemon.entry()
