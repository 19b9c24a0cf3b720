"""ragixctl where a fresh user first stumbles: empty options, unknown types, config from init,
TCP mistakes, files that cannot be written or read, and the messages and help that go with
them. One daemon serves the module; each test writes what it needs under its own title."""

import json
import os
import stat
import subprocess
import sys

import pytest

from ragix_client import ctl
from support.daemon import Daemon
from support.daemon import run_ctl as run

CTL = [sys.executable, "-m", "ragix_client.ctl"]


@pytest.fixture(scope="module")
def daemon(tmp_path_factory):
    d = Daemon(tmp_path_factory.mktemp("review") / "home").start()
    yield d
    d.stop()




def items(daemon) -> int:
    return daemon.client().stats()["items"]


@pytest.mark.parametrize("args, option", [
    (["--title", "", "--content", "x"], "--title"),
    (["--title", "  \t", "--content", "x"], "--title"),
    (["--title", "t", "--content", ""], "--content"),
    (["--title", "t", "--content", "   "], "--content"),
    (["--title", "t"], "--content"),
])
def test_write_with_an_empty_title_or_content_names_the_option(daemon, capsys, args, option):
    before = items(daemon)
    code, out, err = run(daemon, capsys, "write", *args)
    assert code == 2 and option in err and "required property" not in err and out == ""
    assert items(daemon) == before


def test_write_from_empty_stdin_is_refused_like_pull(daemon):
    before = items(daemon)
    for stdin in (b"", b" \n\n"):
        proc = subprocess.run([*CTL, "--endpoint", daemon.endpoint, "write", "--title", "t", "--content", "-"],
                              input=stdin, capture_output=True, timeout=60)
        assert proc.returncode == 2 and b"standard input was empty" in proc.stderr, proc.stderr
    assert items(daemon) == before


def test_write_from_stdin_drops_the_trailing_newlines_as_a_shell_does(daemon):
    # `echo X | ragixctl write --content -` is the same memory as `--content X`: a duplicate.
    first = daemon.client().write(title="piped", content="one line\n  indented second")["id"]
    for stdin in (b"one line\n  indented second\n", b"one line\n  indented second\r\n\n"):
        proc = subprocess.run([*CTL, "--endpoint", daemon.endpoint, "write", "--title", "piped", "--content", "-"],
                              input=stdin, capture_output=True, timeout=60)
        assert proc.returncode == 0 and proc.stdout.decode().strip() == first, proc.stderr
    item = daemon.client().read([first])["items"][0]
    assert item["content"] == "one line\n  indented second" and item["mention_count"] == 3


def test_update_with_a_blank_field_names_the_option(daemon, capsys):
    item = daemon.client().write(title="to update", content="body")["id"]
    code, _, err = run(daemon, capsys, "update", item, "--title", " ")
    assert code == 2 and "--title" in err


def test_write_of_an_unknown_type_says_it_was_stored_as_note(daemon, capsys):
    code, out, err = run(daemon, capsys, "write", "--title", "typed", "--content", "bogus type", "--type", "bogus")
    assert code == 0 and out.strip().startswith("MEM-")
    assert "bogus" in err and "note" in err and "decision" in err and len(err.strip().splitlines()) == 1
    assert daemon.client().read(out.strip())["items"][0]["type"] == "note"
    code, out, err = run(daemon, capsys, "write", "--title", "typed", "--content", "alias type", "--type", "task")
    assert code == 0 and err == ""  # an alias the domain knows (task -> todo) is not unknown


def test_search_and_recall_of_an_unknown_type_is_a_usage_error(daemon, capsys):
    for command in ("search", "recall"):
        code, out, err = run(daemon, capsys, command, "anything", "--type", "decision,bogus")
        assert code == 2 and "bogus" in err and "fact, decision" in err and "(no matches)" not in out
    todo = daemon.client().write(title="aliased", content="filed as a task", type="task")["id"]
    code, out, err = run(daemon, capsys, "--json", "search", "aliased", "--type", "task", "--mode", "fts")
    assert code == 0 and [i["id"] for i in json.loads(out)["items"]] == [todo]  # task is todo



def test_init_writes_the_given_home_and_endpoint_as_settings(tmp_path, capsys, monkeypatch):
    import json

    from ragixd import config
    for name in ("RAGIX_HOME", "RAGIX_ENDPOINT", "RAGIX_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    home, cfg = tmp_path / "my home", tmp_path / "a.toml"
    assert ctl.main(["--json", "init", "--home", str(home), "--config", str(cfg)]) == 0
    printed = json.loads(capsys.readouterr().out)
    settings = config.resolve({"config": str(cfg)}, env={})  # what `ragixd --config a.toml` runs with
    assert settings.home == home and printed["endpoint"] == settings.endpoint
    endpoint = f"ipc://{tmp_path}/d.sock"
    cfg2 = tmp_path / "b.toml"
    assert ctl.main(["--json", "--endpoint", endpoint, "init", "--home", str(home), "--config", str(cfg2)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["endpoint"] == endpoint == config.resolve({"config": str(cfg2)}, env={}).endpoint
    # A config kept as it was: the endpoint printed is still the one it sets.
    assert ctl.main(["--json", "init", "--home", str(home), "--config", str(cfg2)]) == 0
    assert json.loads(capsys.readouterr().out)["endpoint"] == endpoint


def test_export_to_a_file_that_cannot_be_written_is_a_clear_error(daemon, tmp_path):
    target = tmp_path / "no such dir" / "x.jsonl"
    proc = subprocess.run([*CTL, "--endpoint", daemon.endpoint, "export", "-o", str(target)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert "--output" in proc.stderr and str(target) in proc.stderr


def test_an_export_file_is_created_readable_by_its_owner_alone(daemon, capsys, tmp_path):
    # every memory of the private store, at S3 by default: not for the other users of the machine
    c = daemon.client()
    c.write(title="export mode", content="a private note")
    c.close()
    target = tmp_path / "memory.jsonl"
    old = os.umask(0o022)
    try:
        code, _, err = run(daemon, capsys, "export", "-o", str(target))
    finally:
        os.umask(old)
    assert code == 0, err
    assert stat.S_IMODE(target.stat().st_mode) == 0o600 and "a private note" in target.read_text()


def test_pipe_skips_a_missing_source_and_ingests_the_rest(daemon, capsys, tmp_path):
    runbook = tmp_path / "runbook.md"
    runbook.write_text("Restart the ingest workers with systemctl restart ingest@*.\n")
    missing = tmp_path / "nonexistent.md"
    code, out, err = run(daemon, capsys, "pipe", "restart ingest workers", "--source", str(runbook), str(missing))
    assert code == 1 and "systemctl restart ingest" in out
    assert str(missing) in err and "skipped" in err
    code, out, _ = run(daemon, capsys, "--json", "pipe", "restart ingest workers", "--source", str(missing))
    assert code == 1 and json.loads(out)["skipped"][0]["file"] == str(missing)


def test_policy_check_refuses_text_and_file_together(daemon, capsys, tmp_path):
    key = tmp_path / "key.pem"
    key.write_text("-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----\n")
    code, out, err = run(daemon, capsys, "policy", "check", "a", "--file", str(key))
    assert code == 2 and "--file" in err and "verdict" not in out


def test_read_of_a_missing_id_under_json_is_the_error_shape(daemon, capsys):
    found = daemon.client().write(title="present", content="here")["id"]
    code, out, err = run(daemon, capsys, "--json", "read", "MEM-0000000000000000")
    data = json.loads(out)
    assert code == 1 and data["ok"] is False and data["error"]["code"] == "not_found"
    assert data["error"]["details"]["ids"] == ["MEM-0000000000000000"] and "not found" in err
    code, out, _ = run(daemon, capsys, "--json", "read", found, "MEM-0000000000000000")
    data = json.loads(out)
    assert code == 1 and data["ok"] is False and [i["id"] for i in data["error"]["details"]["items"]] == [found]
    code, out, _ = run(daemon, capsys, "--json", "read", found)
    assert code == 0 and json.loads(out)["items"][0]["id"] == found  # found: the documented shape


def test_use_count_over_the_maximum_says_the_maximum(daemon, capsys):
    from ragix_client.ctl_parser import MAX_USE_COUNT
    from ragixd.errors import InvalidInput
    item = daemon.client().write(title="used", content="often")["id"]
    code, _, err = run(daemon, capsys, "use", item, "--count", "1000000000")
    assert code == 2 and str(MAX_USE_COUNT) in err
    c = daemon.client()  # the client's maximum is the daemon's
    assert c.use(uses={item: MAX_USE_COUNT})["recorded"] == 1
    with pytest.raises(InvalidInput):
        c.use(uses={item: MAX_USE_COUNT + 1})


def test_a_client_time_out_waiting_for_min_seq_says_the_seq_was_not_reached(daemon, capsys):
    item = daemon.client().write(title="waited", content="for")["id"]
    head = daemon.client().status()["head_seq"]
    code, _, err = run(daemon, capsys, "--timeout", "0.5", "read", item, "--min-seq", str(head + 5))
    assert code == 3 and f"seq {head + 5} was not reached" in err and "is the daemon running" not in err


def test_the_daemons_own_min_seq_time_out_is_passed_on_with_its_seqs(tmp_path, capsys):
    d = Daemon(tmp_path / "home", extra_env={"RAGIX_MIN_SEQ_TIMEOUT_S": "0.3"}).start()
    try:
        head = d.client().status()["head_seq"]
        code, out, _ = run(d, capsys, "--json", "--timeout", "30", "search", "x", "--min-seq", str(head + 5))
        error = json.loads(out)["error"]
        assert code == 3 and error["code"] == "timeout" and "--timeout" not in error["message"]
        assert error["details"]["head_seq"] == head
    finally:
        d.stop()


def test_recall_and_pipe_say_when_nothing_fits_the_budget(daemon, capsys):
    daemon.client().write(title="Budget runbook", content="rotate the zebrafish certificates every quarter")
    code, out, _ = run(daemon, capsys, "recall", "zebrafish certificates", "--budget", "5")
    assert code == 0 and "budget of 5 tokens" in out and "smallest" in out
    smallest = int(out.split("smallest block is ")[1].split()[0])
    code, out, _ = run(daemon, capsys, "recall", "zebrafish certificates", "--budget", str(smallest))
    assert "[MEMORY:" in out  # the size said is one that fits
    code, out, err = run(daemon, capsys, "pipe", "zebrafish certificates", "--budget", "5")
    assert out == "" and "budget of 5 tokens" in err
    code, out, _ = run(daemon, capsys, "recall", "no-such-word-anywhere-qqq", "--budget", "5", "--mode", "inject")
    assert "budget" not in out


def test_keys_for_the_server_give_server_advice(tmp_path, capsys):
    assert ctl.main(["keys", "--name", "server", "--dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "curve_secret_key_file" in out and "to admit this client" not in out
    assert ctl.main(["keys", "--name", "laptop", "--dir", str(tmp_path)]) == 0
    assert "[trust]" in capsys.readouterr().out


def test_help_describes_recall_mode_min_seq_and_history_output():
    from ragix_client.ctl_parser import build_parser
    sub = next(a for a in build_parser()._actions if a.dest == "command").choices
    for name in ("search", "recall", "history", "timeline", "read"):
        option = next(a for a in sub[name]._actions if "--min-seq" in a.option_strings)
        assert option.help and "seq" in option.help, name
    mode = next(a for a in sub["recall"]._actions if "--mode" in a.option_strings)
    assert "catalog" in mode.help and "default inject" in mode.help
    history = sub["history"].format_help()
    assert "--json" in history and "one line" in history


def test_tail_under_json_prints_one_compact_json_line_per_event(daemon, capsys):
    daemon.client().write(title="tailed", content="line one\nline two")
    code, out, _ = run(daemon, capsys, "--json", "tail", "--from", "0", "--count", "2")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 2
    events = [json.loads(line) for line in lines]
    assert [e["seq"] for e in events] == [1, 2]
    assert all(line == json.dumps(e, ensure_ascii=False, separators=(",", ":")) for line, e in zip(lines, events))


def test_a_duplicate_write_says_whether_it_counted_as_a_mention(daemon, capsys):
    text = ["--title", "Ibis same", "--content", "ibis same source", "--source-kind", "doc"]
    code, first, _ = run(daemon, capsys, "write", *text, "--source", "doc:z1")
    assert code == 0
    code, again, err = run(daemon, capsys, "write", *text, "--source", "doc:z1")
    assert code == 0 and again == first and "not counted as a new mention" in err
    code, _, err = run(daemon, capsys, "write", *text, "--source", "doc:z2")
    assert code == 0 and "its mention was counted" in err
    item = daemon.client().read(first.strip())["items"][0]
    assert item["mention_count"] == 2
    answer = daemon.client().write(title="Ibis same", content="ibis same source",
                                   provenance={"source_kind": "doc", "source_id": "doc:z1"})
    assert answer["status"] == "duplicate" and answer["mentioned"] is False


def test_init_and_keys_on_paths_they_cannot_use_say_so_without_a_traceback(tmp_path, capsys):
    a_file = tmp_path / "notes.md"
    a_file.write_text("not a directory")
    cases = [
        (["init", "--home", str(a_file), "--config", str(tmp_path / "c1.toml")], "is a file"),
        (["init", "--home", str(tmp_path / "h2"), "--config", str(a_file / "x.toml")], "cannot create"),
        (["init", "--home", str(tmp_path / "h3"), "--config", str(tmp_path)], "is a directory"),
        (["init", "--home", str(a_file / "sub"), "--config", str(tmp_path / "c4.toml")], "is not a directory"),
        (["keys", "--name", "laptop", "--dir", str(a_file)], "cannot write the key pair"),
    ]
    for args, said in cases:
        for json_flag in ([], ["--json"]):
            code = ctl.main([*json_flag, *args])
            out, err = capsys.readouterr()
            assert code == 2 and said in err and "Traceback" not in err, (args, err)
            if json_flag:
                assert json.loads(out)["ok"] is False
    assert not (tmp_path / "h2").exists() and not (tmp_path / "h3").exists()
    assert not (tmp_path / "c1.toml").exists() and not (tmp_path / "c4.toml").exists()  # nothing left behind


def test_the_config_file_init_writes_states_the_daemons_defaults():
    import tomllib

    from ragix_client.ctl_local import CONFIG_TEMPLATE
    from ragixd.config import Settings
    defaults = Settings(home=None, endpoint="")
    stated = 0
    for line in CONFIG_TEMPLATE.splitlines():
        if line.startswith("# ") and " = " in line and not line.startswith("# ["):
            setting = tomllib.loads(line[2:].split("  #")[0].split(" #")[0])
            for key, value in setting.items():
                if hasattr(defaults, key) and getattr(defaults, key) is not None:
                    assert getattr(defaults, key) == value, key
                    stated += 1
    assert stated >= 5


def test_init_says_when_the_environment_overrides_the_home_given(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("RAGIX_HOME", str(tmp_path / "from-env"))
    code = ctl.main(["init", "--home", str(tmp_path / "given"), "--config", str(tmp_path / "r.toml")])
    out, err = capsys.readouterr()
    assert code == 0 and "RAGIX_HOME in the environment overrides" in err and str(tmp_path / "from-env") in out


def test_init_says_when_a_kept_config_file_is_why_the_home_given_is_not_used(tmp_path, capsys, monkeypatch):
    for name in ("RAGIX_HOME", "RAGIX_ENDPOINT", "RAGIX_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    cfg, first, second = tmp_path / "r.toml", tmp_path / "first", tmp_path / "second"
    assert ctl.main(["init", "--home", str(first), "--config", str(cfg)]) == 0
    capsys.readouterr()
    assert ctl.main(["init", "--home", str(second), "--config", str(cfg)]) == 0
    out, err = capsys.readouterr()
    assert "environment" not in err  # nothing in the environment set the home: the kept file did
    assert "already exists and was kept" in err and f"ragixd would use {first}" in err
    assert f"data home:   {first}" in out and not second.exists()


def test_tail_errors_use_the_usual_exit_codes_and_json_shape(daemon, capsys, tmp_path):
    code = ctl.main(["--json", "--endpoint", f"ipc://{tmp_path}/nowhere/x.sock", "tail", "--count", "1"])
    out, err = capsys.readouterr()
    assert code == 3 and json.loads(out)["ok"] is False


def test_update_with_empty_tags_removes_them_all(daemon, capsys):
    c = daemon.client()
    item = c.write(title="Kiln", content="Firing on Sunday", tags=["pottery", "kiln"], entities=["Ana"])
    code, out, err = run(daemon, capsys, "update", item["id"], "--tags", "", "--entities", "")
    assert code == 0, err
    stored = c.read(item["id"])["items"][0]
    assert stored["tags"] == [] and stored["entities"] == [] and stored["content"] == "Firing on Sunday"


def test_a_blank_palace_location_is_a_usage_error_not_the_derived_place(daemon, capsys):
    item = daemon.client().write(title="placed", content="somewhere")["id"]
    code, _, err = run(daemon, capsys, "palace", "assign", item, "--location", "")
    assert code == 2 and "domain/room/shelf" in err
    assert daemon.client().palace_get(item).get("location") is None


def test_init_writes_a_relative_socket_path_as_an_absolute_one(tmp_path, capsys, monkeypatch):
    import json

    from ragixd import config
    for name in ("RAGIX_HOME", "RAGIX_ENDPOINT", "RAGIX_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    cfg = tmp_path / "c.toml"
    assert ctl.main(["--json", "--endpoint", "ipc://rel.sock", "init", "--home", str(tmp_path / "h"),
                     "--config", str(cfg)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["endpoint"] == f"ipc://{tmp_path}/rel.sock"
    assert config.resolve({"config": str(cfg)}, env={}).endpoint == printed["endpoint"]
