"""What one request can make the daemon send or hold: answers are bounded, paged answers stop
at a budget and say where to go on, a read names each item once, and a large write is never
committed on the socket's own thread (session 27's protocol fuzzing)."""

from __future__ import annotations

import json
import subprocess
import sys

import msgpack
import pytest
import zmq

from ragixd.errors import TooLarge

CAP = 4096  # max_message_bytes: answers up to 2 x 4096 bytes, pages of 1024 characters


@pytest.fixture
def capped(tmp_path):
    from support.daemon import Daemon
    d = Daemon(tmp_path / "home", extra_env={"RAGIX_MAX_MESSAGE_BYTES": str(CAP)}).start()
    yield d
    d.stop()


def _fill(c, n: int, size: int) -> list[str]:
    return [c.write(title=f"long note {i}", content=f"note {i} " + "word " * (size // 5))["id"]
            for i in range(n)]


def test_an_answer_over_the_limit_is_too_large_with_the_request_id_and_the_daemon_goes_on(capped):
    c = capped.client()
    ids = _fill(c, 12, 2500)
    head = c.status()["head_seq"]
    with pytest.raises(TooLarge) as caught:
        c.read(*ids)  # ~30 kB of items against an 8 kB answer limit
    assert "ask for fewer" in caught.value.message
    assert caught.value.details["limit"] == 2 * CAP
    assert len(c.read(*ids[:2])["items"]) == 2  # fewer at a time are answered
    sock = zmq.Context.instance().socket(zmq.DEALER)
    sock.setsockopt(zmq.LINGER, 0)
    sock.connect(capped.endpoint)
    try:
        sock.send(msgpack.packb({"v": 1, "id": "big-read", "op": "read", "args": {"ids": ids}}))
        assert sock.poll(20_000)
        answer = msgpack.unpackb(sock.recv(), raw=False)
    finally:
        sock.close()
    assert answer["id"] == "big-read" and answer["error"]["code"] == "too_large"
    assert c.status()["head_seq"] == head  # nothing written by either


def test_a_request_over_the_size_cap_is_answered_with_its_id(capped):
    sock = zmq.Context.instance().socket(zmq.DEALER)
    sock.setsockopt(zmq.LINGER, 0)
    sock.connect(capped.endpoint)
    try:
        # The id comes after the text in the envelope: it is still found.
        sock.send(msgpack.packb({"v": 1, "op": "write", "args": {"title": "x", "content": "y" * 5000},
                                 "id": 77}))
        assert sock.poll(20_000)
        answer = msgpack.unpackb(sock.recv(), raw=False)
    finally:
        sock.close()
    assert answer["id"] == 77 and answer["error"]["code"] == "too_large"


def test_export_and_tail_pages_stop_at_their_budget_and_every_item_still_comes(capped, tmp_path):
    c = capped.client()
    ids = _fill(c, 12, 1500)
    page = c.export(tier="S3", limit=500)
    assert 0 < len(page["lines"]) < 12 and page["next"] is not None  # cut by size, not by count
    out = tmp_path / "all.jsonl"
    done = subprocess.run([sys.executable, "-m", "ragix_client.ctl", "--endpoint", capped.endpoint, "--json",
                           "export", "--tier", "S3", "--output", str(out)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert [json.loads(line)["item"]["id"] for line in out.read_text().splitlines()] == ids
    events = c.tail(after=0, limit=1000)["events"]
    assert 0 < len(events) < 12  # twelve creates alone would not fit
    head = c.status()["head_seq"]
    followed = [e["seq"] for _, e in zip(range(head), c.follow(after=0, idle=5))]
    assert followed == list(range(1, head + 1))


def test_a_read_names_each_item_once(daemon):
    c = daemon.client()
    a = c.write(title="first", content="one")["id"]
    b = c.write(title="second", content="two")["id"]
    items = c.read(a, b, a, a, b)["items"]
    assert [item["id"] for item in items] == [a, b]


def test_a_large_update_is_committed_by_the_writer_not_on_the_socket_thread(daemon):
    """The size that keeps a write off the socket's thread counts the text inside a patch."""
    c = daemon.client()
    pointer = c.write(title="a long document", content="short for now", type="pointer")["id"]
    before = c.status()["served"]["loop_writes"]
    c.update(pointer, patch={"content": "a much longer document. " * 800})  # 19,200 characters
    assert c.status()["served"]["loop_writes"] == before
    assert len(c.read(pointer)["items"][0]["content"]) == 19_200


def test_search_and_recall_with_date_filters_are_served(daemon):
    """search and recall take dates under the names a timeline takes counts by (a bound on the
    loop thread once added them up, and every such search failed)."""
    c = daemon.client()
    c.write(title="cats", content="cats sleep all day")
    assert len(c.search("cats", mode="fts", after="2000-01-01")["items"]) == 1
    assert len(c.search("cats", mode="fts", after="2000-01-01", before="2999-01-01")["items"]) == 1
    assert "cats sleep" in c.recall("what do cats do", after="2000-01-01")["text"]


def test_an_export_page_counts_provenance_too(capped, tmp_path):
    c = capped.client()
    ids = [c.write(title=f"cut {n}", content="short",
                   provenance={"source_id": f"doc{n}", "chunk_ids": [f"chunk-{n}-{k:04d}-" + "x" * 40 for k in range(50)]}
                   )["id"] for n in range(8)]  # ~2.5 kB of provenance each, small text
    page = c.export(tier="S3", limit=500)
    assert 0 < len(page["lines"]) < 8 and page["next"] is not None
    out = tmp_path / "all.jsonl"
    done = subprocess.run([sys.executable, "-m", "ragix_client.ctl", "--endpoint", capped.endpoint, "--json",
                           "export", "--output", str(out)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert [json.loads(line)["item"]["id"] for line in out.read_text().splitlines()] == ids


def test_ragixctl_read_halves_a_page_whose_answer_is_too_large(capped):
    c = capped.client()
    ids = _fill(c, 12, 2500)  # ~30 kB of items against an 8 kB answer limit
    done = subprocess.run([sys.executable, "-m", "ragix_client.ctl", "--endpoint", capped.endpoint, "--json",
                           "read", *ids], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert [item["id"] for item in json.loads(done.stdout)["items"]] == ids


def test_a_long_history_comes_in_pages_and_ragixctl_follows_them(capped):
    c = capped.client()
    item = c.write(title="revised often", content="version 0 " + "word " * 400)["id"]
    for n in range(1, 12):
        c.update(item, patch={"content": f"version {n} " + "word " * 400}, reason=f"edit {n}")
    page = c.history(item)
    assert page["next"] is not None and 0 < len(page["revisions"]) < 12  # ~2 kB snapshots, 4 kB pages
    seen, after = [], 0
    while after is not None:
        page = c.history(item, after=after)
        seen += [r["revision"] for r in page["revisions"]]
        after = page["next"]
    assert seen == list(range(1, 13))
    one = c.history(item, after=3, limit=1)
    assert [r["revision"] for r in one["revisions"]] == [4] and one["next"] == 4
    assert c.history(item, after=12) == {"id": item, "revisions": [], "next": None}
    done = subprocess.run([sys.executable, "-m", "ragix_client.ctl", "--endpoint", capped.endpoint, "--json",
                           "history", item], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    whole = json.loads(done.stdout)
    assert [r["revision"] for r in whole["revisions"]] == list(range(1, 13)) and whole["next"] is None
    assert whole["revisions"][-1]["snapshot"]["content"].startswith("version 11 ")
    human = subprocess.run([sys.executable, "-m", "ragix_client.ctl", "--endpoint", capped.endpoint,
                            "history", item], capture_output=True, text=True, timeout=120)
    assert human.returncode == 0 and human.stdout.count("\n#") == 11, human.stdout


def test_history_limit_and_after(daemon):
    c = daemon.client()
    item = c.write(title="small", content="v0")["id"]
    for n in range(1, 4):
        c.update(item, patch={"content": f"v{n}"}, reason=f"edit {n}")
    whole = c.history(item)
    assert [r["revision"] for r in whole["revisions"]] == [1, 2, 3, 4] and whole["next"] is None
    page = c.history(item, limit=2)
    assert [r["revision"] for r in page["revisions"]] == [1, 2] and page["next"] == 2
    page = c.history(item, after=2, limit=2)
    assert [r["snapshot"]["content"] for r in page["revisions"]] == ["v2", "v3"] and page["next"] is None
