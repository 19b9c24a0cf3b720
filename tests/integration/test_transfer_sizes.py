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
