"""Faults at the daemon's door: malformed frames, bad envelopes, unknown ops, wrong argument
types, oversized messages and clients that vanish mid-request. Each gets a clear error answer
(or is dropped, when it cannot be answered) and the daemon keeps serving everyone else.

Malformed input goes through raw DEALER sockets, since the real client cannot produce it.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections import Counter
from typing import Any

import msgpack
import pytest
import zmq
from hypothesis import given, settings
from hypothesis import strategies as st

from ragixd import contract
from ragixd.ops.catalog import CATALOG

ctx = zmq.Context.instance()
pack = msgpack.Packer(use_bin_type=True).pack
OP_NAMES = [spec.name for spec in CATALOG]
# Error codes a malformed or unlucky request may earn. "internal" and "store_error" are
# never acceptable: they mean the daemon, not the request, is at fault.
REQUEST_ERRORS = {"protocol_error", "unknown_op", "invalid_input", "too_large", "not_found",
                  "conflict", "policy_rejected", "timeout", "forbidden"}


class Raw:
    """A bare DEALER socket that sends any frames and decodes whatever comes back."""

    def __init__(self, endpoint: str) -> None:
        self.sock = ctx.socket(zmq.DEALER)
        self.sock.setsockopt(zmq.LINGER, 0)
        self.sock.connect(endpoint)

    def send(self, frames: list[bytes]) -> None:
        self.sock.send_multipart(frames)

    def recv(self, timeout_s: float = 10.0) -> dict[str, Any] | None:
        if not self.sock.poll(int(timeout_s * 1000)):
            return None
        frames = self.sock.recv_multipart()
        answer = msgpack.unpackb(frames[-1], raw=False, strict_map_key=False)
        problem = contract.first_error("envelope#answer", answer)
        assert problem is None, (answer, problem)
        return answer

    def ask(self, frames: list[bytes], timeout_s: float = 10.0) -> dict[str, Any] | None:
        self.send(frames)
        return self.recv(timeout_s)

    def close(self) -> None:
        self.sock.close(linger=0)


def envelope(op: str = "status", args: Any = None, req_id: Any = 1, **extra: Any) -> bytes:
    body = {"v": 1, "id": req_id, "op": op, **extra}
    if args is not None:
        body["args"] = args
    return pack(body)


def error_code(answer: dict[str, Any] | None) -> str | None:
    assert answer is not None, "no answer"
    assert answer["ok"] is False, answer
    return answer["error"]["code"]


# -- one fault at a time ---------------------------------------------------------------------

@pytest.fixture(scope="module")
def shared(tmp_path_factory):
    """One daemon for the tests that only send requests nothing can write."""
    from support.daemon import Daemon
    d = Daemon(tmp_path_factory.mktemp("faults") / "home").start()
    yield d
    d.stop()


MALFORMED = {
    "two frames": [envelope(), pack({})],
    "three frames": [b"a", b"b", b"c"],
    "empty frame": [b""],
    "delimiter then empty": [b"", b""],
    "not msgpack": [b"\xc1 this is not msgpack"],
    "truncated msgpack": [envelope()[:-3]],
    "a list": [pack([1, 2, 3])],
    "an int": [pack(5)],
    "a string": [pack("status")],
    "an ext type": [msgpack.packb(msgpack.ExtType(5, b"xy"))],
    "missing op": [pack({"v": 1, "id": 3})],
    "missing id": [pack({"v": 1, "op": "status"})],
    "v=2": [envelope(v=2)],
    "v=1.0": [envelope(v=1.0)],
    "id a list": [envelope(req_id=[1])],
    "op not a string": [pack({"v": 1, "id": 4, "op": 7})],
    "args a list": [envelope(args=[1])],
    "extra key": [envelope(extra="x")],
}


@pytest.mark.parametrize("frames", MALFORMED.values(), ids=MALFORMED.keys())
def test_malformed_messages_get_a_protocol_error(shared, frames):
    raw = Raw(shared.endpoint)
    assert error_code(raw.ask(frames)) == "protocol_error"
    # The same connection, and a well-behaved client, are still served.
    ok = raw.ask([envelope("status", req_id=99)])
    assert ok["ok"] and ok["id"] == 99
    raw.close()
    assert shared.client().status()["pid"] == shared.proc.pid


def test_bad_envelope_answers_carry_the_request_id_when_it_is_usable(shared):
    raw = Raw(shared.endpoint)
    answer = raw.ask([envelope(v=2, req_id="abc")])
    assert error_code(answer) == "protocol_error" and answer["id"] == "abc"
    answer = raw.ask([envelope(req_id=[1])])
    assert error_code(answer) == "protocol_error" and answer["id"] is None
    raw.close()


def test_an_unknown_op_is_named_in_the_answer(shared):
    raw = Raw(shared.endpoint)
    answer = raw.ask([envelope("drop.everything", req_id=5)])
    assert error_code(answer) == "unknown_op"
    assert answer["id"] == 5 and answer["error"]["details"]["op"] == "drop.everything"
    raw.close()


def test_an_unknown_op_that_could_be_a_key_is_not_repeated(shared):
    """Something not shaped like an op name (a token pasted into the op) is only measured."""
    raw = Raw(shared.endpoint)
    token = "ghp_" + "R2d2C3po" * 4 + "xyzw"
    answer = raw.ask([envelope(token, req_id=6)])
    assert error_code(answer) == "unknown_op" and answer["id"] == 6
    assert token not in repr(answer) and "40 characters" in answer["error"]["message"]
    raw.close()


WRONG_ARGS = [
    ("write", {"title": 5}, "title"),
    ("write", {"content": "no title"}, "(root)"),
    ("write", {"title": "t", "tags": "ops"}, "tags"),
    ("write", {"title": "t", "confidence": "high"}, "confidence"),
    ("write", {"title": "t", "bogus": 1}, "(root)"),
    ("search", {"query": ["a", "b"]}, "query"),
    ("search", {"query": "a", "k": 0}, "k"),
    ("search", {"query": "a", "k": 2 ** 63}, "k"),
    ("search", {"query": "a", "min_seq": -1}, "min_seq"),
    ("read", {"ids": "MEM-0000"}, "ids"),
    ("update", {"id": "MEM-0000000000000000", "patch": "x"}, "patch"),
    ("status", {"verbose": True}, "(root)"),
]


@pytest.mark.parametrize("op,args,field", WRONG_ARGS)
def test_wrong_argument_types_are_invalid_input_naming_the_field(shared, op, args, field):
    raw = Raw(shared.endpoint)
    answer = raw.ask([envelope(op, args=args, req_id=11)])
    assert error_code(answer) == "invalid_input", answer
    assert answer["id"] == 11 and answer["error"]["details"]["field"] == field
    raw.close()


def test_numbers_beyond_64_bits_are_refused_not_crashed_on(shared):
    """An integer the schema allows but SQLite cannot hold is the caller's error."""
    raw = Raw(shared.endpoint)
    answer = raw.ask([envelope("tail", args={"after": 2 ** 64 - 1, "limit": 5}, req_id=12)])
    assert error_code(answer) == "invalid_input" and answer["error"]["details"]["field"] == "after"
    answer = raw.ask([envelope("tail", args={"after": 2 ** 63 - 1}, req_id=13)])
    assert answer["ok"] and answer["result"]["events"] == []  # the largest that fits is fine
    raw.close()
    assert shared.client().verify()["ok"]


@pytest.fixture
def small_cap_daemon(tmp_path):
    from support.daemon import Daemon
    d = Daemon(tmp_path / "home", extra_env={"RAGIX_MAX_MESSAGE_BYTES": "4096"}).start()
    yield d
    d.stop()


def test_a_message_over_the_size_cap_is_too_large(small_cap_daemon):
    raw = Raw(small_cap_daemon.endpoint)
    big = envelope("write", args={"title": "big", "content": "x" * 5000}, req_id=21)
    answer = raw.ask([big])
    assert error_code(answer) == "too_large" and answer["id"] == 21
    assert "4096" in answer["error"]["message"]
    # Just under the cap is fine.
    fits = envelope("write", args={"title": "fits", "content": "x" * 3000}, req_id=22)
    answer = raw.ask([fits])
    assert answer["ok"] and answer["id"] == 22
    raw.close()
    assert small_cap_daemon.client().stats()["items"] == 1


def test_a_message_far_over_the_cap_is_dropped_and_the_sender_can_come_back(small_cap_daemon):
    raw = Raw(small_cap_daemon.endpoint)
    assert raw.ask([b"x" * 1_000_000], timeout_s=1.0) is None  # the transport refuses it
    # The DEALER reconnects on its own, and other clients never noticed.
    c = small_cap_daemon.client(timeout=10)
    assert c.status()["head_seq"] == 0
    answer = None
    for attempt in range(50):  # poll until the dropped connection has been re-established
        answer = raw.ask([envelope("status", req_id=attempt)], timeout_s=0.2)
        if answer is not None:
            break
    assert answer is not None and answer["ok"]
    raw.close()


def _poll(predicate, timeout_s: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return False


def test_a_client_that_vanishes_after_sending_a_write(daemon):
    """The write is still done (it was received), the answer is dropped, nobody else suffers."""
    for n in range(20):
        sock = ctx.socket(zmq.DEALER)
        sock.setsockopt(zmq.LINGER, 2000)  # deliver the request, then go away
        sock.connect(daemon.endpoint)
        sock.send(envelope("write", args={"title": f"orphan {n}", "content": "gone"}, req_id=n))
        sock.close()
    c = daemon.client()
    assert _poll(lambda: c.stats()["items"] == 20), c.stats()
    assert c.verify()["ok"]
    c.close()


@pytest.fixture
def slow_daemon(tmp_path):
    from support.daemon import Daemon
    d = Daemon(tmp_path / "home", extra_env={"RAGIX_MIN_SEQ_TIMEOUT_S": "1.0"}).start()
    yield d
    d.stop()


def test_slow_queries_whose_clients_vanish_do_not_stop_the_others(slow_daemon):
    # Each of these holds a reader for a second waiting for a seq that never comes; more of
    # them than readers, and their senders are gone before the answers are due.
    for n in range(8):
        sock = ctx.socket(zmq.DEALER)
        sock.setsockopt(zmq.LINGER, 2000)
        sock.connect(slow_daemon.endpoint)
        sock.send(envelope("search", args={"query": "x", "min_seq": 10 ** 9}, req_id=n))
        sock.close()
    c = slow_daemon.client(timeout=20)
    written = c.write(title="still serving", content="after the slow queries")
    assert c.status()["head_seq"] == written["seq"]
    found = c.search("serving", min_seq=written["seq"])
    assert [i["id"] for i in found["items"]] == [written["id"]]
    assert c.verify()["ok"]
    c.close()


# A misbehaving client in its own process, as one would be: it sends malformed messages
# without pause (reading what comes back now and then, so its socket never fills) until its
# stdin closes, then prints how many it sent.
FLOODER = """
import select, sys, msgpack, zmq
frames = [msgpack.unpackb(f) for f in msgpack.unpackb(bytes.fromhex(sys.argv[2]))]
sock = zmq.Context().socket(zmq.DEALER)
sock.setsockopt(zmq.LINGER, 0)
sock.connect(sys.argv[1])
n = 0
while True:
    sock.send_multipart(frames[n % len(frames)])
    n += 1
    if n % 50 == 0:
        while sock.poll(0):
            sock.recv_multipart()
        if select.select([sys.stdin], [], [], 0)[0]:
            break
print(n, flush=True)
"""


def test_good_clients_are_served_while_garbage_flows(daemon):
    frames = pack([pack(list(f)) for f in MALFORMED.values()])
    flooder = subprocess.Popen([sys.executable, "-c", FLOODER, daemon.endpoint, frames.hex()],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        c = daemon.client(timeout=20)
        c.status()
        ids = [c.write(title=f"good {n}", content="served")["id"] for n in range(30)]
        assert flooder.poll() is None, "the flood stopped before the good client was done"
    finally:
        sent, _ = flooder.communicate(input="stop\n", timeout=30)
    assert int(sent) > 30
    assert c.read(*ids)["count"] == 30
    assert c.verify()["ok"]
    c.close()


# -- fuzz: thousands of frames at one daemon ---------------------------------------------------

ID_SLOTS = [f"@ID{n}" for n in range(4)]  # replaced by real item ids before sending
scalars = (st.none() | st.booleans() | st.integers(-2 ** 63, 2 ** 64 - 1)
           | st.floats(allow_nan=True) | st.text(max_size=30) | st.binary(max_size=30)
           | st.sampled_from(ID_SLOTS))
values = st.recursive(scalars, lambda kids: st.lists(kids, max_size=4)
                      | st.dictionaries(st.text(max_size=12) | st.integers(-5, 5), kids, max_size=4),
                      max_leaves=12)
plausible = (st.sampled_from(ID_SLOTS) | st.text(max_size=40) | st.integers(-2, 2 ** 63)
             | st.lists(st.sampled_from(ID_SLOTS) | st.text(max_size=10), max_size=4)
             | st.dictionaries(st.sampled_from(ID_SLOTS) | st.text(max_size=10),
                               st.integers(-1, 5) | st.text(max_size=10), max_size=3)
             | st.booleans() | st.floats(-1, 2) | values)


def _properties(op: str) -> list[str]:
    schema = contract.validator(f"ops/{op}#request").schema
    return sorted(schema.get("properties", {}))


PROPS = {op: _properties(op) for op in OP_NAMES}


@st.composite
def op_args(draw):
    op = draw(st.sampled_from(OP_NAMES) | st.sampled_from(["", "nope", "write.all", "STATUS"]))
    keys = PROPS.get(op, []) + ["bogus"]
    args = draw(st.dictionaries(st.sampled_from(keys), plausible, max_size=len(keys)))
    return op, args


@st.composite
def message(draw):
    """(frames, expects_own_id): one multipart message of some kind."""
    kind = draw(st.integers(0, 9))
    if kind == 0:
        return [draw(st.binary(max_size=64))], False
    if kind == 1:
        return [pack(draw(values))], False
    if kind == 2:  # an envelope with random fields
        body = draw(st.dictionaries(st.sampled_from(["v", "id", "op", "args", "x"]), values))
        return [pack(body)], False
    if kind == 3:  # several frames, perhaps behind an empty delimiter
        frames = draw(st.lists(st.binary(max_size=16), min_size=2, max_size=3))
        return frames, False
    if kind == 4:  # over the fuzz daemon's cap of 2048 bytes
        return [b"\x92" + b"\x00" * draw(st.integers(2100, 4000))], False
    op, args = draw(op_args())
    return ["ID", op, args], True


def _materialize(value: Any, ids: list[str]) -> Any:
    if isinstance(value, str) and value in ID_SLOTS:
        return ids[ID_SLOTS.index(value)]
    if isinstance(value, list):
        return [_materialize(v, ids) for v in value]
    if isinstance(value, dict):
        return {_materialize(k, ids): _materialize(v, ids) for k, v in value.items()}
    return value


@settings(max_examples=400, deadline=None, database=None)
@given(request=st.dictionaries(st.sampled_from(["v", "id", "op", "args", "x"]), values, max_size=5)
       | st.fixed_dictionaries({"v": values, "id": values, "op": values}, optional={"args": values})
       | values)
def test_the_servers_fast_envelope_check_accepts_nothing_the_schema_refuses(request):
    if contract.quick("envelope#request")(request):
        assert contract.validator("envelope#request").is_valid(request), request


def test_the_fast_envelope_check_does_accept_ordinary_requests():
    quick = contract.quick("envelope#request")
    assert quick({"v": 1, "id": 7, "op": "status"})
    assert quick({"v": 1, "id": "a", "op": "write", "args": {"title": "x"}})
    assert not quick({"v": True, "id": 7, "op": "status"})
    assert not quick({"v": 1.0, "id": 7, "op": "status"})  # a version is a whole number
    assert not quick({"v": 1, "id": 7, "op": "x" * 65})


@pytest.fixture(scope="module")
def fuzz_daemon(tmp_path_factory):
    from support.daemon import Daemon
    d = Daemon(tmp_path_factory.mktemp("fuzz") / "home",
               extra_env={"RAGIX_MAX_MESSAGE_BYTES": "2048", "RAGIX_MIN_SEQ_TIMEOUT_S": "0.1"}).start()
    c = d.client()
    d.ids = [c.write(title=f"seed {n}", content="fuzz target", tags=["seed"])["id"] for n in range(4)]
    c.close()
    yield d
    d.stop()


FUZZ_EXAMPLES = 120  # x 20-60 messages each: about 5,000 messages
# Log events that mean a request hurt the daemon instead of being refused.
CRASH_EVENTS = ("server.request_crashed", "server.query_failed", "writer.group_crashed",
                "writer.group_failed", "writer.callback_failed")


def test_fuzz_every_message_is_answered_and_the_daemon_survives(fuzz_daemon):
    next_id = iter(f"fz:{n}" for n in range(10 ** 9))
    totals = Counter()

    @settings(max_examples=FUZZ_EXAMPLES, deadline=None, database=None)
    @given(batch=st.lists(message(), min_size=20, max_size=60))
    def run(batch):
        raw = Raw(fuzz_daemon.endpoint)
        expected_ids = []
        try:
            for frames, own in batch:
                if own:
                    _, op, args = frames
                    req_id = next(next_id)
                    expected_ids.append(req_id)
                    frames = [pack({"v": 1, "id": req_id, "op": op,
                                    "args": _materialize(args, fuzz_daemon.ids)})]
                raw.send(frames)
            answers = [raw.recv(timeout_s=20) for _ in batch]
        finally:
            raw.close()
        assert None not in answers, "a message went unanswered"
        for answer in answers:
            if not answer["ok"]:
                assert answer["error"]["code"] in REQUEST_ERRORS, answer
            totals["ok" if answer["ok"] else answer["error"]["code"]] += 1
        seen = Counter(a["id"] for a in answers if a["id"] in set(expected_ids))
        assert all(seen[i] == 1 for i in expected_ids), "an answer went to the wrong request"

    run()
    c = fuzz_daemon.client()
    assert c.status()["head_seq"] >= 4
    report = c.verify()
    assert report["ok"], report
    assert sum(totals.values()) >= 20 * FUZZ_EXAMPLES
    assert totals["ok"] > 0 and totals["protocol_error"] > 0 and totals["invalid_input"] > 0
    assert totals["too_large"] > 0 and totals["unknown_op"] > 0
    c.close()
    log = fuzz_daemon.log_path.read_text()
    assert not [e for e in CRASH_EVENTS if e in log], log[-3000:]



def test_a_client_that_never_reads_its_answers_cannot_make_the_daemon_hold_them_all(daemon):
    """Answers queued for a client that does not read them are bounded (the rest dropped, as
    for a client that is gone): before the bound every answer stayed in the daemon for as long
    as that client stayed connected (2,500 answers of ~60 kB: ~150 MB), and more without end.
    1,500 answers of ~30 kB tell the bound (1,000) from none."""
    c = daemon.client()
    ids = [c.write(title=f"long {n}", content=f"chapter {n} " * 250)["id"] for n in range(10)]
    served = c.status()["served"]["loop"] + c.status()["served"]["readers"]
    hog = ctx.socket(zmq.DEALER)
    hog.setsockopt(zmq.LINGER, 0)
    hog.setsockopt(zmq.RCVHWM, 1)
    hog.connect(daemon.endpoint)
    try:
        sent = 1500
        for n in range(sent):
            hog.send(envelope("read", args={"ids": ids}, req_id=n))
        assert _poll(lambda: sum(c.status()["served"].values()) >= served + sent, 120)
        assert c.read(ids[0])["items"][0]["id"] == ids[0]  # the others are still served
        held = 0
        while hog.poll(2000):  # what the daemon kept for it: all of it arrives at once now
            hog.recv()
            held += 1
        assert 0 < held <= 1100, f"the daemon held {held} of {sent} unread answers"
    finally:
        hog.close()
    c.close()
