"""A stop that arrives while a rebuild (or a verify) runs: the op ends at its next batch with
`busy`, the daemon exits cleanly and promptly, and the next start finds the store whole.
Before, the stop waited 30 s for the writer and then closed the store under the running
replay (a traceback and exit 1 on a 1M-event log)."""

from __future__ import annotations

import threading
import time

import pytest
from support.daemon import Daemon

from ragixd.domain import commands as c
from ragixd.errors import Busy, RagixError
from ragixd.memory import Memory
from ragixd.store import store as store_module
from ragixd.store.store import Store

ITEMS = 6000


@pytest.fixture
def home(tmp_path):
    home = tmp_path / "home"
    mem = Memory(home, synchronous="OFF", backfill=False)
    for base in range(0, ITEMS, 1000):
        mem.execute([c.CreateItem({"title": f"Kiln {i}", "content": f"firing log {i} cone {i % 11}"},
                                  dedup=False) for i in range(base, base + 1000)])
    mem.close()
    return home


def test_sigterm_during_a_rebuild_exits_cleanly_and_the_next_start_is_whole(home):
    daemon = Daemon(home).start(timeout=60)
    a, b = daemon.client(timeout=120), daemon.client()
    before = b.stats()["items"]
    box: dict = {}

    def rebuild() -> None:
        try:
            box["answer"] = a.rebuild(timeout=120)
        except RagixError as err:
            box["error"] = err
    worker = threading.Thread(target=rebuild)
    worker.start()
    deadline = time.monotonic() + 60
    while worker.is_alive() and time.monotonic() < deadline:
        if any(w["op"] == "rebuild" for w in b.status()["work"]):
            break
    b.close()
    code = daemon.stop(timeout=60)
    worker.join(30)
    a.close()
    assert code == 0, daemon.log()
    assert "Traceback" not in daemon.log() and "daemon.stopped" in daemon.log()
    if "error" in box:  # stopped part way (or refused at the door): said, never silent
        assert isinstance(box["error"], (Busy, RagixError))
    again = Daemon(home).start(timeout=120)
    try:
        client = again.client(timeout=120)
        assert client.verify(timeout=120)["ok"]
        assert client.stats()["items"] == before
        client.close()
    finally:
        again.stop()
    assert daemon.contract_problems() == [] and again.contract_problems() == []


def test_a_replay_stopped_between_batches_leaves_a_store_that_reopens_whole(tmp_path, monkeypatch):
    monkeypatch.setattr(store_module, "REPLAY_BATCH", 20)
    path = tmp_path / "db.sqlite"
    store = Store(path, synchronous="OFF")
    store.execute([c.CreateItem({"title": f"t{i}", "content": f"c{i}"}, dedup=False) for i in range(50)])
    whole = store.dump()

    def stop_after_first(phase: str, done: int, total: int) -> None:
        if done >= 20:
            raise Busy("the daemon is stopping")
    heard = []
    with pytest.raises(Busy):
        store.rebuild(lambda *p: (heard.append(p), stop_after_first(*p)))
    assert heard == [("replay", 20, 50)]
    positions = set(store.projections.positions(store.reader()).values())
    assert positions == {20}  # the first batch was committed, nothing of the second
    store.close()
    reopened = Store(path, synchronous="OFF")  # behind the head: rebuilt whole on open
    assert reopened.dump() == whole and reopened.verify()["ok"]
    reopened.close()
