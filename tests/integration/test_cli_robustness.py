"""What a user meets at the edges: bad endpoints and input, stopped daemons, key files, file
modes, partial ingestion, oversized requests, a closed pipe."""

import json
import os
import socket
import stat
import subprocess
import sys

import pytest

from ragix_client import Client, ctl
from ragixd import config
from ragixd.errors import ConfigError, TooLarge, Unavailable
from support.daemon import Daemon
from support.daemon import run_ctl as run

CTL = [sys.executable, "-m", "ragix_client.ctl"]




def test_bad_endpoints_are_config_errors(capsys, tmp_path):
    assert ctl.main(["--endpoint", "foo", "status"]) == 2
    assert "not an ipc://" in capsys.readouterr().err
    with pytest.raises(ConfigError, match="CURVE"):  # the main endpoint gives full trust: ipc only
        config.resolve({"endpoint": "tcp://127.0.0.1:5999", "home": str(tmp_path)}, env={})
    with pytest.raises(ConfigError, match="tcp://HOST:PORT"):
        config.resolve({"home": str(tmp_path)}, env={"RAGIX_TCP_ENDPOINT": "tcp://nowhere"})


def test_unknown_and_out_of_range_config_keys_are_refused(tmp_path):
    cfg = tmp_path / "ragixd.toml"
    cfg.write_text('max_grup = 10\n')
    with pytest.raises(ConfigError, match="unknown key.*max_grup"):
        config.resolve({"config": str(cfg), "home": str(tmp_path)}, env={})
    cfg.write_text('[embedders]\nbackend = "nosuch"\n')  # the table is [embedder]
    with pytest.raises(ConfigError, match="unknown key.*embedders") as err:
        config.resolve({"config": str(cfg), "home": str(tmp_path)}, env={})
    assert "embedder," in err.value.message  # named among the known ones
    cfg.write_text('max_message_bytes = "4194304"\n')  # quoted: a string, not the number
    with pytest.raises(ConfigError, match="max_message_bytes.*without quotes"):
        config.resolve({"config": str(cfg), "home": str(tmp_path)}, env={})
    for key, value in (("min_seq_timeout_s", "nan"), ("min_seq_timeout_s", "inf"), ("max_group", "0"),
                       ("readers", "-1"), ("max_message_bytes", "10")):
        with pytest.raises(ConfigError, match=key):
            config.resolve({"home": str(tmp_path)}, env={"RAGIX_" + key.upper(): value})


def test_a_socket_file_left_by_a_dead_daemon_fails_at_once(tmp_path, capsys):
    path = tmp_path / "ragixd.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.bind(str(path))  # a socket file nobody listens on, as a killed daemon leaves it
    sock.close()
    with pytest.raises(Unavailable, match="not running"):
        Client(f"ipc://{path}", timeout=30).status()
    assert ctl.main(["--endpoint", f"ipc://{path}", "status"]) == 3


def test_a_stopped_daemon_leaves_no_socket_and_private_files(tmp_path):
    d = Daemon(tmp_path / "home").start()
    try:
        db = d.home / "ragix.db"
        assert stat.S_IMODE(db.stat().st_mode) & 0o077 == 0
        sock = d.endpoint[len("ipc://"):]
        assert stat.S_IMODE(os.stat(sock).st_mode) & 0o077 == 0
        assert Client(d.endpoint).status()["max_message_bytes"] == 4 * 1024 * 1024
    finally:
        d.stop()
    assert not os.path.exists(sock)


def test_a_named_socket_directory_keeps_its_mode(tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o755)
    d = Daemon(tmp_path / "home", extra_env={"RAGIX_ENDPOINT": f"ipc://{shared}/r.sock"})
    d.endpoint = f"ipc://{shared}/r.sock"
    d.start()
    try:
        assert stat.S_IMODE(shared.stat().st_mode) == 0o755
    finally:
        d.stop()


def test_stdin_that_is_not_utf8_is_a_clear_usage_error(daemon):
    for args in (["pull"], ["write", "--title", "t", "--content", "-"], ["policy", "check", "--file", "-"]):
        proc = subprocess.run([*CTL, "--endpoint", daemon.endpoint, *args], input=b"hello \xff\xfe\n",
                              capture_output=True, timeout=60)
        assert proc.returncode == 2, proc.stderr
        assert b"not valid UTF-8" in proc.stderr and b"Traceback" not in proc.stderr
    assert daemon.client().stats()["items"] == 0


def test_pull_with_a_blank_type_is_a_usage_error_as_write_is(daemon):
    for blank in ("", "  "):
        proc = subprocess.run([*CTL, "--endpoint", daemon.endpoint, "pull", "--type", blank],
                              input=b"kiln notes for the glaze run\n", capture_output=True, timeout=60)
        assert proc.returncode == 2, proc.stderr
        assert b"--type" in proc.stderr and b"Traceback" not in proc.stderr
    assert daemon.client().stats()["items"] == 0


def test_a_named_file_that_is_not_utf8_is_refused_not_stored_with_its_letters_replaced(daemon, capsys, tmp_path):
    text, proposals, export = tmp_path / "answer.txt", tmp_path / "p.json", tmp_path / "e.jsonl"
    text.write_bytes(b"caf\xe9 au lait\n")
    proposals.write_bytes(b'[{"title": "caf\xe9", "content": "order", "why_store": "x"}]')
    export.write_bytes(b'{"format": "ragix-export/1", "item": {"title": "caf\xe9"}}\n')
    for args in (["parse", "--file", str(text)], ["policy", "check", "--file", str(text)],
                 ["propose", "--file", str(proposals)], ["import", str(export)]):
        code, out, err = run(daemon, capsys, *args)
        assert code == 2, (args, out, err)
        assert "not valid UTF-8" in err and "0xe9" in err and "\ufffd" not in out
    assert daemon.client().stats()["items"] == 0


def test_argv_that_is_not_utf8_is_a_clear_usage_error(daemon):
    proc = subprocess.run([*CTL, "--endpoint", daemon.endpoint, "search", b"caf\xe9"], capture_output=True,
                          timeout=60)
    assert proc.returncode == 2 and b"not valid UTF-8" in proc.stderr and b"Traceback" not in proc.stderr


def test_a_closed_output_pipe_ends_quietly(daemon):
    c = daemon.client()
    for i in range(30):
        c.write(title=f"note {i}", content=f"text number {i} about deploys")
    proc = subprocess.run(f"{sys.executable} -m ragix_client.ctl --endpoint {daemon.endpoint} --json export "
                          f"--tier S3 | head -c 10", shell=True, capture_output=True, timeout=60)
    assert b"Traceback" not in proc.stderr and b"BrokenPipe" not in proc.stderr


def test_export_to_stdout_is_pure_jsonl(daemon):
    daemon.client().write(title="one", content="first")
    proc = subprocess.run([*CTL, "--endpoint", daemon.endpoint, "--json", "export", "--tier", "S3"],
                          capture_output=True, text=True, timeout=60)
    lines = proc.stdout.splitlines()
    assert proc.returncode == 0 and len(lines) == 1 and json.loads(lines[0])["item"]["title"] == "one"
    assert json.loads(proc.stderr)["exported"] == 1


@pytest.mark.parametrize("path, as_json", [("/dev/stdout", False), ("/dev/fd/1", True)])
def test_export_to_a_path_naming_stdout_is_pure_jsonl(daemon, path, as_json):
    # `-o /dev/stdout` is written straight (a pipe here): the summary went to stdout after the
    # lines, a line that is not JSON at the end of the export.
    daemon.client().write(title="one", content="first")
    proc = subprocess.run([*CTL, "--endpoint", daemon.endpoint, *(["--json"] if as_json else []), "export",
                           "-o", path], capture_output=True, text=True, timeout=60)
    lines = proc.stdout.splitlines()
    assert proc.returncode == 0 and len(lines) == 1 and json.loads(lines[0])["item"]["title"] == "one"
    assert "exported" in proc.stderr


def test_errors_under_json_are_json(daemon, capsys):
    code, out, err = run(daemon, capsys, "--json", "archive", "MEM-0000000000000000")
    assert code == 1 and json.loads(out)["ok"] is False and json.loads(out)["error"]["code"] == "not_found"


def test_a_duplicate_write_prints_the_bare_id(daemon, capsys):
    first = run(daemon, capsys, "write", "--title", "t", "--content", "same")[1].strip()
    code, out, err = run(daemon, capsys, "write", "--title", "t", "--content", "same")
    assert code == 0 and out.strip() == first and "mention" in err


def test_write_to_an_unknown_store_is_invalid_input(daemon, capsys):
    code, _, err = run(daemon, capsys, "write", "--title", "t", "--content", "c", "--store", "bogus")
    assert code == 2 and "invalid_input" in err


def test_counts_and_time_outs_must_be_positive(daemon, capsys):
    for args in (["tail", "--count", "0"], ["tail", "--idle", "-1"], ["--timeout", "0", "status"]):
        assert ctl.main(["--endpoint", daemon.endpoint, *args]) == 2
        assert "must be above" in capsys.readouterr().err


def test_policy_check_of_nothing_is_a_usage_error(daemon):
    proc = subprocess.run([*CTL, "--endpoint", daemon.endpoint, "policy", "check", "--file", "-"], input=b"",
                          capture_output=True, timeout=60)
    assert proc.returncode == 2 and b"nothing to check" in proc.stderr


def test_keys_in_a_relative_directory_are_printed_with_absolute_paths(tmp_path, capsys, monkeypatch):
    """The printed paths go into the daemon's config, read from wherever the daemon starts."""
    import json
    monkeypatch.chdir(tmp_path)
    assert ctl.main(["--json", "keys", "--name", "server", "--dir", "keys"]) == 0
    files = json.loads(capsys.readouterr().out)
    assert files["secret_key_file"] == str(tmp_path / "keys" / "server.key_secret")
    assert ctl.main(["keys", "--name", "server2", "--dir", "keys"]) == 0
    assert f"secret file: {tmp_path}/keys/server2.key_secret" in capsys.readouterr().out


def test_keys_are_never_overwritten_nor_written_outside_their_directory(tmp_path, capsys):
    keys = tmp_path / "keys"
    assert ctl.main(["keys", "--name", "laptop", "--dir", str(keys)]) == 0
    secret = (keys / "laptop.key_secret").read_text()
    assert ctl.main(["keys", "--name", "laptop", "--dir", str(keys)]) == 1
    assert "already exists" in capsys.readouterr().err
    assert (keys / "laptop.key_secret").read_text() == secret
    assert ctl.main(["keys", "--name", "laptop", "--dir", str(keys), "--force"]) == 0
    assert (keys / "laptop.key_secret").read_text() != secret
    assert ctl.main(["keys", "--name", "../evil", "--dir", str(keys)]) == 2
    assert not (tmp_path / "evil.key").exists()


def test_pipe_skips_binary_files_and_names_them(daemon, tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("Backups run nightly at 02:00.\n")
    (docs / "blob.bin").write_bytes(b"\x00\x01\x02binary")
    proc = subprocess.run([*CTL, "--endpoint", daemon.endpoint, "pipe", "backups", "--source", str(docs)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1 and "blob.bin" in proc.stderr and "binary" in proc.stderr
    assert "nightly" in proc.stdout
    assert daemon.client().stats()["items"] == 1


def test_a_request_over_the_daemon_limit_is_refused_before_sending(tmp_path):
    home = tmp_path / "home"
    d = Daemon(home, extra_env={"RAGIX_MAX_MESSAGE_BYTES": str(1024 * 1024)}).start()
    try:
        c = Client(d.endpoint, timeout=10)
        for size in (5 * 1024 * 1024, 3 * 1024 * 1024):  # 3 MB: past what the daemon's socket takes
            with pytest.raises(TooLarge, match="over the daemon's limit"):
                c.policy_check(text="x" * size)
        assert c.status()["max_message_bytes"] == 1024 * 1024
        with pytest.raises(ConfigError, match="timeout"):
            c.status(timeout=0)  # refused before anything is sent, as Client(timeout=0) is
    finally:
        d.stop()


def test_import_names_the_file_line_and_the_reason_of_each_problem(daemon, tmp_path, capsys):
    good = {"format": "ragix-export/1", "secrecy": "S3",
            "item": {"id": "MEM-00000000000000a1", "title": "kept", "content": "plain text"}}
    leak = {"format": "ragix-export/1", "secrecy": "S3",
            "item": {"id": "MEM-00000000000000a2", "title": "creds", "content": "password: hunter2"}}
    wrong = {"format": "other/9", "item": {"id": "MEM-00000000000000a3", "title": "x", "content": "y"}}
    path = tmp_path / "in.jsonl"
    path.write_text("\n".join([json.dumps(good), "", json.dumps(leak), json.dumps(wrong)]) + "\n")
    code, out, _ = run(daemon, capsys, "import", str(path))
    assert code == 1 and "created 1" in out  # lines were left out: not a success
    assert "line 3: refused:" in out and "(no reason given)" not in out
    assert "line 4: invalid: format must be 'ragix-export/1'; got a value of 7 characters" in out
    code, out, _ = run(daemon, capsys, "--json", "import", str(path))
    problems = {p["line"]: p["status"] for p in json.loads(out)["problems"]}
    assert problems == {3: "refused", 4: "invalid"} and code == 1
    path.write_text(json.dumps(good) + "\n")
    code, out, _ = run(daemon, capsys, "import", str(path))
    assert code == 0 and "exists 1" in out  # imported again: idempotent, and a success


def test_pipe_notes_files_it_does_not_ingest_instead_of_storing_them_mangled(daemon, tmp_path):
    docs = tmp_path / "docs"
    (docs / ".git").mkdir(parents=True)
    (docs / "a.md").write_text("Backups run nightly at 02:00.\n")
    (docs / "latin.txt").write_bytes("sauvegarde café crème".encode("latin-1"))
    (docs / "empty.md").write_text("  \n\n ")
    (docs / ".git" / "config").write_text("[core]\nbare = false\n")
    proc = subprocess.run([*CTL, "--endpoint", daemon.endpoint, "--json", "pipe", "backups", "--source", str(docs)],
                          capture_output=True, text=True, timeout=60)
    out = json.loads(proc.stdout)
    assert out["ingested"] == 1
    reasons = {os.path.basename(s["file"]): s["message"] for s in out["skipped"]}
    assert set(reasons) == {"latin.txt", "empty.md"}
    assert "not UTF-8" in reasons["latin.txt"] and "no text" in reasons["empty.md"]
    assert daemon.client().stats()["items"] == 1


def _piping(daemon, doc, query):
    """A function that writes `text` to `doc`, runs `ragixctl --json pipe QUERY --source DOC`
    and gives its answer."""
    def pipe(text):
        doc.write_text(text)
        proc = subprocess.run([*CTL, "--endpoint", daemon.endpoint, "--json", "pipe", query,
                               "--source", str(doc)], capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
        return json.loads(proc.stdout)
    return pipe


def test_pipe_again_after_an_edit_retires_what_the_file_no_longer_says(daemon, tmp_path):
    paragraphs = [f"Section {n}: the release captain checks dashboard {n}." for n in range(3)]
    pipe = _piping(daemon, tmp_path / "runbook.md", "release captain")

    big = "\n\n".join(p + " " + "filler words " * 200 for p in paragraphs)  # three chunks
    first = pipe("Deploys happen on Fridays; Alice is the captain.\n\n" + big)
    assert first["ingested"] >= 3 and first["retired"] == 0
    assert pipe("Deploys happen on Fridays; Alice is the captain.\n\n" + big)["retired"] == 0  # unchanged
    edited = pipe("Deploys happen on Tuesdays; Bob is the captain.")
    assert edited["retired"] == first["ingested"]  # the old first chunk and every chunk past the end
    c = daemon.client()
    live = [h["item"]["content"] for h in c.search("captain deploys", mode="fts", k=20)["items"]]
    assert live == ["Deploys happen on Tuesdays; Bob is the captain."]
    assert c.verify()["ok"]


def test_a_file_that_grows_keeps_the_chunks_it_still_holds(daemon, tmp_path):
    paragraphs = [f"Entry {n}: the on-call engineer rotated key {n}. " + "more words " * 220 for n in range(3)]
    pipe = _piping(daemon, tmp_path / "log.md", "on-call")

    first = pipe("\n\n".join(paragraphs[:2]))
    grown = pipe("\n\n".join(paragraphs))
    assert first["ingested"] == 2 and grown["ingested"] == 3 and grown["retired"] == 0
    c = daemon.client()
    kept = {h["id"] for h in c.search("on-call engineer rotated", mode="fts", k=10)["items"]}
    assert len(kept) == 3 and c.verify()["ok"]


def test_pipe_leaves_out_editor_backups_and_a_byte_order_mark(daemon, tmp_path, capsys):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "notes.md").write_bytes("\ufeffThe kiwi cluster lives in rack 9.".encode("utf-8"))
    (docs / "notes.md~").write_text("The kiwi cluster lives in rack 4.")
    (docs / "#notes.md#").write_text("The kiwi cluster lives in rack 5.")
    assert ctl.main(["--endpoint", daemon.endpoint, "--json", "pipe", "kiwi", "--source", str(docs)]) == 0
    assert json.loads(capsys.readouterr().out)["ingested"] == 1
    hits = daemon.client().search("kiwi cluster rack", mode="fts")["items"]
    assert [h["item"]["content"] for h in hits] == ["The kiwi cluster lives in rack 9."]


def test_a_filter_given_empty_is_a_usage_error_not_no_filter(daemon, capsys):
    for args in (["search", "x", "--tags", ""], ["recall", "x", "--scope", " "], ["search", "x", "--store", ""]):
        assert ctl.main(["--endpoint", daemon.endpoint, *args]) == 2, args
        assert args[2] in capsys.readouterr().err


def test_a_usage_error_is_json_too_under_json(capsys):
    assert ctl.main(["--json", "search", "x", "--k", "0"]) == 2
    out, err = capsys.readouterr()
    answer = json.loads(out)
    assert answer["ok"] is False and answer["error"]["code"] == "invalid_input"
    assert "--k" in answer["error"]["message"] and "usage:" in err
    assert ctl.main(["search", "x", "--k", "0"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "--k" in err


def test_retire_archives_the_chunks_of_a_file_that_is_gone(daemon, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "old.md").write_text("The legacy deploy script lives on jenkins-01.\n")
    (tmp_path / "keep.md").write_text("The deploy script lives in the repo.\n")
    assert ctl.main(["--endpoint", daemon.endpoint, "--json", "pipe", "deploy", "--source", "old.md", "keep.md"]) == 0
    capsys.readouterr()
    (tmp_path / "old.md").unlink()
    assert ctl.main(["--endpoint", daemon.endpoint, "--json", "retire", "old.md"]) == 0
    assert len(json.loads(capsys.readouterr().out)["archived"]) == 1
    live = [h["item"]["content"] for h in daemon.client().search("deploy script", mode="fts")["items"]]
    assert live == ["The deploy script lives in the repo."]
    assert ctl.main(["--endpoint", daemon.endpoint, "retire", "old.md"]) == 0
    assert "nothing to retire" in capsys.readouterr().out


def test_a_file_is_one_source_however_it_is_named_and_only_its_own(daemon, tmp_path, capsys, monkeypatch):
    """"notes" is not the source of "notes:2023.md" (a file name may hold ':'); a file named
    through '..' is the same source as when named directly; a pipe is named, not taken for a
    file that does not exist."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "sub").mkdir()
    (tmp_path / "docs" / "notes").write_text("The walrus rota is kept by Dana.\n")
    (tmp_path / "docs" / "notes:2023.md").write_text("The pelican budget was approved in March.\n")
    endpoint = ["--endpoint", daemon.endpoint, "--json"]
    assert ctl.main([*endpoint, "pipe", "rota", "--source", str(tmp_path / "docs")]) == 0
    capsys.readouterr()
    monkeypatch.chdir(tmp_path / "sub")
    (tmp_path / "docs" / "notes").write_text("The walrus rota is kept by Eli now.\n")
    assert ctl.main([*endpoint, "pipe", "rota", "--source", "../docs/notes"]) == 0
    assert json.loads(capsys.readouterr().out)["retired"] == 1  # its old text, found under its one name
    client = daemon.client()
    assert [h["item"]["content"] for h in client.search("pelican budget", mode="fts")["items"]] == [
        "The pelican budget was approved in March."]
    assert [h["item"]["content"] for h in client.search("walrus rota", mode="fts")["items"]] == [
        "The walrus rota is kept by Eli now."]
    assert ctl.main([*endpoint, "retire", "../docs/notes"]) == 0
    assert len(json.loads(capsys.readouterr().out)["archived"]) == 1
    assert len(client.search("pelican budget", mode="fts")["items"]) == 1
    os.mkfifo(tmp_path / "fifo")
    assert ctl.main(["--endpoint", daemon.endpoint, "pipe", "rota", "--source", str(tmp_path / "fifo")]) == 1
    err = capsys.readouterr().err
    assert "not a regular file" in err and "no such file" not in err


def test_ctrl_c_while_waiting_for_an_answer_ends_with_one_line_and_exit_130(tmp_path):
    import signal

    import zmq
    ctx = zmq.Context.instance()
    silent = ctx.socket(zmq.ROUTER)  # takes the request and never answers, as a long rebuild would
    endpoint = f"ipc://{tmp_path / 'slow.sock'}"
    silent.bind(endpoint)
    try:
        proc = subprocess.Popen([*CTL, "--endpoint", endpoint, "rebuild"], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        assert silent.poll(60_000), "ragixctl sent nothing"
        silent.recv_multipart()  # it is now waiting for the answer
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        silent.close(linger=0)
    assert proc.returncode == 130, err
    assert b"Traceback" not in err and err.strip().endswith(b"ragixctl: interrupted")


def test_a_daemon_killed_while_a_request_waits_is_said_at_once_not_after_the_time_out(tmp_path):
    import threading
    import time

    endpoint = f"ipc://{tmp_path / 'dies.sock'}"
    # A daemon stand-in that takes the request, never answers, and is killed (its socket file stays).
    stand_in = subprocess.Popen([sys.executable, "-c", (
        "import sys, zmq\n"
        "s = zmq.Context.instance().socket(zmq.ROUTER)\n"
        f"s.bind({endpoint!r})\n"
        "print('ready', flush=True)\n"
        "s.recv_multipart()\n"
        "print('got', flush=True)\n"
        "import time; time.sleep(600)\n")], stdout=subprocess.PIPE, text=True)
    try:
        assert stand_in.stdout.readline().strip() == "ready"
        outcome = {}

        def ask():
            started = time.monotonic()
            try:
                Client(endpoint, timeout=60).search("deploy")
            except Exception as e:  # noqa: BLE001 - the test looks at which one
                outcome["error"] = e
            outcome["took"] = time.monotonic() - started

        waiter = threading.Thread(target=ask)
        waiter.start()
        assert stand_in.stdout.readline().strip() == "got"
        stand_in.kill()
        waiter.join(60)
    finally:
        stand_in.kill()
        stand_in.wait()
    assert isinstance(outcome.get("error"), Unavailable), outcome
    assert "stopped before answering search" in str(outcome["error"]) and outcome["took"] < 30


def test_a_rebuild_that_outlasts_the_time_out_is_waited_for_while_the_daemon_reports_it(tmp_path, capsys):
    import threading
    import time

    import msgpack
    import zmq
    endpoint = f"ipc://{tmp_path / 'slow.sock'}"
    router = zmq.Context.instance().socket(zmq.ROUTER)
    router.bind(endpoint)
    done_at = time.monotonic() + 3.0  # six time-outs of 0.5 s
    stop = threading.Event()

    def serve():  # status lists the rebuild until it is done; the rebuild's answer comes then
        held = None
        while not stop.is_set():
            if held and time.monotonic() >= done_at:
                router.send_multipart([held[0], msgpack.packb({"v": 1, "id": held[1], "ok": True,
                                                                "result": {"events": 7, "seq": 7}})])
                held = None
            if not router.poll(50):
                continue
            peer, body = router.recv_multipart()
            request = msgpack.unpackb(body)
            if request["op"] == "rebuild":
                held = (peer, request["id"])
                continue
            work = [{"op": "rebuild", "phase": "replay", "done": 1, "total": 7, "elapsed_s": 1.0}]
            result = {"work": work if time.monotonic() < done_at else []}
            router.send_multipart([peer, msgpack.packb({"v": 1, "id": request["id"], "ok": True, "result": result})])

    server = threading.Thread(target=serve)
    server.start()
    try:
        code = ctl.main(["--endpoint", endpoint, "--timeout", "0.5", "rebuild"])
    finally:
        stop.set()
        server.join()
        router.close(linger=0)
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "rebuilt every projection from 7 events" in out


def test_pipe_skips_a_file_whose_name_is_not_utf8_and_ingests_the_rest(daemon, capsys, tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "good.md").write_text("Kiln firings run on Sundays.\n")
    with open(os.path.join(os.fsencode(docs), b"caf\xe9.md"), "w") as f:
        f.write("Glaze notes.\n")
    code, out, err = run(daemon, capsys, "pipe", "kiln", "--source", str(docs))
    assert code == 1 and "Kiln firings run on Sundays." in out
    assert "caf\\xe9.md is not UTF-8: not ingested" in err
    assert daemon.client().stats()["items"] == 1


def test_a_time_out_on_a_command_says_it_may_have_been_done_and_on_a_query_does_not(tmp_path):
    import zmq

    from ragixd.errors import Timeout
    silent = zmq.Context.instance().socket(zmq.ROUTER)  # takes each request and never answers
    endpoint = f"ipc://{tmp_path / 'silent.sock'}"
    silent.bind(endpoint)
    client = Client(endpoint, timeout=0.3)
    try:
        with pytest.raises(Timeout) as on_write:
            client.write(title="t", content="c")
        with pytest.raises(Timeout) as on_search:
            client.search("c")
    finally:
        client.close()
        silent.close(linger=0)
    assert "whether it was done is unknown" in on_write.value.message
    assert "whether it was done" not in on_search.value.message
    assert "is the daemon running" in on_search.value.message


def test_an_endless_standard_input_is_refused_not_read_until_the_memory_is_full(tmp_path):
    endpoint = f"ipc://{tmp_path / 'none.sock'}"  # read before any request: no daemon needed
    for command in (["write", "--title", "t", "--content", "-"], ["pull"], ["parse"], ["policy", "check"]):
        with open("/dev/zero", "rb") as endless:
            done = subprocess.run([*CTL, "--endpoint", endpoint, *command], stdin=endless,
                                  capture_output=True, timeout=120)
        assert done.returncode == 2, (command, done.stderr)
        assert b"endless stream" in done.stderr and b"Traceback" not in done.stderr, (command, done.stderr)
