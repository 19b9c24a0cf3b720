"""The settler follows the writer's commits in order, off the writer's thread."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from ragixd.settler import Settler
from ragixd.store.store import GroupResult
from ragixd.writer import Writer


def test_groups_are_settled_in_commit_order_then_published():
    settled, published = [], []
    settler = Settler(settled.extend, on_settled=published.extend)
    settler.start()
    for n in range(50):
        settler.hand([n, n + 0.5])
    assert settler.drain(10)
    settler.stop()
    expected = [x for n in range(50) for x in (n, n + 0.5)]
    assert settled == expected and published == expected


def test_a_failing_settle_does_not_stop_the_thread():
    seen = []

    def settle(events):
        if 3 in events:
            raise RuntimeError("boom")
        seen.extend(events)

    settler = Settler(settle)
    settler.start()
    settler.hand([3])
    assert settler.drain(10)
    settler.hand([4])
    assert settler.drain(10)
    settler.stop()
    assert seen == [4]


def test_stop_settles_what_was_handed_over_and_runs_start_and_exit_on_its_thread():
    threads, settled = {}, []
    gate = threading.Event()

    def settle(events):
        gate.wait(10)
        settled.extend(events)

    settler = Settler(settle, on_start=lambda: threads.setdefault("start", threading.current_thread()),
                      on_exit=lambda: threads.setdefault("exit", threading.current_thread()))
    settler.start()
    for n in range(5):
        settler.hand([n])
    assert not settler.drain(0.05)  # the first settle is held
    gate.set()
    settler.stop()
    assert settled == [0, 1, 2, 3, 4]
    assert threads["start"] is threads["exit"] is not threading.current_thread()


@dataclass
class SlowSettleStore:
    """A committer whose settle blocks until released: commits must go on meanwhile."""

    head_seq: int = 0
    release: threading.Event = field(default_factory=threading.Event)
    settled: list = field(default_factory=list)

    def execute_attributed(self, pairs, *, settle=True) -> GroupResult:
        start = self.head_seq
        self.head_seq += len(pairs)
        return GroupResult(results=[c for c, _ in pairs], seq=self.head_seq,
                           events=list(range(start + 1, self.head_seq + 1)))

    def settle(self, events: list[Any]) -> None:
        self.release.wait(10)
        self.settled.extend(events)


def test_the_writer_commits_and_answers_while_a_settle_is_held():
    store = SlowSettleStore()
    writer = Writer(store)
    writer.start()
    answers = []
    done = threading.Event()

    def answered(results, seq):
        answers.append(seq)
        if len(answers) == 3:
            done.set()

    for n in range(3):
        writer.submit([f"cmd{n}"], "test", answered)
    assert done.wait(10), "a held settle kept the writer from answering"
    assert store.settled == []
    store.release.set()
    writer.stop()
    assert store.settled == [1, 2, 3]


def test_exclusive_work_waits_for_the_settles_before_it():
    store = SlowSettleStore()
    writer = Writer(store)
    writer.start()
    writer.submit(["a"], "test", lambda results, seq: None)
    seen = threading.Event()
    box = {}
    writer.call(lambda: list(store.settled), lambda result: (box.update(r=result), seen.set()))
    assert not seen.wait(0.1)
    store.release.set()
    assert seen.wait(10)
    writer.stop()
    assert box["r"] == [1]
