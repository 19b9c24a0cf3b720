"""ragixctl, twice: in process (logic, exit codes, JSON shapes) and as a subprocess."""

import json
import subprocess
import sys


from ragix_client import ctl


def run(daemon, capsys, *args, stdin=None, monkeypatch=None):
    code = ctl.main(["--endpoint", daemon.endpoint, *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_write_read_search_forms(daemon, capsys):
    code, out, _ = run(daemon, capsys, "write", "--title", "Deploy window", "--content",
                       "Fridays 14-16h", "--tags", "ops,deploy", "--type", "decision",
                       "--tier", "stm", "--scope", "infra")
    assert code == 0 and out.strip().startswith("MEM-")
    item_id = out.strip()
    code, out, _ = run(daemon, capsys, "--json", "write", "--title", "Rollback", "--content", "previous image")
    data = json.loads(out)
    assert set(data) == {"id", "seq"} and data["seq"] >= 2
    code, out, _ = run(daemon, capsys, "read", item_id)
    assert code == 0 and "Deploy window" in out and "tags=ops,deploy" in out
    code, out, _ = run(daemon, capsys, "--json", "search", "deploy", "--k", "5", "--tier", "stm",
                       "--type", "decision", "--tags", "ops,deploy")
    hits = json.loads(out)["items"]
    assert [h["id"] for h in hits] == [item_id]
    assert {"id", "title", "score"} <= set(hits[0])
    code, out, _ = run(daemon, capsys, "search", "deploy", "--tier", "ltm")
    assert code == 0 and "(no matches)" in out


def test_history_timeline_stats_verify_rebuild(daemon, capsys):
    ids = [run(daemon, capsys, "write", "--title", f"note {i}", "--content", f"body {i}")[1].strip()
           for i in range(3)]
    code, out, _ = run(daemon, capsys, "update", ids[0], "--content", "changed", "--reason", "typo")
    assert code == 0 and "updated" in out
    code, out, _ = run(daemon, capsys, "history", ids[0])
    assert "#1" in out and "#2" in out and "typo" in out
    code, out, err = run(daemon, capsys, "timeline", ids[1])
    assert code == 0, err
    assert out.count("MEM-") == 3 and "> " in out
    code, out, _ = run(daemon, capsys, "--json", "stats")
    assert json.loads(out)["items"] == 3
    code, out, _ = run(daemon, capsys, "--json", "verify")
    assert code == 0 and json.loads(out)["ok"] is True
    code, out, _ = run(daemon, capsys, "rebuild")
    assert code == 0 and "rebuilt" in out
    code, out, _ = run(daemon, capsys, "--json", "status")
    assert json.loads(out)["head_seq"] == daemon.client().stats()["events"]


def test_exit_codes(daemon, capsys, tmp_path):
    code, _, err = run(daemon, capsys, "write", "--title", "x" * 300, "--content", "c")
    assert code == 2 and "invalid_input" in err and "title" in err
    code, _, err = run(daemon, capsys, "read", "MEM-0000000000000000")
    assert code == 1 and "not found" in err
    code = ctl.main(["--endpoint", f"ipc://{tmp_path}/nobody.sock", "--timeout", "0.3", "status"])
    assert code == 3
    assert "make run" in capsys.readouterr().err


def test_tail_prints_stored_then_live_events(daemon, capsys):
    c = daemon.client()
    c.write(title="first", content="the first item")
    code, out, _ = run(daemon, capsys, "tail", "--from", "0", "--count", "1")
    assert code == 0 and "item.created" in out


def test_init_writes_a_config_once(tmp_path, capsys):
    cfg = tmp_path / "cfg" / "ragixd.toml"
    assert ctl.main(["--json", "init", "--home", str(tmp_path / "h"), "--config", str(cfg)]) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["config_written"] and cfg.exists() and (tmp_path / "h").is_dir()
    assert ctl.main(["--json", "init", "--home", str(tmp_path / "h"), "--config", str(cfg)]) == 0
    assert json.loads(capsys.readouterr().out)["config_written"] is False


def test_help_has_an_example_for_every_command():
    from ragix_client.ctl_parser import build_parser
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    for name, p in sub.choices.items():
        assert "example" in (p.epilog or ""), name


def test_as_a_subprocess(daemon):
    env = {**daemon.env}
    proc = subprocess.run([sys.executable, "-m", "ragix_client.ctl", "--json", "write", "--title", "cli",
                           "--content", "from a subprocess"], env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    item_id = json.loads(proc.stdout)["id"]
    proc = subprocess.run([sys.executable, "-m", "ragix_client.ctl", "--json", "search", "subprocess"],
                          env=env, capture_output=True, text=True, timeout=60)
    assert json.loads(proc.stdout)["items"][0]["id"] == item_id


def test_stored_control_sequences_are_shown_escaped_on_a_terminal(daemon, capsys, monkeypatch):
    # A document may hold terminal controls (the policy reads through them): shown on a
    # terminal they would run — move up and erase a line, set the clipboard (OSC 52), reorder text.
    content = "first line\r\x1b[1A\x1b[2Kfake line\x1b]52;c;cm0gLXJmIH4K\x07 and \u202eevil\u202c \x9b2K"
    c = daemon.client()
    item_id = c.write(title="ctl \x1b[8mhidden", content=content, tags=["ops"])["id"]
    c.close()
    code, piped, _ = run(daemon, capsys, "read", item_id)
    assert code == 0 and "\x1b[2K" in piped  # into a pipe: the stored text as it is
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True, raising=False)
    for args in (["read", item_id], ["search", "ctl hidden"], ["history", item_id],
                 ["recall", "fake line", "--budget", "500"], ["palace", "get", item_id]):
        code, out, _ = run(daemon, capsys, *args)
        assert code == 0 and "ctl \\x1b[8mhidden" in out, args
        assert not any(ch in out for ch in "\x1b\r\x07\x9b\u202e\u202c"), (args, out)
    code, out, _ = run(daemon, capsys, "read", item_id)
    assert "\\x1b[2K" in out and "\\u202e" in out
    code, out, _ = run(daemon, capsys, "--json", "read", item_id)
    assert json.loads(out)["items"][0]["content"] == content  # --json: exact, its escapes are JSON's
    assert not any(ch in out for ch in "\x1b\r\x07\x9b\u202e\u202c")  # C1 and bidi too, not raw
    code, out, _ = run(daemon, capsys, "--json", "tail", "--from", "0", "--count", "1")
    assert json.loads(out)["payload"]["item"]["content"] == content
    assert not any(ch in out for ch in "\x1b\r\x07\x9b\u202e\u202c")


def test_the_proposal_shown_by_propose_help_is_accepted_and_quarantined_without_its_why(daemon, tmp_path):
    from ragix_client.ctl_parser import PROPOSAL_HELP
    shown = json.loads(PROPOSAL_HELP[PROPOSAL_HELP.index("["):PROPOSAL_HELP.index("}}]") + 3])
    c = daemon.client()
    assert c.propose(items=shown)["items"][0]["status"] == "accepted"
    bare = [{k: v for k, v in shown[0].items() if k != "why_store"}]
    bare[0]["content"] += " (again)"
    assert c.propose(items=bare)["items"][0]["status"] == "quarantined"


def test_propose_takes_a_file_of_more_proposals_than_one_op_takes(daemon, capsys, tmp_path):
    proposals = [{"title": f"Glaze {i}", "content": f"Glaze recipe number {i}", "why_store": "asked",
                  "provenance": {"source_kind": "chat", "source_id": f"chat:{i}"}} for i in range(150)]
    path = tmp_path / "p.json"
    path.write_text(json.dumps(proposals))
    assert ctl.main(["--endpoint", daemon.endpoint, "--json", "propose", "--file", str(path)]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["accepted"] == 150 and [i["index"] for i in answer["items"]] == list(range(150))
    assert daemon.client().stats()["items"] == 150
