"""The directory the daemon keeps compiled policy databases in: best effort, never fatal."""

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
