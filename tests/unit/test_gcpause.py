"""The collector paused over a replay: counted across overlapping replays, and safe because a
replay makes no reference cycles."""

from __future__ import annotations

import gc
import threading

import pytest

from ragixd.domain import commands as c
from ragixd.store.gcpause import collector_paused
from ragixd.store.store import Store


@pytest.fixture
def collector_on():
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_paused_inside_and_back_on_after(collector_on):
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the outer pause still holds
    assert gc.isenabled()


def test_left_off_when_it_was_off(collector_on):
    gc.disable()
    with collector_paused():
        pass
    assert not gc.isenabled()


def test_back_on_after_an_error(collector_on):
    with pytest.raises(RuntimeError):
        with collector_paused():
            raise RuntimeError("replay failed")
    assert gc.isenabled()


def test_overlapping_pauses_in_threads(collector_on):
    """One replay ending while another runs leaves the collector off until the last ends."""
    first_in, second_in, first_out = threading.Event(), threading.Event(), threading.Event()
    seen = {}

    def first():
        with collector_paused():
            first_in.set()
            second_in.wait(5)
        first_out.set()

    def second():
        first_in.wait(5)
        with collector_paused():
            second_in.set()
            first_out.wait(5)
            seen["during"] = gc.isenabled()
        seen["after"] = gc.isenabled()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert seen == {"during": False, "after": True}


def _varied_store(path) -> Store:
    store = Store(path, synchronous="OFF")
    ids = []
    for n in range(60):
        result = store.execute([c.CreateItem({"title": f"item {n}", "content": f"text about Bob {n}",
                                              "tags": ["a", f"t{n % 3}"], "entities": ["Bob", f"E{n % 4}"],
                                              "provenance": {"source_id": f"notes.md:{n}"}})])
        ids.append(result.results[0]["id"])
    for n, item_id in enumerate(ids):
        store.execute([c.UpdateItem(item_id, {"content": f"changed {n}", "entities": ["Carol"]}),
                       c.RecordUse({item_id: 2, ids[(n + 1) % len(ids)]: 1}),
                       c.CreateLink(item_id, ids[(n + 7) % len(ids)], "related"),
                       c.AssignPalace(item_id)])
    for item_id in ids[:10]:
        store.execute([c.ArchiveItem(item_id), c.SupersedeItem(ids[-1], item_id)])
    return store


class _Spy:
    """A projector that notes, at each event it is given, whether the collector is on and how
    many collections have run so far."""

    name = "spy"
    tables = ()

    def __init__(self, collections: list) -> None:
        self.collections = collections
        self.seen: list[tuple[bool, int]] = []

    def apply(self, conn, event, changes) -> None:
        self.seen.append((gc.isenabled(), len(self.collections)))


def test_a_replay_runs_without_collections_and_leaves_no_cycles(tmp_path, collector_on):
    store = _varied_store(tmp_path / "m.db")
    live = store.dump()
    collections: list[int] = []
    spy = _Spy(collections)
    store.projections.projectors.append(spy)

    def watch(phase, info):
        if phase == "start":
            collections.append(info["generation"])

    gc.collect()
    gc.callbacks.append(watch)
    try:
        store.rebuild()
    finally:
        gc.callbacks.remove(watch)
        store.projections.projectors.remove(spy)
    assert len(spy.seen) == store.head_seq > 300
    # Off at every event, and no collection from the first event to the last (a replay of
    # hundreds of events would otherwise run several).
    assert {on for on, _ in spy.seen} == {False}
    assert spy.seen[0][1] == spy.seen[-1][1]
    assert gc.isenabled()
    gc.disable()
    try:
        store.rebuild()
        # What a replay left unreachable: only a collector could free it. A cycle made per
        # event would leave hundreds here.
        assert gc.collect() < 50
    finally:
        gc.enable()
    assert store.dump() == live
    store.close()
