"""The directory the daemon keeps compiled policy databases in: best effort, never fatal."""

import os
import time

from ragixd.native_cache import DirectoryCache


def test_put_then_get_round_trips(tmp_path):
    cache = DirectoryCache(tmp_path / "policy")
    assert cache.get("k") is None
    cache.put("k", b"compiled bytes")
    assert cache.get("k") == b"compiled bytes"
    assert not [p for p in (tmp_path / "policy").iterdir() if p.name.startswith(".tmp-")]


def test_an_unwritable_directory_is_not_an_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    cache = DirectoryCache(blocker / "policy")
    cache.put("k", b"x")  # cannot be written: silently skipped
    assert cache.get("k") is None


def test_prune_removes_entries_unused_for_a_month_and_keeps_the_rest(tmp_path):
    cache = DirectoryCache(tmp_path / "policy")
    for key in ("old", "read", "fresh"):
        cache.put(key, key.encode())
    directory = tmp_path / "policy"
    month_ago = time.time() - 31 * 86400
    for key in ("old", "read"):
        os.utime(directory / f"{key}.hsdb", (month_ago, month_ago))
    assert cache.get("read") == b"read"  # a read marks the entry as in use
    (directory / ".tmp-left").write_bytes(b"half")
    os.utime(directory / ".tmp-left", (month_ago, month_ago))
    (directory / "notes.txt").write_text("not the cache's")
    os.utime(directory / "notes.txt", (month_ago, month_ago))
    assert cache.prune() == 2
    assert sorted(p.name for p in directory.iterdir()) == ["fresh.hsdb", "notes.txt", "read.hsdb"]
    assert cache.get("old") is None and cache.get("fresh") == b"fresh"


def test_prune_of_a_missing_directory_removes_nothing(tmp_path):
    assert DirectoryCache(tmp_path / "nowhere").prune() == 0
