"""Export and import of large items through a daemon with a small message limit, and an
export that fails: the file there before is kept (session 27's durability review)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

CTL = [sys.executable, "-m", "ragix_client.ctl"]
CAP = 200_000


@pytest.fixture
def capped(tmp_path):
    from support.daemon import Daemon
    d = Daemon(tmp_path / "home", extra_env={"RAGIX_MAX_MESSAGE_BYTES": str(CAP)}).start()
    yield d
    d.stop()


def _ctl(endpoint: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*CTL, "--endpoint", endpoint, "--json", *args], capture_output=True, text=True,
                          timeout=300)


def test_large_pointers_export_and_import_whatever_the_message_limit(capped, tmp_path):
    from support.daemon import Daemon
    c = capped.client()
    ids = [c.write(title=f"document {n}", content=f"section {n}. " + "long text " * 5_000, type="pointer")["id"]
           for n in range(8)]  # ~50,000 characters each: a few fill a request
    dump = tmp_path / "dump.jsonl"
    done = _ctl(capped.endpoint, "export", "--tier", "S3", "--output", str(dump))
    assert done.returncode == 0, done.stderr
    lines = dump.read_text().splitlines()
    assert [json.loads(line)["item"]["id"] for line in lines] == ids
    # One line over the limit by itself: counted invalid, the rest imported.
    huge = json.loads(lines[0])
    huge["item"].update(id="MEM-00000000000000ff", content="x" * (CAP + 10))
    dump.write_text("\n".join([*lines, json.dumps(huge)]) + "\n")
    other = Daemon(tmp_path / "other", extra_env={"RAGIX_MAX_MESSAGE_BYTES": str(CAP)}).start()
    try:
        done = _ctl(other.endpoint, "import", str(dump))
        assert done.returncode in (0, 1), done.stderr
        result = json.loads(done.stdout)
        assert result["created"] == 8 and result["invalid"] == 1
        assert [p["line"] for p in result["problems"]] == [9]
        assert len(other.client().read(*ids[:2])["items"]) == 2
    finally:
        other.stop()


def test_an_export_that_fails_leaves_the_file_that_was_there(tmp_path):
    backup = tmp_path / "backup.jsonl"
    backup.write_text('{"an": "earlier backup"}\n')
    done = _ctl(f"ipc://{tmp_path / 'nobody.sock'}", "export", "--output", str(backup))
    assert done.returncode != 0
    assert backup.read_text() == '{"an": "earlier backup"}\n'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["backup.jsonl"]  # no partial file left


def test_an_export_keeps_a_symlink_and_the_files_mode_and_writes_a_pipe_straight(daemon, tmp_path):
    import os
    import stat
    import threading
    daemon.client().write(title="kept", content="an item to export")
    target = tmp_path / "real.jsonl"
    target.write_text("old\n")
    target.chmod(0o640)
    link = tmp_path / "latest.jsonl"
    link.symlink_to(target)
    assert _ctl(daemon.endpoint, "export", "--output", str(link)).returncode == 0
    assert link.is_symlink() and "kept" in target.read_text()
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[str] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()))
    reader.start()
    done = _ctl(daemon.endpoint, "export", "--output", str(fifo))
    reader.join(60)
    assert done.returncode == 0, done.stderr
    assert stat.S_ISFIFO(fifo.stat().st_mode) and "kept" in got[0]


def test_links_of_a_line_over_the_limit_are_reported_not_dropped(capped, tmp_path):
    c = capped.client()
    first = c.write(title="target", content="a target")["id"]
    line = {"format": "ragix-export/1", "secrecy": "S3",
            "item": {"id": "MEM-00000000000000aa", "title": "many links", "content": "links to everything",
                     "links": [{"rel": "related", "to": first}] * 8000}}  # ~320 kB: over the 200 kB limit
    dump = tmp_path / "links.jsonl"
    dump.write_text(json.dumps(line) + "\n")
    done = _ctl(capped.endpoint, "import", str(dump))
    result = json.loads(done.stdout)
    assert done.returncode == 1 and result["created"] == 1 and result["invalid"] == 1, done.stdout
    assert [p["line"] for p in result["problems"]] == [1]
