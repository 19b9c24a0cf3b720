"""Item ids on the command line and over the wire: a string that is not of the MEM-… shape is
invalid input (exit 2) for every op that takes ids, never 'not found'; a read of more ids than
one request takes is paged by ragixctl. One daemon serves the module."""

import json

import pytest

from ragix_client import ctl
from ragixd.errors import InvalidInput, NotFound
from support.daemon import Daemon
from support.daemon import run_ctl as run


@pytest.fixture(scope="module")
def daemon(tmp_path_factory):
    d = Daemon(tmp_path_factory.mktemp("ids") / "home").start()
    yield d
    d.stop()


@pytest.fixture(scope="module")
def item(daemon):
    c = daemon.client()
    try:
        return c.write(title="An item to name", content="ids around it")["id"]
    finally:
        c.close()




# Each command that takes an id, with 'BAD' where the malformed one goes.
COMMANDS = [
    ["read", "BAD"], ["read", "ITEM", "BAD"], ["history", "BAD"], ["timeline", "BAD"],
    ["update", "BAD", "--content", "x"], ["archive", "BAD"], ["link", "BAD", "ITEM"],
    ["link", "ITEM", "BAD"], ["use", "BAD"], ["palace", "get", "BAD"], ["palace", "assign", "BAD"],
]


@pytest.mark.parametrize("bad", ["garbage", "MEM-", "mem-0123456789abcdef", "MEM-abcd\n", "MEM-ab cd"])
@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c))
def test_a_malformed_id_is_invalid_input_for_every_command(daemon, item, capsys, command, bad):
    args = [{"BAD": bad, "ITEM": item}.get(a, a) for a in command]
    code, out, err = run(daemon, capsys, *args)
    assert code == 2, (code, out, err)
    assert "invalid_input" in err and "is not an item id (MEM-" in err and repr(bad) in err
    assert "not_found" not in err and "does not match" not in err


def test_a_malformed_id_is_the_same_error_from_the_library(daemon, item):
    c = daemon.client()
    try:
        for call in (lambda: c.read(item, "garbage"), lambda: c.history("garbage"),
                     lambda: c.use(uses={"garbage": 1}), lambda: c.archive("MEM-abcd\n")):
            with pytest.raises(InvalidInput) as err:
                call()
            assert "is not an item id" in err.value.message
        with pytest.raises(NotFound):  # well formed, but no such item: not found, as documented
            c.history("MEM-0000000000000000")
        assert c.read("MEM-0000000000000000")["count"] == 0
    finally:
        c.close()


def test_an_id_with_a_trailing_newline_cannot_be_imported(daemon):
    line = {"format": "ragix-export/1", "secrecy": "S3",
            "item": {"id": "MEM-newline1\n", "title": "newline id", "content": "x"}}
    c = daemon.client()
    try:
        r = c.call("import", {"lines": [line]})
        assert r["invalid"] == 1 and r["created"] == 0
        with pytest.raises(InvalidInput):
            c.read("MEM-newline1\n")
    finally:
        c.close()


def test_read_of_more_ids_than_one_request_takes_is_paged(daemon, item, capsys):
    missing = [f"MEM-{i:016x}" for i in range(1, 2501)]
    code, out, err = run(daemon, capsys, "--json", "read", item, *missing, item)
    assert code == 1
    error = json.loads(out)["error"]
    assert error["code"] == "not_found" and sorted(error["details"]["ids"]) == missing
    assert [i["id"] for i in error["details"]["items"]] == [item]  # each item once (session 27)

    code, out, err = run(daemon, capsys, "--json", "read", *[item] * 2300)
    answer = json.loads(out)
    assert code == 0 and answer["count"] == 1 and [i["id"] for i in answer["items"]] == [item]
    assert "at most" not in err


def test_the_page_size_is_the_read_ops_limit():
    schema = json.loads((ctl.Path(__file__).resolve().parents[2] / "schemas/ops/read.json").read_text())
    assert ctl.READ_PAGE == schema["request"]["properties"]["ids"]["maxItems"]


def _usage(daemon, ids):
    c = daemon.client()
    try:
        return {i["id"]: i["usage_count"] for i in c.read(*ids)["items"]}
    finally:
        c.close()


def test_use_of_more_ids_than_one_request_takes_checks_them_all_before_recording_any(daemon, item, capsys):
    missing = [f"MEM-{i:016x}" for i in range(1, ctl.USE_BATCH + 2)]
    before = _usage(daemon, [item])
    code, out, err = run(daemon, capsys, "use", item, *missing)
    assert code == 1 and "not_found" in err and missing[0] in err and "at most" not in err, err
    assert _usage(daemon, [item]) == before  # nothing of a first batch was recorded
    code, out, err = run(daemon, capsys, "use", item, *missing[:-2], "garbage")
    assert code == 2 and "is not an item id" in err and "'garbage'" in err
    assert _usage(daemon, [item]) == before


def test_use_sends_its_ids_in_batches_and_says_them_as_one_answer(daemon, capsys, monkeypatch):
    c = daemon.client()
    ids = [c.write(title=f"used in batches {n}", content=f"batch item {n}")["id"] for n in range(5)]
    c.close()
    monkeypatch.setattr(ctl, "USE_BATCH", 2)
    code, out, err = run(daemon, capsys, "--json", "use", *ids, ids[0], "--count", "3")
    answer = json.loads(out)
    assert code == 0 and set(answer) == {"recorded", "seq"} and answer["recorded"] == 5
    head = daemon.client().status()["head_seq"]
    assert answer["seq"] == head  # the last batch's
    assert _usage(daemon, ids) == {**dict.fromkeys(ids, 3), ids[0]: 6}  # given twice: used twice
    code, out, err = run(daemon, capsys, "use", *ids)
    assert code == 0 and out.startswith("recorded usage of 5 item(s)")
    assert _usage(daemon, ids) == {**dict.fromkeys(ids, 4), ids[0]: 7}
    code, out, err = run(daemon, capsys, "use", *ids[:4], "MEM-0000000000000000")
    assert code == 1 and "MEM-0000000000000000" in err
    assert _usage(daemon, ids) == {**dict.fromkeys(ids, 4), ids[0]: 7}  # the first batches were not sent


def test_the_use_batch_is_the_use_ops_limit():
    schema = json.loads((ctl.Path(__file__).resolve().parents[2] / "schemas/ops/use.json").read_text())
    assert ctl.USE_BATCH == schema["request"]["properties"]["uses"]["maxProperties"]
