"""Requests at the edges of the contract, over real ZeroMQ: every one is answered, clearly,
and the daemon keeps serving; a stop answers what it will not do."""

import itertools
import signal
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import msgpack
import pytest
import zmq

from ragixd import contract
from ragixd.errors import RagixError
from support.daemon import Daemon


def raw(endpoint: str, frame: bytes, timeout_s: float = 20.0):
    sock = zmq.Context.instance().socket(zmq.DEALER)
    sock.setsockopt(zmq.LINGER, 0)
    sock.connect(endpoint)
    try:
        sock.send(frame)
        assert sock.poll(int(timeout_s * 1000)), "no answer"
        answer = msgpack.unpackb(sock.recv(), raw=False)
    finally:
        sock.close()
    assert contract.first_error("envelope#answer", answer) is None
    return answer


def request(endpoint: str, op: str, args: dict, req_id=1):
    return raw(endpoint, msgpack.packb({"v": 1, "id": req_id, "op": op, "args": args}))


def test_nesting_too_deep_to_check_is_answered(daemon):
    for depth in (900, 1010, 1020):
        frame = (b"\x84\xa1v\x01\xa2id\x01\xa2op\xa6search\xa4args\x81\xa4tags" + b"\x91" * depth + b"\xa4leaf")
        answer = raw(daemon.endpoint, frame)
        assert answer["ok"] is False and answer["error"]["code"] in ("invalid_input", "protocol_error")
    assert daemon.client().status()["head_seq"] == 0


def test_integers_are_whole_numbers(daemon):
    answer = request(daemon.endpoint, "search", {"query": "deploy", "k": 5.0})
    assert answer["ok"] is False and answer["error"]["code"] == "invalid_input" and "k" in answer["error"]["message"]
    answer = request(daemon.endpoint, "status", {}, req_id=1.0)
    assert answer["ok"] is False and answer["error"]["code"] == "protocol_error"


def test_queries_have_a_size_and_min_seq_a_meaning(daemon):
    answer = request(daemon.endpoint, "search", {"query": "w " * 15_000, "k": 5})
    assert answer["ok"] is False and answer["error"]["code"] == "invalid_input"
    answer = request(daemon.endpoint, "stats", {"min_seq": 10**12})
    assert answer["ok"] is False and "far past the last event" in answer["error"]["message"]


@pytest.mark.parametrize("op, args, field", [
    ("search", {"query": "deploy", "tags": [f"t{n}" for n in range(2000)]}, "tags"),
    ("search", {"query": "deploy", "mode": "fts", "types": [f"t{n}" for n in range(40_000)]}, "types"),
    ("recall", {"query": "deploy", "tags": ",".join(f"t{n}" for n in range(2000))}, "tags"),
    ("timeline", {"anchor": "MEM-0000000000000000", "scope": [f"s{n}" for n in range(40_000)]}, "scope"),
])
def test_a_filter_with_too_many_values_is_invalid_input_naming_it(daemon, op, args, field):
    """Thousands of filter values made SQL the store cannot run (an expression tree too deep,
    too many variables), answered as an internal failure."""
    answer = request(daemon.endpoint, op, args)
    assert answer["ok"] is False and answer["error"]["code"] == "invalid_input", answer
    assert answer["error"]["message"].startswith(field), answer


def test_a_filter_with_as_many_tags_as_an_item_can_hold_is_served(daemon):
    c = daemon.client()
    tags = [f"t{n}" for n in range(64)]
    item = c.write(title="Tagged", content="deploy on fridays", tags=tags)
    assert [i["id"] for i in c.search("deploy", tags=tags, mode="fts")["items"]] == [item["id"]]

def test_an_update_cannot_empty_an_item(daemon):
    c = daemon.client()
    item = c.write(title="Runbook", content="restart the worker")["id"]
    c.update(item, patch={"title": ""})  # the content still holds the memory
    for patch in ({"content": ""}, {"content": " \n"}, {"content": "\u200b"}):
        answer = request(daemon.endpoint, "update", {"id": item, "patch": patch})
        assert answer["ok"] is False and answer["error"]["code"] == "invalid_input"
        assert answer["error"]["message"].startswith("content: is blank")
    got = c.read(item)["items"][0]
    assert (got["title"], got["content"]) == ("", "restart the worker")


@pytest.mark.parametrize("args,field", [
    ({"title": "", "content": ""}, "content"),
    ({"title": "   ", "content": " \t "}, "content"),
    ({"title": "\u200b\u200b"}, "title"),
    ({"title": "", "content": "\n\n"}, "content"),
])
def test_a_blank_write_is_refused_naming_the_field(daemon, args, field):
    answer = request(daemon.endpoint, "write", args)
    assert answer["ok"] is False and answer["error"]["code"] == "invalid_input"
    assert answer["error"]["message"].startswith(f"{field}: is blank")
    assert daemon.client().stats()["events"] == 0


BLANK_LABELS = [("scope", ""), ("scope", "   "), ("tier", ""), ("tier", " "), ("type", ""), ("type", "\t"),
                ("validation", ""), ("scope", "\u200b")]


def test_a_blank_label_from_the_library_is_refused_not_defaulted(daemon):
    """As ragixctl refuses a blank --scope, --tier, --type, --store or --source: every client is
    told, on write, update, propose and import, and nothing is stored or changed."""
    from ragixd.errors import InvalidInput
    c = daemon.client()
    item = c.write(title="Labelled", content="a scope of its own", scope="infra", tier="stm")["id"]
    head = c.status()["head_seq"]
    line = {"format": "ragix-export/1", "secrecy": "S3",
            "item": {"id": "MEM-blanklabel01", "title": "imported", "content": "with a blank label"}}
    proposal = {"title": "proposed", "content": "with a blank label", "why_store": "x",
                "provenance": {"source_id": "chat:1"}}
    for field, blank in [*BLANK_LABELS, ("store", ""), ("store", "  ")]:
        with pytest.raises(InvalidInput) as err:
            c.write(title="t", content="blank label", **{field: blank})
        assert err.value.message.startswith(f"{field}: "), err.value.message
        if field != "store":  # an update cannot move an item
            assert "is blank" in err.value.message, err.value.message
            with pytest.raises(InvalidInput) as err:
                c.update(item, patch={field: blank})
            assert err.value.message.startswith(f"{field}: is blank")
        if field not in ("store", "validation"):  # a proposal may not choose them
            answer = c.propose(items=[{**proposal, field: blank}])
            assert answer["invalid"] == 1 and answer["items"][0]["error"].startswith(f"{field}: is blank")
        answer = c.call("import", {"lines": [{**line, "item": {**line["item"], field: blank}}]})
        assert answer["invalid"] == 1 and f"{field}: is blank" in str(answer["lines"]), answer
    for source in (" ", "\t\n"):
        with pytest.raises(InvalidInput) as err:
            c.write(title="t", content="blank source", provenance={"source_id": source})
        assert err.value.message.startswith("provenance.source_id: is blank")
    assert c.status()["head_seq"] == head
    got = c.read(item)["items"][0]
    assert (got["scope"], got["tier"], got["type"]) == ("infra", "stm", "note")
    # Left out, a label takes its default as before; '' is still an item without a source.
    made = c.write(title="defaults", content="no labels given", provenance={"source_id": ""})["id"]
    got = c.read(made)["items"][0]
    assert (got["scope"], got["tier"], got["type"], got["provenance"]["source_id"]) == ("project", "stm", "note", "")
    c.close()


def test_a_stop_answers_every_request_and_keeps_every_acknowledged_write(tmp_path):
    d = Daemon(tmp_path / "home").start()
    sock = zmq.Context.instance().socket(zmq.DEALER)
    sock.setsockopt(zmq.LINGER, 0)
    sock.connect(d.endpoint)
    sent = 1500
    for i in range(sent):
        sock.send(msgpack.packb({"v": 1, "id": i, "op": "write",
                                 "args": {"title": f"note {i}", "content": f"backlog item number {i}"}}))
    answers = {}
    while len(answers) < 20 and sock.poll(20_000):
        answer = msgpack.unpackb(sock.recv(), raw=False)
        answers[answer["id"]] = answer
    d.proc.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + 60
    while len(answers) < sent and time.monotonic() < deadline and sock.poll(5_000):
        answer = msgpack.unpackb(sock.recv(), raw=False)
        answers[answer["id"]] = answer
    sock.close()
    assert d.proc.wait(60) == 0
    assert len(answers) == sent  # written, or refused as busy: none left to its time-out
    codes = {a["error"]["code"] for a in answers.values() if not a["ok"]}
    assert codes <= {"busy"}
    acknowledged = {a["result"]["id"] for a in answers.values() if a["ok"]}
    d2 = Daemon(tmp_path / "home").start()
    try:
        c = d2.client()
        assert c.stats()["items"] == len(acknowledged)
        ids = sorted(acknowledged)
        found = [i["id"] for at in range(0, len(ids), 1000) for i in c.read(*ids[at:at + 1000])["items"]]
        assert set(found) == acknowledged
    finally:
        d2.stop()



def test_clients_that_keep_writing_through_a_stop_are_answered_not_left_to_time_out(tmp_path):
    """Clients that send their next write as soon as one is answered: those sent while the
    daemon drains are refused busy (or, once its socket is gone, unavailable at once), none
    waits out its time-out, and every acknowledged write is there after a restart."""
    d = Daemon(tmp_path / "home").start()
    acknowledged, failures, lock = [], [], threading.Lock()
    enough = threading.Event()

    def writer(n: int) -> None:
        c = d.client(timeout=20)
        for i in itertools.count():
            try:
                item = c.write(title=f"client {n} note {i}", content=f"written by client {n}")
            except RagixError as err:
                with lock:
                    failures.append(err)
                return
            with lock:
                acknowledged.append(item["id"])
                if len(acknowledged) >= 200:
                    enough.set()

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(12)]
    for t in threads:
        t.start()
    assert enough.wait(60)
    d.proc.send_signal(signal.SIGTERM)
    for t in threads:
        t.join()
    assert d.proc.wait(60) == 0
    assert len(failures) == len(threads)
    assert {type(err).__name__ for err in failures} <= {"Busy", "Unavailable"}, [str(e) for e in failures]
    d2 = Daemon(tmp_path / "home").start()
    try:
        assert {i["id"] for i in d2.client().read(*acknowledged)["items"]} == set(acknowledged)
    finally:
        d2.stop()


@contextmanager
def busy_readers(tmp_path, hold_s: int):
    """A daemon with one reader, held by three queued stats queries from one client, each
    waiting hold_s for a min_seq no write will reach: (client, the item written, that
    client's socket)."""
    config = tmp_path / "ragixd.toml"
    config.write_text(f"readers = 1\nmin_seq_timeout_s = {hold_s}\n")
    d = Daemon(tmp_path / "home", extra_env={"RAGIX_CONFIG": str(config)}).start()
    busy = zmq.Context.instance().socket(zmq.DEALER)
    busy.setsockopt(zmq.LINGER, 0)
    try:
        c = d.client()
        item = c.write(title="Runbook", content="restart the worker")
        busy.connect(d.endpoint)
        for i in range(3):
            busy.send(msgpack.packb({"v": 1, "id": i, "op": "stats", "args": {"min_seq": item["seq"] + 5000}}))
        time.sleep(0.3)  # let them reach the reader and its queue
        yield c, item, busy
    finally:
        busy.close()
        d.stop()


def test_a_lookup_by_id_is_not_held_behind_busy_readers(tmp_path):
    with busy_readers(tmp_path, hold_s=2) as (c, item, waiting):
        assert c.read(item["id"])["items"][0]["title"] == "Runbook"
        assert c.history(item["id"])["revisions"]
        assert not waiting.poll(0)  # the stats queries are still waiting: the lookups went ahead
        answers = []
        while len(answers) < 3 and waiting.poll(30_000):
            answers.append(msgpack.unpackb(waiting.recv(), raw=False))
        assert [a["error"]["code"] for a in answers] == ["timeout"] * 3


def test_the_readers_take_each_client_in_turn(tmp_path):
    with busy_readers(tmp_path, hold_s=1) as (c, _item, busy):
        # A search for more than the socket thread answers itself: it goes to the readers, and
        # waits for the busy client's job under way and its next one at most, not all three.
        assert c.search("worker", k=200, mode="fts")["items"]
        answered = 0
        while busy.poll(0):
            busy.recv()
            answered += 1
        assert answered <= 2


def test_a_stop_answers_a_query_waiting_for_its_min_seq_instead_of_waiting_with_it(tmp_path):
    """A read waiting for a seq no write will reach once the daemon stops is answered busy at
    the stop; the stop does not wait out its min_seq time-out (here ten minutes)."""
    config = tmp_path / "ragixd.toml"
    config.write_text("min_seq_timeout_s = 600\n")
    d = Daemon(tmp_path / "home", extra_env={"RAGIX_CONFIG": str(config)}).start()
    c = d.client(timeout=120)
    head = c.write(title="Runbook", content="restart the worker")["seq"]
    outcome: dict[str, BaseException] = {}

    def waiting() -> None:
        try:
            c.read("MEM-0000000000000000", min_seq=head + 3)
        except RagixError as err:
            outcome["err"] = err

    thread = threading.Thread(target=waiting)
    thread.start()
    time.sleep(0.5)  # the read is waiting in a reader by now
    d.proc.send_signal(signal.SIGTERM)
    assert d.proc.wait(60) == 0  # a deadline, not a measure: without the answer it waits 600 s
    thread.join(60)
    assert type(outcome.get("err")).__name__ == "Busy", repr(outcome.get("err"))


def test_writes_a_client_pipelines_commit_in_the_order_sent_some_on_the_loop_thread(daemon):
    """A lone write is committed on the socket's thread when the writer is idle (status
    counts it); a client that sends writes without waiting still has them committed in the
    order it sent them, each answered once, whichever thread committed it."""
    c = daemon.client()
    before = c.status()["served"]["loop_writes"]
    for i in range(20):
        c.write(title=f"lone {i}", content=f"a write sent alone, number {i}")
    assert c.status()["served"]["loop_writes"] >= before + 10  # most found the writer idle
    sock = zmq.Context.instance().socket(zmq.DEALER)
    sock.setsockopt(zmq.LINGER, 0)
    sock.connect(daemon.endpoint)
    sent = 300
    try:
        for i in range(sent):
            if i % 50 == 0:
                time.sleep(0.01)  # let the writer go idle now and then, so both paths are taken
            sock.send(msgpack.packb({"v": 1, "id": i, "op": "write",
                                     "args": {"title": f"piped {i}", "content": f"pipelined write number {i}"}}))
        answers = {}
        while len(answers) < sent and sock.poll(20_000):
            answer = msgpack.unpackb(sock.recv(), raw=False)
            assert answer["ok"] and answer["id"] not in answers
            answers[answer["id"]] = answer["result"]
    finally:
        sock.close()
    assert len(answers) == sent
    seqs = [answers[i]["seq"] for i in range(sent)]
    assert seqs == sorted(seqs) and len(set(seqs)) == sent
    items = c.read(*[answers[i]["id"] for i in range(sent)])["items"]
    assert [item["title"] for item in items] == [f"piped {i}" for i in range(sent)]
    assert c.verify()["ok"]
    c.close()


def test_a_start_removes_the_scratch_database_of_a_verify_cut_short(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    for name in (".verify-abc123.db", ".verify-abc123.db-journal", "notes.verify-keep.db"):
        (home / name).write_bytes(b"left by a daemon killed during verify")
    d = Daemon(home).start()
    try:
        assert not (home / ".verify-abc123.db").exists() and not (home / ".verify-abc123.db-journal").exists()
        assert (home / "notes.verify-keep.db").exists()  # not one of ours
        assert d.client().verify()["ok"]
    finally:
        d.stop()


def test_a_home_whose_vectors_directory_is_a_file_stops_the_start_with_one_line(tmp_path):
    import subprocess
    import sys
    import shutil
    home = tmp_path / "home"
    d = Daemon(home).start()
    d.client().write(title="with a vector", content="so the index is opened at the next start")
    d.stop()
    shutil.rmtree(home / "vectors")
    (home / "vectors").write_text("not a directory")
    env = {"RAGIX_HOME": str(home), "RAGIX_ENDPOINT": f"ipc://{tmp_path}/s.sock",
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "PATH": "/usr/bin:/bin"}
    proc = subprocess.run([sys.executable, "-m", "ragixd.daemon"], env=env, capture_output=True, text=True,
                          timeout=120, cwd=Path(__file__).resolve().parents[2])
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert f"ragixd: home {home}: cannot open it:" in proc.stderr and "vectors" in proc.stderr
