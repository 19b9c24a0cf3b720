"""The log is append-only and tamper-evident; old event versions are upcast on read."""

import apsw
import pytest

from ragixd.domain import commands as c
from ragixd.domain import events as ev
from ragixd.store import log


def fill(store, n=5):
    for i in range(n):
        store.run(c.CreateItem({"title": f"item {i}", "content": f"content {i}"}))


def test_triggers_refuse_update_and_delete(store):
    fill(store, 2)
    conn = store.reader()
    with pytest.raises(apsw.ConstraintError):
        conn.execute("UPDATE memory_events SET actor='evil' WHERE seq=1")
    with pytest.raises(apsw.ConstraintError):
        conn.execute("DELETE FROM memory_events WHERE seq=1")
    assert store.verify()["ok"]


def _tamper(store, seq, column="payload"):
    conn = store.reader()
    conn.execute("DROP TRIGGER memory_events_no_update")
    if column == "payload":
        blob = bytearray(conn.execute("SELECT payload FROM memory_events WHERE seq=?", (seq,)).fetchone()[0])
        index = blob.find(b"content ")
        blob[index] ^= 0x01  # one byte of the stored content
        conn.execute("UPDATE memory_events SET payload=? WHERE seq=?", (bytes(blob), seq))
    else:
        conn.execute(f"UPDATE memory_events SET {column}='someone' WHERE seq=?", (seq,))


@pytest.mark.parametrize("seq", [1, 3, 5])
def test_verify_names_the_tampered_event(store, seq):
    fill(store, 5)
    _tamper(store, seq)
    report = store.verify()
    assert report["ok"] is False and report["chain_ok"] is False
    assert report["broken_seq"] == seq


def test_verify_catches_tampered_header(store):
    fill(store, 4)
    _tamper(store, 2, column="actor")
    assert store.verify()["broken_seq"] == 2


def test_verify_catches_a_projection_that_drifted_from_the_log(store):
    fill(store, 3)
    store.reader().execute("UPDATE memory_items SET usage_count = 99 WHERE rid = 1")
    report = store.verify()
    assert report["chain_ok"] and not report["ok"]
    assert report["mismatched_tables"] == ["memory_items"]
    store.rebuild()
    assert store.verify()["ok"]


def test_chain_links_each_event_to_its_predecessor(store):
    fill(store, 3)
    events = list(store.events())
    assert events[0].prev_hash == log.GENESIS.hash
    for prev, nxt in zip(events, events[1:]):
        assert nxt.prev_hash == prev.hash and nxt.seq == prev.seq + 1


def test_old_versions_are_upcast_on_read(monkeypatch):
    monkeypatch.setitem(ev.CURRENT_VERSIONS, ev.ITEM_ARCHIVED, 2)
    monkeypatch.setitem(ev.UPCASTERS, (ev.ITEM_ARCHIVED, 1),
                        lambda p: {**p, "reason": p["reason"].upper()})
    old = ev.Event(1, "EVT-0000000000000001", ev.ITEM_ARCHIVED, 1, "t", "a", {"id": "MEM-1234", "reason": "x"})
    new = ev.upcast(old)
    assert new.v == 2 and new.payload["reason"] == "X"
    assert old.payload["reason"] == "x"  # the stored event is not rewritten


def test_missing_upcaster_is_an_error(monkeypatch):
    monkeypatch.setitem(ev.CURRENT_VERSIONS, ev.ITEM_ARCHIVED, 3)
    with pytest.raises(ValueError):
        ev.upcast(ev.Event(1, "EVT-0000000000000001", ev.ITEM_ARCHIVED, 1, "t", "a", {}))


def test_reopening_resumes_from_the_log(tmp_path):
    from ragixd.store.store import Store
    s = Store(tmp_path / "m.db")
    fill(s, 3)
    dump = s.dump()
    s.close()
    again = Store(tmp_path / "m.db")
    assert again.dump() == dump and again.head_seq == 3
    fill(again, 1)
    assert again.verify()["ok"]
    again.close()


def test_projections_behind_the_log_are_rebuilt_on_open(tmp_path):
    from ragixd.store.store import Store
    s = Store(tmp_path / "m.db")
    fill(s, 3)
    s.reader().execute("UPDATE projector_positions SET seq = 1 WHERE name='items'")
    s.close()
    again = Store(tmp_path / "m.db")
    assert again.verify()["ok"] and again.stats()["projectors"]["items"] == 3
    again.close()


def test_verify_catches_a_missing_and_an_extra_projection_row(store):
    fill(store, 3)
    store.reader().execute("DELETE FROM memory_revisions WHERE rowid = (SELECT max(rowid) FROM memory_revisions)")
    assert store.verify()["mismatched_tables"] == ["memory_revisions"]
    store.rebuild()
    store.reader().execute("INSERT INTO item_tags(rid, tag) VALUES (1, 'zzz-extra')")
    assert store.verify()["mismatched_tables"] == ["item_tags"]
