"""The real daemon over real ZeroMQ: ops round-trip and every answer matches its schema."""

import pytest

from ragixd import contract
from ragixd.errors import InvalidInput, NotFound, UnknownOp


def check(op, result):
    problem = contract.first_error(f"ops/{op}#answer", result)
    assert problem is None, (op, problem)
    return result


def test_ops_round_trip_with_valid_answers(daemon):
    c = daemon.client()
    check("status", c.status())
    a = check("write", c.write(title="Deploy window", content="Fridays 14-16h, sécurité first",
                               tags=["ops"], entities=["Alice"]))
    b = check("write", c.write(title="Rollback plan", content="keep the previous image", tags=["ops"]))
    assert a["status"] == "created" and a["seq"] >= 1
    found = check("search", c.search("securite deploy", min_seq=b["seq"]))
    assert found["items"][0]["id"] == a["id"]
    check("read", c.read(a["id"], b["id"]))
    check("update", c.update(a["id"], patch={"content": "Thursdays"}, reason="moved"))
    check("history", c.history(a["id"]))
    check("timeline", c.timeline(a["id"]))
    check("link", c.link(src=a["id"], dst=b["id"], rel="supports"))
    check("use", c.use(uses={a["id"]: 2}))
    check("palace.assign", c.palace_assign(a["id"]))
    check("palace.list", c.palace_list(""))
    check("palace.get", c.palace_get(a["id"]))
    check("entities", c.entities())
    check("stats", c.stats())
    check("tail", c.tail(after=0))
    check("archive", c.archive(b["id"]))
    check("verify", c.verify())
    check("rebuild", c.rebuild())
    assert c.verify()["ok"]
    c.close()


def test_errors_come_back_as_the_same_exceptions(daemon):
    c = daemon.client()
    with pytest.raises(InvalidInput) as err:
        c.write(title="x" * 300)
    assert err.value.field == "title"
    with pytest.raises(InvalidInput):
        c.write(title=42)
    with pytest.raises(NotFound):
        c.history("MEM-doesnotexist00")
    with pytest.raises(UnknownOp):
        c.call("drop_everything")
    assert c.stats()["items"] == 0
    c.close()


def test_every_event_published_matches_its_schema(daemon):
    c = daemon.client()
    a = c.write(title="one", content="x")
    c.update(a["id"], patch={"title": "two"})
    c.archive(a["id"])
    events = c.tail(after=0)["events"]
    assert [e["type"] for e in events] == ["item.created", "item.embedded", "item.updated",
                                          "item.embedded", "item.archived"]
    for event in events:
        contract.check_event(event)
    c.close()


def test_the_live_stream_carries_every_committed_event_in_order(daemon):
    """The PUB socket streams what the log holds, in seq order, each event matching its schema
    (a subscriber joins late — ZeroMQ's slow joiner — so it is compared from its first event)."""
    import threading
    import time

    writer, listener = daemon.client(), daemon.client()
    got: list[dict] = []
    until: dict[str, int] = {}

    def listen() -> None:
        for event in listener.subscribe(timeout=10):  # idle this long: the stream ended
            got.append(event)
            if event["seq"] >= until.get("seq", event["seq"] + 1):
                return

    thread = threading.Thread(target=listen, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not got and time.monotonic() < deadline:  # until the subscription is live
        writer.write(title="warm-up", content=f"waiting for the stream {time.monotonic()}", dedup=False)
        time.sleep(0.02)
    assert got, "no event reached the subscriber"
    for n in range(20):
        last = writer.write(title=f"Batch {n}", content=f"glaze test {n}", tags=["kiln"])
    writer.update(last["id"], patch={"title": "Batch final"})
    until["seq"] = writer.archive(last["id"])["seq"]
    thread.join(30)
    assert not thread.is_alive() and got[-1]["seq"] == until["seq"]
    stored = writer.tail(after=got[0]["seq"] - 1, limit=1000)["events"]
    seqs = [e["seq"] for e in got]
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))
    assert got == stored[:len(got)]
    for event in got:
        contract.check_event(event)
    writer.close()
    listener.close()


def test_a_second_daemon_on_the_same_home_is_refused(daemon, tmp_path):
    from support.daemon import Daemon
    import subprocess
    import sys
    other = Daemon(daemon.home)
    proc = subprocess.run([sys.executable, "-m", "ragixd"], env=other.env, capture_output=True,
                          timeout=30)
    assert proc.returncode == 2
    assert b"already using" in proc.stderr
    assert daemon.client().status()["head_seq"] == 0  # the first one still serves


def _start_failure(tmp_path, *args):
    import os
    import subprocess
    import sys
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAGIX_")}
    env.update(XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_CACHE_HOME=str(tmp_path / "cache"))
    proc = subprocess.run([sys.executable, "-m", "ragixd", *args], env=env, capture_output=True, text=True,
                          timeout=30)
    messages = [line for line in proc.stderr.splitlines() if line.startswith("ragixd: ")]
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and len(messages) == 1, proc.stderr
    return messages[0]


def test_a_home_that_is_a_file_stops_the_daemon_with_one_line(tmp_path):
    home = tmp_path / "file.txt"
    home.write_text("not a home")
    line = _start_failure(tmp_path, "--home", str(home), "--endpoint", f"ipc://{tmp_path}/s.sock")
    assert "exists and is not a directory" in line and str(home) in line


def test_an_endpoint_that_cannot_be_created_stops_the_daemon_with_one_line(tmp_path):
    line = _start_failure(tmp_path, "--home", str(tmp_path / "h"), "--endpoint", "ipc:///proc/ragix-test.sock")
    assert "ipc:///proc/ragix-test.sock" in line and "cannot create" in line


def test_a_bad_vectors_layout_stops_the_daemon_with_one_line_and_a_good_one_serves(tmp_path):
    cfg = tmp_path / "ragixd.toml"
    cfg.write_text('[vectors]\nlayout = "hnsw"\n')
    line = _start_failure(tmp_path, "--home", str(tmp_path / "h"), "--endpoint", f"ipc://{tmp_path}/s.sock",
                          "--config", str(cfg))
    assert "[vectors] layout = 'hnsw'" in line and "auto, graph, scan" in line
    from support.daemon import Daemon
    cfg.write_text('[vectors]\nlayout = "graph"\n')
    d = Daemon(tmp_path / "h", args=["--config", str(cfg)]).start()
    try:
        client = d.client()
        client.write(title="graph layout", content="served with every index a graph")
        assert client.search("graph layout", k=1)["items"][0]["title"] == "graph layout"
        # a graph past 10k vectors; below, the flat table, as with every layout
        assert [e["layout"] for e in client.embedders()["embedders"]] == ["flat"]
    finally:
        d.stop()


def test_following_the_log_gives_every_event_once_in_order_while_clients_write(daemon):
    """Client.follow (ragixctl tail): the stored events, then the live ones, with nothing lost
    between the two nor to the slow joiner, none twice, while four clients write."""
    import threading

    first = daemon.client().write(title="before", content="already stored")
    follower = daemon.client()
    got: list[dict] = []
    until: dict[str, int] = {}  # the head once the writers are done

    def follow() -> None:
        for event in follower.follow(after=0, idle=30):
            got.append(event)
            if event["seq"] >= until.get("seq", event["seq"] + 1):
                return

    thread = threading.Thread(target=follow, daemon=True)
    thread.start()

    def write(n: int) -> None:
        c = daemon.client()
        for i in range(25):
            c.write(title=f"writer {n} note {i}", content=f"followed {n} {i}")
        c.close()

    writers = [threading.Thread(target=write, args=(n,)) for n in range(4)]
    for t in writers:
        t.start()
    for t in writers:
        t.join()
    until["seq"] = daemon.client().write(title="after", content="the last one")["seq"]
    thread.join(60)
    assert not thread.is_alive()
    seqs = [e["seq"] for e in got]
    assert seqs == list(range(1, until["seq"] + 1))
    assert got[0]["payload"]["item"]["id"] == first["id"]
    follower.close()


def test_a_fresh_daemons_status_lists_every_projector_at_0(daemon):
    c = daemon.client()
    status = c.status()
    assert status["head_seq"] == 0
    assert set(status["projectors"]) >= {"items", "fts", "revisions", "entities"}
    assert set(status["projectors"].values()) == {0}
    seq = c.write(title="first", content="the first note")["seq"]
    assert set(c.status()["projectors"].values()) == {seq}
    c.close()


def test_stats_and_status_name_every_projector_on_a_fresh_home(daemon):
    # A projector that has applied nothing yet has no position row: both answers say 0.
    c = daemon.client()
    status, stats = c.status()["projectors"], c.stats()["projectors"]
    assert stats == status and len(stats) >= 9 and set(stats.values()) == {0}
    seq = c.write(title="first", content="the first memory")["seq"]
    assert c.stats()["projectors"] == c.status()["projectors"] == {name: seq for name in stats}
