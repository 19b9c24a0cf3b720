"""ragixctl's rough edges found by trying every command with odd input: numbers too big to
send, an empty import, proposals that were not all stored, and counts said in good English.
One daemon serves the module; each test writes what it needs under its own title."""

import json

import pytest

from ragix_client import ctl, render
from ragixd.errors import InvalidInput
from support.daemon import Daemon
from support.daemon import run_ctl as run


@pytest.fixture(scope="module")
def daemon(tmp_path_factory):
    d = Daemon(tmp_path_factory.mktemp("edges") / "home").start()
    yield d
    d.stop()




@pytest.mark.parametrize("args, option", [
    (["search", "x", "--min-seq", "99999999999999999999999"], "min_seq"),
    (["entities", "--limit", "-99999999999999999999"], "limit"),
    (["timeline", "MEM-0000000000000001", "--before", str(2**64)], "before"),
])
def test_a_number_too_big_to_send_names_its_option(daemon, capsys, args, option):
    code, out, err = run(daemon, capsys, *args)
    assert code == 2 and f"invalid_input: {option}: " in err and "out of range" in err, err


def test_a_number_too_big_to_send_is_named_inside_a_mapping_too(daemon):
    c = daemon.client()
    try:
        with pytest.raises(InvalidInput) as err:
            c.use(uses={"MEM-0000000000000001": 2**70})
        assert err.value.details["field"] == "uses/MEM-0000000000000001"
    finally:
        c.close()


def test_an_empty_import_says_it_imported_nothing(daemon, capsys, tmp_path):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    code, out, err = run(daemon, capsys, "import", str(empty))
    assert code == 0 and out.startswith("created 0, exists 0, conflict 0")
    code, out, err = run(daemon, capsys, "--json", "import", str(empty))
    answer = json.loads(out)
    assert code == 0 and answer["created"] == 0 and answer["invalid"] == 0 and answer["problems"] == []


def test_propose_exits_1_when_a_proposal_was_refused_or_invalid(daemon, capsys, tmp_path):
    good = {"title": "Kiln schedule", "content": "Bisque firing on Tuesdays", "why_store": "asked",
            "provenance": {"source_kind": "chat", "source_id": "chat:kiln"}}
    path = tmp_path / "p.json"
    path.write_text(json.dumps([good]))
    assert run(daemon, capsys, "propose", "--file", str(path))[0] == 0
    path.write_text(json.dumps([{**good, "content": "Glazes on Wednesdays"}, {"why_store": "neither a title nor a content"}]))
    code, out, err = run(daemon, capsys, "propose", "--file", str(path))
    assert code == 1 and "accepted 1" in out and "invalid 1" in out
    path.write_text("[]")
    code, out, err = run(daemon, capsys, "propose", "--file", str(path))
    assert code == 2 and "no proposals" in err and "at least 1" not in err


def _answer(*blocks: str) -> str:
    return "The plan.\n" + "".join(f"<MEMORY_PROPOSALS_JSON>{b}</MEMORY_PROPOSALS_JSON>\n" for b in blocks)


def test_parse_exits_1_as_propose_does_when_a_proposal_was_not_stored(daemon, capsys, tmp_path):
    good = {"title": "Oven schedule", "content": "Bread on Mondays", "why_store": "asked",
            "provenance": {"source_kind": "chat", "source_id": "chat:oven"}}
    secret = {**good, "title": "Oven login", "content": "password: hunter2"}
    path = tmp_path / "answer.txt"
    path.write_text(_answer(json.dumps([good])))
    code, out, err = run(daemon, capsys, "parse", "--file", str(path))
    assert code == 0 and "The plan." in out and "accepted 1" in err
    for blocks, shown in (([json.dumps([{**good, "content": "Cakes on Fridays"}, secret])], "refused 1"),
                          ([json.dumps([{**good, "content": "Pies on Sundays"}, {**good, "tier": "xtm"}])], "invalid 1"),
                          ([json.dumps([{**good, "content": "Buns on Saturdays"}]), "[not json"],
                           "proposal error: malformed JSON")):
        path.write_text(_answer(*blocks))
        code, out, err = run(daemon, capsys, "parse", "--file", str(path))
        assert code == 1 and "The plan." in out and "accepted 1" in err and shown in err, (blocks, err)
        code, out, err = run(daemon, capsys, "--json", "parse", "--file", str(path))
        assert code == 1 and json.loads(out)["text"].startswith("The plan.")  # the answer's shape, as before


def test_counts_of_one_are_singular():
    assert "(private, 1 item)" in render.render_entities(
        {"entities": [{"name": "Alice", "store": "private", "mention_count": 1, "item_ids": ["MEM-aaaa"]}]})
    listing = {"level": "domain", "path": "", "count": 1, "children": [{"name": "project", "count": 1}]}
    assert render.render_palace(listing).startswith("domains under / (1 item)")
    assert "(2 items)" in render.render_palace({**listing, "count": 2})
    card = {"level": "card", "path": "d/r/s/MEM-abcd1234", "count": 1,
            "children": [{"name": "MEM-abcd1234", "count": 1}]}
    assert render.render_palace(card).startswith("card /d/r/s/MEM-abcd1234 (1 item)")
    assert render.render_palace({**card, "path": "d/r/s"}).startswith("cards under /d/r/s")


def test_init_names_the_endpoint_in_its_next_step_when_ragixctl_would_not_find_it(tmp_path, capsys,
                                                                                   monkeypatch):
    for name in ("RAGIX_HOME", "RAGIX_ENDPOINT", "RAGIX_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    endpoint = f"ipc://{tmp_path}/own.sock"
    assert ctl.main(["--endpoint", endpoint, "init", "--home", str(tmp_path / "h"),
                     "--config", str(tmp_path / "a.toml")]) == 0
    assert f"then `ragixctl --endpoint {endpoint} status`" in capsys.readouterr().out
    assert ctl.main(["init", "--home", str(tmp_path / "h"), "--config", str(tmp_path / "b.toml")]) == 0
    assert "then `ragixctl status`" in capsys.readouterr().out  # the default: nothing to name
    monkeypatch.setenv("RAGIX_ENDPOINT", endpoint)  # as the README's throwaway home sets it
    assert ctl.main(["init", "--config", str(tmp_path / "a.toml")]) == 0
    assert "then `ragixctl status`" in capsys.readouterr().out


def test_tail_from_past_the_last_event_says_why_nothing_comes(daemon, capsys):
    daemon.client().write(title="Tail anchor", content="an event to have a head")
    code, out, err = run(daemon, capsys, "tail", "--from", "1000000", "--idle", "0.2")
    assert code == 0 and out == ""
    assert "--from 1000000 is past the last event" in err
    code, out, err = run(daemon, capsys, "tail", "--from", "1", "--count", "1")
    assert code == 0 and out and "past the last event" not in err


@pytest.mark.parametrize("option", ["--type", "--tier", "--scope", "--store", "--source"])
@pytest.mark.parametrize("value", ["", "  "])
def test_an_empty_item_option_is_a_usage_error_naming_it(daemon, capsys, option, value):
    """Not a silent default on write, nor 'give at least one field' on update."""
    c = daemon.client()
    item = c.write(title="Blank options", content="an item to update")["id"]
    before = c.stats()["head_seq"]
    for args in (["write", "--title", "t", "--content", "blank option", option, value],
                 ["update", item, option, value]):
        code, out, err = run(daemon, capsys, *args)
        assert code == 2 and f"{option}: is empty" in err and out == "", (args, err)
    assert c.stats()["head_seq"] == before


def test_one_line_listings_keep_one_line_per_row_when_a_title_or_reason_holds_line_breaks(daemon, capsys):
    c = daemon.client()
    item = c.write(title="Rows\nstay whole", content="a title of two lines")["id"]
    seq = c.update(item, patch={"content": "edited"}, reason="first line\r\nsecond line")["seq"]
    for args, rows in ((["history", item], 2), (["search", "rows stay whole", "--k", "1"], 2),
                       (["timeline", item, "--before", "0", "--after", "0"], 1)):
        code, out, err = run(daemon, capsys, *args, "--min-seq", str(seq))
        assert code == 0 and len(out.splitlines()) == rows, (args, out)
        assert "Rows\\nstay whole" in out
    assert "first line\\nsecond line" in run(daemon, capsys, "history", item)[1]
    code, out, err = run(daemon, capsys, "read", item)  # a block: the second line indented under the first
    assert "  title:   Rows\n           stay whole\n" in out


def test_search_with_archived_items_marks_them(daemon, capsys):
    c = daemon.client()
    kept = c.write(title="Glacier kept", content="glacier notes still current")["id"]
    gone = c.write(title="Glacier gone", content="glacier notes now obsolete")["id"]
    seq = c.archive(gone)["seq"]
    code, out, err = run(daemon, capsys, "search", "glacier notes", "--include-archived", "--min-seq", str(seq))
    rows = {line.split()[1]: line for line in out.splitlines()[1:]}
    assert code == 0 and rows[gone].endswith("(archived)") and not rows[kept].endswith("(archived)")
    code, out, err = run(daemon, capsys, "timeline", gone, "--before", "0", "--after", "0")
    assert code == 0 and out.startswith(">") and out.rstrip().endswith("(archived)")


def test_pull_of_a_text_already_held_says_so_as_write_does(daemon):
    import subprocess
    import sys
    pull = [sys.executable, "-m", "ragix_client.ctl", "--endpoint", daemon.endpoint, "pull"]
    first = subprocess.run(pull, input=b"A model answer pulled twice\n", capture_output=True, timeout=60)
    again = subprocess.run(pull, input=b"A model answer pulled twice\n", capture_output=True, timeout=60)
    assert first.returncode == again.returncode == 0 and first.stdout == again.stdout
    assert b"already held" not in first.stderr
    assert b"already held this text" in again.stderr and first.stdout.strip() in again.stderr


def test_link_reads_its_relation_as_an_items_links_do(daemon, capsys):
    c = daemon.client()
    src = c.write(title="Link source", content="the claim", type="FACT")["id"]
    dst = c.write(title="Link target", content="the evidence")["id"]
    assert c.read(src)["items"][0]["type"] == "fact"  # as --type FACT is read
    code, out, err = run(daemon, capsys, "--json", "link", src, dst, "--rel", " SUPPORTS ")
    assert code == 0 and json.loads(out)["rel"] == "supports"
    assert c.read(src)["items"][0]["links"] == [{"rel": "supports", "to": dst}]
    code, out, err = run(daemon, capsys, "link", src, dst, "--rel", "proves")
    assert code == 2 and "must be one of supports" in err and "'proves'" in err


def test_an_imported_link_whose_relation_is_not_text_is_left_out_with_a_note(daemon):
    c = daemon.client()
    dst = c.write(title="Import link target", content="target of an odd link")["id"]
    line = {"format": "ragix-export/1", "secrecy": "S3",
            "item": {"id": "MEM-oddlink1", "title": "odd link", "content": "x", "links": [{"rel": 5, "to": dst}]}}
    r = c.call("import", {"lines": [line]})
    assert r["created"] == 1 and any("rel" in note for note in r["lines"][0]["notes"]), r


def test_a_durable_tier_refused_for_want_of_a_source_names_the_option(daemon, capsys):
    code, out, err = run(daemon, capsys, "write", "--title", "tier hint", "--content",
                         "the build runs on two cores", "--tier", "mtm")
    assert code == 1 and "tier mtm requires provenance.source_id" in err
    assert "--source" in err and out == ""
    code, out, err = run(daemon, capsys, "write", "--title", "tier hint", "--content",
                         "the build runs on two cores", "--tier", "mtm", "--source", "notes.md:3")
    assert code == 0 and out.strip().startswith("MEM-"), err
    item = out.strip()
    code, out, err = run(daemon, capsys, "update", item, "--tier", "ltm", "--source", " ")
    assert code == 2  # a blank source is a usage error, not a missing one
    code, out, err = run(daemon, capsys, "write", "--title", "other", "--content", "x y z",
                         "--tier", "ltm", "--type", "fact")
    assert code == 1 and "--source" in err


@pytest.mark.parametrize("item_extra, line_extra, said", [
    ({"links": 5}, {}, "'links' must be a list"),
    ({"links": "MEM-0000000000000001"}, {}, "'links' must be a list"),
    ({"links": {"to": "MEM-0000000000000001"}}, {}, "'links' must be a list"),
    ({"links": ["MEM-0000000000000001"]}, {}, "'links' must be a list"),
    ({"archived": "false"}, {}, "'archived' must be true or false"),
    ({"superseded_by": 7}, {}, "'superseded_by' must be an item id"),
    ({"superseded_by": "not-an-id"}, {}, "'superseded_by' must be an item id"),
    ({"links": [{}]}, {}, "'links' must be a list"),
    ({"links": [{"to": 123}]}, {}, "'links' must be a list"),
    ({}, {"palace": ["x"]}, "'palace' must be an object"),
    ({}, {"palace": {}}, "'palace' must be an object"),
])
def test_an_import_line_whose_later_parts_cannot_be_read_is_invalid_and_changes_nothing(
        daemon, item_extra, line_extra, said):
    c = daemon.client()
    good = {"format": "ragix-export/1", "item": {"id": "MEM-00000000000000a1", "title": "kept", "content": "fine"}}
    bad = {"format": "ragix-export/1", **line_extra,
           "item": {"id": "MEM-00000000000000b2", "title": "odd", "content": "parts", **item_extra}}
    r = c.call("import", {"lines": [bad, good]})
    assert r["lines"][0]["status"] == "invalid" and said in r["lines"][0]["error"], r
    assert r["lines"][1]["status"] in ("created", "exists")
    assert c.read("MEM-00000000000000b2")["items"] == []


def test_use_keyed_by_something_other_than_an_id_is_invalid_input_naming_uses(daemon):
    import msgpack
    import zmq

    item = daemon.client().write(title="used", content="once")["id"]
    sock = zmq.Context.instance().socket(zmq.DEALER)
    sock.connect(daemon.endpoint)
    try:
        for n, uses in enumerate(({item: 1, 5: 1}, {item: 1, None: 1}, {5: 1})):
            # msgpack allows keys that are not text; the schema's key check does not see them
            sock.send(msgpack.packb({"v": 1, "id": f"u{n}", "op": "use", "args": {"uses": uses}}))
            assert sock.poll(10_000)
            answer = msgpack.unpackb(sock.recv(), raw=False, strict_map_key=False)
            assert answer["id"] == f"u{n}" and answer["ok"] is False
            assert answer["error"]["code"] == "invalid_input" and answer["error"]["details"]["field"] == "uses"
    finally:
        sock.close(0)
    assert daemon.client().read(item)["items"][0]["usage_count"] == 0


def test_an_answer_to_a_request_it_could_not_serve_carries_the_requests_id():
    import msgpack

    from ragixd.frames import request_id

    class Frame:
        def __init__(self, data):
            self.bytes = data
    assert request_id([Frame(msgpack.packb({"v": 1, "id": "r-7", "op": "x"}))]) == "r-7"
    assert request_id([Frame(msgpack.packb({"id": 12}))]) == 12
    for body in ([Frame(b"\xc1junk")], [Frame(msgpack.packb([1, 2]))], [Frame(msgpack.packb({"id": True}))],
                 [Frame(msgpack.packb({"id": [1]}))], [], [Frame(b"a"), Frame(b"b")]):
        assert request_id(body) is None


def test_use_counts_an_id_given_twice_twice(daemon, capsys):
    item = daemon.client().write(title="twice", content="used on two turns")["id"]
    code, out, err = run(daemon, capsys, "use", item, item)
    assert code == 0, err
    assert daemon.client().read(item)["items"][0]["usage_count"] == 2


def test_parse_prints_an_answer_without_proposals_as_it_came(daemon, capsys, tmp_path):
    path = tmp_path / "answer.txt"
    for answer, printed in (("x\n", "x\n"), ("two\nlines\n", "two\nlines\n"), ("no break", "no break\n")):
        path.write_text(answer)
        code, out, err = run(daemon, capsys, "parse", "--file", str(path))
        assert code == 0 and out == printed, (answer, out)


def test_parse_takes_the_answers_tool_calls_from_a_file(daemon, capsys, tmp_path):
    answer, calls = tmp_path / "answer.txt", tmp_path / "calls.json"
    answer.write_text("Noted.\n")
    item = {"title": "Kiln firing", "content": "The kiln fires on Sundays", "why_store": "asked",
            "provenance": {"source_kind": "chat", "source_id": "chat:kiln"}}
    calls.write_text(json.dumps([{"type": "function", "function": {
        "name": "memory.propose", "arguments": json.dumps({"items": [item]})}}]))
    code, out, err = run(daemon, capsys, "parse", "--file", str(answer), "--tool-calls", str(calls))
    assert code == 0 and out == "Noted.\n" and "accepted 1" in err, err
    calls.write_text('"not a call"')
    code, out, err = run(daemon, capsys, "parse", "--file", str(answer), "--tool-calls", str(calls))
    assert code == 2 and "tool-calls" in err
    code, out, err = run(daemon, capsys, "parse", "--file", str(answer), "--tool-calls", str(tmp_path / "none"))
    assert code == 2 and "--tool-calls" in err


def test_an_empty_endpoint_is_a_usage_error_not_the_default_daemon(daemon, capsys):
    for args in (["--endpoint", "", "status"], ["status", "--endpoint", " "]):
        assert ctl.main(args) == 2
        assert "--endpoint" in capsys.readouterr().err


def test_policy_audit_with_an_empty_store_is_a_usage_error_not_every_store(daemon, capsys):
    code, out, err = run(daemon, capsys, "policy", "audit", "--store", " ")
    assert code == 2 and "--store" in err
