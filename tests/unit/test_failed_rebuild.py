"""A rebuild that fails halfway (a full disk, a stop) must not leave a store that serves and
writes over half-built tables (session 27's durability review: a write then recorded every
projector at the head, and the next start took the half-built tables for whole)."""

from __future__ import annotations

import pytest

from ragixd.domain import commands as c
from ragixd.errors import StoreError
from ragixd.store import store as store_module
from ragixd.store.projection import Projections
from ragixd.store.store import Store


def _filled(path) -> tuple[Store, list[str]]:
    s = Store(path, synchronous="OFF")
    ids = [s.execute([c.CreateItem({"title": f"note {n}", "content": f"kafka note number {n}"})]).results[0]["id"]
           for n in range(30)]
    s.execute([c.UpdateItem(ids[0], {"content": "changed"}), c.RecordUse({ids[1]: 2})])
    return s, ids


def test_a_failed_rebuild_stops_writes_until_one_succeeds_and_a_restart_completes_it(tmp_path, monkeypatch):
    s, ids = _filled(tmp_path / "m.db")
    live = s.dump()
    applied = {"n": 0}
    real_apply = Projections.apply

    def failing_apply(self, conn, event):
        applied["n"] += 1
        if applied["n"] == 20:
            raise OSError(28, "No space left on device")
        return real_apply(self, conn, event)

    monkeypatch.setattr(Projections, "apply", failing_apply)
    monkeypatch.setattr(store_module, "REPLAY_BATCH", 8)  # some batches committed before the failure
    with pytest.raises(OSError):
        s.rebuild()
    assert "No space left on device" in s.incomplete
    with pytest.raises(StoreError) as caught:
        s.execute([c.CreateItem({"title": "after", "content": "a write over half-built tables"})])
    assert "rebuild" in caught.value.message and caught.value.details["incomplete"] == s.incomplete
    head = s.head_seq
    s.close()
    monkeypatch.setattr(Projections, "apply", real_apply)
    again = Store(tmp_path / "m.db", synchronous="OFF")  # a restart: positions behind, replayed
    assert again.incomplete is None and again.head_seq == head
    assert again.dump() == live
    assert again.verify()["ok"]
    again.close()


def test_a_rebuild_that_succeeds_clears_the_mark(tmp_path, monkeypatch):
    s, _ = _filled(tmp_path / "m.db")
    live = s.dump()
    real_replay = store_module.replay

    def broken_replay(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(store_module, "replay", broken_replay)
    with pytest.raises(OSError):
        s.rebuild()
    assert s.incomplete is not None
    monkeypatch.setattr(store_module, "replay", real_replay)
    s.rebuild()
    assert s.incomplete is None and s.dump() == live
    s.execute([c.CreateItem({"title": "after", "content": "written once the store is whole again"})])
    s.close()
