"""The writer takes clients' jobs in turn and keeps groups within max_group: a client that
pipelines a flood, or sends one huge request, does not push another client's write behind all
of it. Jobs are queued before the writer starts, so the groups it forms are deterministic."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from hypothesis import given, settings, strategies as st

from ragixd.errors import Busy
from ragixd.fairqueue import FairQueue
from ragixd.store.store import GroupResult
from ragixd.writer import Writer


@dataclass
class RecordingStore:
    """Commits each command as one event; remembers every group's commands."""

    head_seq: int = 0
    groups: list = field(default_factory=list)

    def execute_attributed(self, pairs, *, settle=True) -> GroupResult:
        self.groups.append([c for c, _ in pairs])
        start = self.head_seq
        self.head_seq += len(pairs)
        return GroupResult(results=[f"ok:{c}" for c, _ in pairs], seq=self.head_seq,
                           events=list(range(start + 1, self.head_seq + 1)))

    def settle(self, events) -> None:
        pass


def _run(jobs: list[tuple[str, list[str]]], max_group: int):
    """Queue (owner, commands) jobs, then run the writer until all are answered."""
    store = RecordingStore()
    writer = Writer(store, max_group=max_group)
    answers: dict[int, tuple[list, int]] = {}
    all_done = threading.Event()
    for n, (owner, commands) in enumerate(jobs):
        def done(results, seq, n=n):
            answers[n] = (results, seq)
            if len(answers) == len(jobs):
                all_done.set()
        writer.submit(commands, "test", done, owner=owner)
    writer.start()
    assert all_done.wait(10)
    writer.stop()
    return store.groups, answers


def test_a_quiet_clients_write_goes_into_the_next_group_not_behind_the_flood():
    flood = [("flood", [f"f{n}.{i}" for i in range(10)]) for n in range(20)]
    groups, answers = _run(flood + [("quiet", ["q"])], max_group=30)
    assert all(len(g) <= 30 for g in groups)
    assert groups[0] == ["f0.%d" % i for i in range(10)] + ["q"] + ["f1.%d" % i for i in range(10)]
    assert answers[20] == (["ok:q"], 21)  # answered with the first group, not after 200 commands


def test_a_request_bigger_than_a_group_is_cut_and_answered_once_whole():
    """Cut in SHARED_GROUP commands while another client waits, in max_group once alone."""
    from ragixd.writer import SHARED_GROUP

    big = [f"b{i}" for i in range(250)]
    groups, answers = _run([("importer", big), ("quiet", ["q"]), ("quiet", ["q2"])], max_group=100)
    rest = 250 - SHARED_GROUP
    assert [len(g) for g in groups] == [SHARED_GROUP, 2, 100, 100, rest - 200]
    assert groups[1] == ["q", "q2"]
    results, seq = answers[0]
    assert results == [f"ok:{c}" for c in big] and seq == 252  # every result, in order, at its last seq
    assert answers[1][1] == answers[2][1] == SHARED_GROUP + 2


def test_a_client_writing_alone_gets_whole_groups():
    groups, answers = _run([("importer", [f"b{i}" for i in range(250)])], max_group=100)
    assert [len(g) for g in groups] == [100, 100, 50]
    assert answers[0][1] == 250


def test_a_job_that_does_not_fit_leaves_room_for_smaller_ones():
    groups, _ = _run([("a", ["a1"]), ("b", [f"b{i}" for i in range(8)]), ("c", ["c1"])], max_group=5)
    assert groups == [["a1", "c1"], ["b0", "b1", "b2", "b3", "b4"], ["b5", "b6", "b7"]]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("abc"), st.integers(1, 12)), min_size=1, max_size=12),
       st.integers(1, 10))
def test_every_command_is_committed_once_each_clients_in_order(jobs, max_group):
    named = [(owner, [f"{owner}{n}.{i}" for i in range(size)]) for n, (owner, size) in enumerate(jobs)]
    groups, answers = _run(named, max_group)
    committed = [c for g in groups for c in g]
    assert sorted(committed) == sorted(c for _, cmds in named for c in cmds)
    assert all(len(g) <= max_group for g in groups)
    for owner in "abc":
        mine = [c for _, cmds in named if _ == owner for c in cmds]
        assert [c for c in committed if c[0] == owner] == mine
    for n, (_, cmds) in enumerate(named):
        results, seq = answers[n]
        assert results == [f"ok:{c}" for c in cmds]
        group_ends = [sum(len(g) for g in groups[: k + 1]) for k in range(len(groups))]
        last = committed.index(cmds[-1]) + 1
        assert seq == min(end for end in group_ends if end >= last)  # the seq its last group reached


def test_stop_answers_the_rest_of_a_cut_request_busy_after_its_committed_part():
    """The first part commits while a stop answers the queued rest busy: the request is
    answered once, whole — its committed results, then busy for the rest."""
    import time

    store = RecordingStore()
    writer = Writer(store, max_group=4)
    box = {}
    entered, gate = threading.Event(), threading.Event()
    original = store.execute_attributed

    def held(pairs, *, settle=True):
        entered.set()
        gate.wait(10)
        return original(pairs, settle=settle)
    store.execute_attributed = held
    writer.submit([f"x{i}" for i in range(10)], "test", lambda r, s: box.update(r=r, s=s), owner="x")
    writer.start()
    assert entered.wait(10)  # the first four are committing
    stopper = threading.Thread(target=writer.stop)
    stopper.start()
    deadline = time.monotonic() + 10
    while len(writer.queue) != 1 and time.monotonic() < deadline:  # the rest drained, the stop queued
        time.sleep(0.01)
    assert "r" not in box  # not answered while its first part is in flight
    gate.set()
    stopper.join(10)
    results = box["r"]
    assert results[:4] == ["ok:x0", "ok:x1", "ok:x2", "ok:x3"]
    assert len(results) == 10 and all(isinstance(r, Busy) for r in results[4:])
    assert box["s"] == 4


def test_fits_passes_over_an_owner_without_losing_its_place():
    q = FairQueue()
    q.put("big", 50)
    q.put("small", 1)
    assert q.get(fits=lambda job: job < 10) == 1
    assert q.get() == 50


def _wait_idle(writer: Writer) -> None:
    for _ in range(1000):
        if writer.queue.idle():
            return
        threading.Event().wait(0.005)
    raise AssertionError("the writer never became idle")


def test_commit_now_commits_on_the_calling_thread_only_when_the_writer_is_idle():
    store = RecordingStore()
    writer = Writer(store, max_group=8)
    answers = []

    def done(results, seq):
        answers.append((results, seq, threading.current_thread().name))

    writer.submit(["queued"], "test", done, owner="a")  # not started: a job is waiting
    assert not writer.commit_now(["now"], "test", done, owner="b") and store.groups == []
    writer.start()
    _wait_idle(writer)
    assert writer.commit_now(["now"], "test", done, owner="b")
    assert store.groups == [["queued"], ["now"]]
    assert answers[-1] == (["ok:now"], 2, threading.current_thread().name)
    writer.stop()
    assert not writer.commit_now(["late"], "test", done, owner="b")  # stopped: nothing done
    assert store.groups == [["queued"], ["now"]]


def test_commit_now_never_overtakes_a_group_being_committed():
    """While the writer's thread commits a group (its job taken, so nothing is queued), a job
    to commit now is refused, not committed beside it or ahead of the answers."""
    release = threading.Event()
    started = threading.Event()

    class SlowStore(RecordingStore):
        def execute_attributed(self, pairs, *, settle=True):
            started.set()
            assert release.wait(10)
            return super().execute_attributed(pairs, settle=settle)

    store = SlowStore()
    writer = Writer(store, max_group=8)
    writer.start()
    writer.submit(["first"], "test", lambda r, s: None, owner="a")
    assert started.wait(10)
    assert not writer.queue.idle()
    assert not writer.commit_now(["second"], "test", lambda r, s: None, owner="a")
    release.set()
    _wait_idle(writer)
    assert writer.commit_now(["second"], "test", lambda r, s: None, owner="a")
    assert store.groups == [["first"], ["second"]]
    writer.stop()
