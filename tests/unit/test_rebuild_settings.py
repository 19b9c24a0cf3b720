"""A rebuild relaxes two settings while it loads (commit flushes, full-text merges) and gives
both back, also when it fails midway."""

from __future__ import annotations

import pytest

from ragixd.domain import commands as c
from ragixd.store import store as store_module
from ragixd.store.store import Store

FULL = 2


def synchronous(s: Store) -> int:
    return s._writer.execute("PRAGMA synchronous").fetchone()[0]


def automerge(s: Store) -> dict:
    return dict(s.reader().execute("SELECT k, v FROM memory_items_fts_config"))


@pytest.fixture
def filled(tmp_path):
    s = Store(tmp_path / "m.db", synchronous="FULL")
    s.execute([c.CreateItem({"title": f"note {i}", "content": f"kafka lag {i}"}) for i in range(30)])
    yield s
    s.close()


def test_rebuild_gives_back_its_settings(filled):
    assert synchronous(filled) == FULL
    filled.rebuild()
    assert synchronous(filled) == FULL
    assert automerge(filled).get("automerge") == 4
    assert len(filled.search("kafka", k=40)) == 30  # the index was built


def test_failed_rebuild_gives_back_its_settings(filled, monkeypatch):
    def fail(*_args):
        raise RuntimeError("disk gone")

    monkeypatch.setattr(store_module, "_index_text", fail)
    with pytest.raises(RuntimeError):
        filled.rebuild()
    assert synchronous(filled) == FULL
    assert filled._writer.getautocommit()  # nothing left open


def indexes(s: Store) -> list[tuple]:
    return s.reader().execute(
        "SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'index' ORDER BY name").fetchall()


def test_rebuild_creates_again_the_indexes_it_builds_at_the_end(filled, monkeypatch):
    """The deferred indexes are dropped in the first batch's commit and created after the
    last event, as they were defined."""
    before = indexes(filled)
    assert set(store_module.DEFERRED_INDEXES) <= {name for name, _, _ in before}
    monkeypatch.setattr(store_module, "REPLAY_BATCH", 7)
    filled.rebuild()
    assert indexes(filled) == before
    assert filled.verify()["ok"]
