"""Long ops report progress: status shows a running rebuild's `work`, the log hears where a
replay is, and ragixctl draws it on a terminal (never into a pipe or --json output)."""

from __future__ import annotations

import io
import os
import pty
import subprocess
import sys
import threading

import pytest
from support.daemon import Daemon

from ragix_client.progress import render_progress, with_progress
from ragixd import contract
from ragixd.domain import commands as c
from ragixd.memory import Memory
from ragixd.store.store import Store

ITEMS = 8000  # ~16k events: a rebuild long enough to be seen a few times


@pytest.fixture(scope="module")
def big(tmp_path_factory):
    home = tmp_path_factory.mktemp("progress") / "home"
    mem = Memory(home, synchronous="OFF", backfill=False)
    for base in range(0, ITEMS, 1000):
        mem.execute([c.CreateItem({"title": f"Note {i}", "content": f"pottery kiln log entry {i} cone {i % 11}"},
                                  dedup=False) for i in range(base, base + 1000)])
    mem.close()
    daemon = Daemon(home).start(timeout=60)
    yield daemon
    daemon.stop()


def test_status_shows_a_running_rebuild(big):
    a, b = big.client(timeout=120), big.client()
    box: dict = {}
    rebuild = threading.Thread(target=lambda: box.update(a.rebuild(timeout=120)))
    rebuild.start()
    seen = []
    while rebuild.is_alive():
        status = b.status()
        assert contract.first_error("ops/status#answer", status) is None
        seen += [w for w in status["work"] if w["op"] == "rebuild"]
        rebuild.join(0.01)
    assert seen, "status never showed the rebuild"
    assert all(0 <= w["done"] <= w["total"] for w in seen)
    assert {w["phase"] for w in seen} <= {"start", "replay", "index", "vectors"}
    assert all(w["unit"] == ("items" if w["phase"] == "index" else "events") for w in seen)
    assert box["events"] >= 2 * ITEMS and b.status()["work"] == []
    a.close()
    b.close()


def test_ragixctl_draws_progress_on_a_terminal_only(big):
    env = {**os.environ, "RAGIX_ENDPOINT": big.endpoint}
    proc, drawn = _stderr_on_a_terminal([sys.executable, "-m", "ragix_client.ctl", "rebuild"], env=env)
    assert proc.returncode == 0 and "rebuilt every projection" in proc.stdout
    assert b"rebuild: " in drawn and b" events" in drawn
    piped = subprocess.run([sys.executable, "-m", "ragix_client.ctl", "--json", "verify"], env=env,
                           capture_output=True, text=True, timeout=180)
    assert piped.returncode == 0 and piped.stderr == ""
    assert piped.stdout.lstrip().startswith("{")


def test_replay_reports_each_batch_and_the_end(tmp_path):
    store = Store(tmp_path / "db.sqlite", synchronous="OFF")
    store.execute([c.CreateItem({"title": f"t{i}", "content": f"c{i}"}, dedup=False) for i in range(50)])
    import apsw

    from ragixd.store import migrations
    from ragixd.store.projection import Projections
    from ragixd.store.store import replay
    fresh = apsw.Connection(str(tmp_path / "fresh.sqlite"))
    migrations.migrate(fresh)
    heard = []
    replay(store.reader(), fresh, Projections(), batch=20, progress=lambda *p: heard.append(p))
    fresh.close()
    assert heard == [("replay", 20, 50), ("replay", 40, 50), ("replay", 50, 50),
                     ("index", 20, 50), ("index", 40, 50), ("index", 50, 50)]
    rebuilt = []
    store.rebuild(lambda *p: rebuilt.append(p))
    assert ("replay", 50, 50) in rebuilt and rebuilt[-1] == ("index", 50, 50)
    checks = []
    assert store.verify(lambda phase, done, total: checks.append(phase))["ok"]
    assert checks[0] == "chain" and checks[-1] == "replay"
    store.close()


def test_progress_line_and_no_drawing_off_a_terminal():
    line = render_progress({"op": "rebuild", "phase": "replay", "done": 40_000, "total": 100_000,
                            "elapsed_s": 5.06})
    assert line == "rebuild: replay 40,000/100,000 events (40%), 5.1 s"
    assert render_progress({"op": "verify", "phase": "start", "done": 0, "total": 0, "elapsed_s": 0}) \
        == "verify: start 0/0 events, 0.0 s"
    assert render_progress({"op": "rebuild", "phase": "index", "done": 5_000, "total": 20_000,
                            "unit": "items", "elapsed_s": 2.0}) == "rebuild: index 5,000/20,000 items (25%), 2.0 s"
    out = io.StringIO()
    assert with_progress("ipc:///nonexistent/x.sock", "rebuild", lambda: 42, stream=out) == 42
    assert out.getvalue() == ""


def _stderr_on_a_terminal(command: list[str], env: dict[str, str] | None = None,
                          ) -> tuple[subprocess.CompletedProcess, bytes]:
    """Run `command` with its stderr on a terminal; its result and what it drew there."""
    master, slave = pty.openpty()
    try:
        proc = subprocess.run(command, env=env, stdout=subprocess.PIPE, stderr=slave, text=True, timeout=180)
        os.close(slave)
        drawn = b""
        try:
            while chunk := os.read(master, 65536):
                drawn += chunk
        except OSError:  # the terminal's other end is closed: all read
            pass
    finally:
        os.close(master)
    return proc, drawn


def test_pipe_draws_where_its_ingest_is_on_a_terminal_only(daemon, tmp_path):
    notes = tmp_path / "notes.md"
    notes.write_text("\n\n".join(f"Kiln firing {i}: cone {i % 11}, " + "glaze " * 400 for i in range(6)))
    command = [sys.executable, "-m", "ragix_client.ctl", "--endpoint", daemon.endpoint, "pipe", "kiln",
               "--source", str(notes)]
    proc, drawn = _stderr_on_a_terminal(command)
    assert proc.returncode == 0 and "[MEMORY: " in proc.stdout
    assert b"pipe: file 1/1, notes.md: chunk 1/" in drawn
    piped = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert piped.returncode == 0 and piped.stderr == ""


def test_import_draws_where_it_is_on_a_terminal_only(daemon, tmp_path):
    import json
    dump = tmp_path / "dump.jsonl"
    dump.write_text("".join(json.dumps({"format": "ragix-export/1", "secrecy": "S3", "item": {
        "id": f"MEM-00000000000000{i:02x}", "title": f"kiln {i}", "content": f"firing {i}"}}) + "\n" for i in range(3)))
    command = [sys.executable, "-m", "ragix_client.ctl", "--endpoint", daemon.endpoint, "import", str(dump)]
    proc, drawn = _stderr_on_a_terminal(command)
    assert proc.returncode == 0 and "created 3" in proc.stdout
    assert b"import: line 1 of 3" in drawn
    piped = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert piped.returncode == 0 and piped.stderr == "" and "exists 3" in piped.stdout


def test_export_to_a_file_draws_its_count_on_a_terminal_only(daemon, tmp_path):
    daemon.client().write(title="kiln", content="firing on Sunday")
    target = tmp_path / "out.jsonl"
    command = [sys.executable, "-m", "ragix_client.ctl", "--endpoint", daemon.endpoint, "export", "-o", str(target)]
    proc, drawn = _stderr_on_a_terminal(command)
    assert proc.returncode == 0 and b"export: 0 items" in drawn and "exported 1 items" in proc.stdout
    piped = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert piped.returncode == 0 and "export:" not in piped.stderr and len(target.read_text().splitlines()) == 1
