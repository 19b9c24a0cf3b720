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
