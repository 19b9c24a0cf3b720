"""Reading requests off the wire without trusting them: where an answer goes, a request's
id when the rest of it cannot be read, whether more requests wait on a socket, and the sizes of
an op's arguments. Pure helpers of the server's loop; nothing here answers or dispatches."""

from __future__ import annotations

from typing import Any

import msgpack
import zmq


def chars_within(value: Any, limit: int) -> bool:
    """Whether the strings anywhere in `value` (an op's arguments: an update's text is inside
    its patch, a write's provenance inside its own object) add up to at most `limit` characters."""
    left = limit
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            left -= len(v)
            if left < 0:
                return False
        elif isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, (list, tuple)):
            stack.extend(v)
    return True


def route(index: int, frames: list[zmq.Frame]) -> tuple[list[bytes], list[zmq.Frame]]:
    """(where the answer goes: socket index, peer identity, REQ delimiter if any; the body)."""
    body = frames[1:]
    delimiter = [b""] if body and len(body[0]) == 0 else []
    return [str(index).encode(), frames[0].bytes, *delimiter], body[len(delimiter):]


def request_id(body: list[zmq.Frame]) -> str | int | None:
    """The id of the request in `body`, when it can be read (answers that are not the request's
    own answer still carry it, so that a client with several requests out can match them). Only
    the envelope's keys and its id are decoded: the rest (a too large request's text) is skipped."""
    if len(body) != 1:
        return None
    data = memoryview(body[0].bytes)
    unpacker = msgpack.Unpacker(raw=False, strict_map_key=False, max_buffer_size=max(data.nbytes, 1))
    req_id = None
    try:
        unpacker.feed(data)
        for _ in range(min(unpacker.read_map_header(), 16)):
            if unpacker.unpack() == "id":
                req_id = unpacker.unpack()
                break
            unpacker.skip()
    except Exception:  # noqa: BLE001 - not a msgpack map: answered without an id
        return None
    return req_id if isinstance(req_id, (str, int)) and not isinstance(req_id, bool) else None


def more(sock: zmq.Socket) -> bool:
    """Whether a message is waiting: a failed NOBLOCK recv costs three times as much."""
    return bool(sock.getsockopt(zmq.EVENTS) & zmq.POLLIN)


def too_big(args: dict[str, Any]) -> str:
    """The first argument holding an integer outside SQLite's signed 64-bit range."""
    def big(value: Any) -> bool:
        if isinstance(value, int):
            return not -2 ** 63 <= value < 2 ** 63
        if isinstance(value, (list, dict)):
            return any(big(v) for v in (value.values() if isinstance(value, dict) else value))
        return False
    return next((str(key) for key, value in args.items() if big(value)), "(root)")
