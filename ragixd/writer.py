"""The single writer: one thread owns the write connection and commits commands in groups.

Jobs queue up while a group commits; the next group takes what is waiting (up to
max_group commands, SHARED_GROUP while several clients wait), so many writers share one
transaction and one fsync. It takes the jobs from each client in turn (each client's in
order): a client that pipelines thousands of writes fills most groups but cannot push another
client's write behind its backlog — that write goes into the next group, a small one. A job's callback
runs only after its group has committed: an answer means the write is durable. Work that
follows a commit but is not needed for durability (the vector index, the event stream) is
handed to the settler's thread, so the next group does not wait for it; reads that must see
it wait for it with min_seq.

A small job that finds the writer idle (nothing queued, its thread waiting) may be committed
at once on the thread that has it (`commit_now`: the socket loop, two thread hand-offs fewer
for a lone write). Commits, whichever thread makes them, and exclusive calls take one lock, so
groups still commit and reach the settler one at a time and in seq order.
"""

from __future__ import annotations

import queue
import threading
from dataclasses import dataclass
from typing import Any, Callable, Hashable, Protocol, Sequence

from .config import DEFAULT_MAX_GROUP
from .errors import Busy, RagixError, StoreError
from .fairqueue import FairQueue
from .logs import call_safely, get
from .settler import Settler
from .store.store import GroupResult

log = get("ragixd.writer")


class Committer(Protocol):
    """What the writer drives (the Memory): commit a group durably, then settle it."""

    head_seq: int

    def execute_attributed(self, pairs: Sequence[tuple[Any, str]], *,
                           settle: bool = True) -> GroupResult: ...

    def settle(self, events: list[Any]) -> None: ...


@dataclass
class Job:
    commands: list[Any]
    actor: str
    done: Callable[[list[Any], int], None]
    owner: Hashable = None

    def split(self, size: int) -> tuple[Job, Job]:
        """The first `size` commands and the rest, as two jobs committed in turn: the caller's
        `done` hears every result, in order, once both parts are answered (the rest may be
        answered busy by a stop while the first is still committing, on another thread)."""
        parts: list[tuple[list[Any], int] | None] = [None, None]
        lock = threading.Lock()

        def part_done(index: int, results: list[Any], seq: int) -> None:
            with lock:
                parts[index] = (results, seq)
                if parts[0] is None or parts[1] is None:
                    return
            (head, head_seq), (rest, rest_seq) = parts
            self.done(head + rest, max(head_seq, rest_seq))
        return (Job(self.commands[:size], self.actor, lambda r, s: part_done(0, r, s), self.owner),
                Job(self.commands[size:], self.actor, lambda r, s: part_done(1, r, s), self.owner))


@dataclass
class Call:
    """Exclusive work on the writer thread (e.g. rebuild)."""

    fn: Callable[[], Any]
    done: Callable[[Any], None]


_STOP = object()
_CONTROL = object()  # the owner of calls and of the stop: a turn of their own
# Commands per group while another client's request waits. Each group pays a commit (an fsync:
# 0.3-5 ms on this virtual machine), so a client writing alone gets max_group; with others
# waiting, groups this small bound their wait (~0.5-1 ms a command) to tens of milliseconds.
SHARED_GROUP = 32


class Writer:
    def __init__(self, store: Committer, max_group: int = DEFAULT_MAX_GROUP,
                 on_commit: Callable[[list[Any]], None] | None = None,
                 on_start: Callable[[], None] | None = None,
                 on_exit: Callable[[], None] | None = None,
                 after_answers: Callable[[], None] | None = None) -> None:
        """on_commit, on_start and on_exit run on the settler's thread (it publishes);
        after_answers runs there too, before it settles a group."""
        self.store = store
        self.max_group = max_group
        self.settler = Settler(store.settle, on_settled=on_commit, on_start=on_start,
                               on_exit=on_exit, before=after_answers)
        self.queue = FairQueue()
        self.committed = threading.Condition()
        # Held while a group commits and is handed on, or a call runs: by the writer's thread,
        # or by one committing a job at once (commit_now).
        self._turn = threading.Lock()
        self._accepting = True
        self._thread = threading.Thread(target=self._run, name="ragixd-writer", daemon=True)

    def start(self) -> None:
        self.settler.start()
        self._thread.start()

    @property
    def depth(self) -> int:
        return len(self.queue)

    def submit(self, commands: list[Any], actor: str, done: Callable[[list[Any], int], None],
               owner: Hashable = None) -> None:
        """Queue a job under its owner (the client; None for the daemon's own work)."""
        if not self._accepting:
            raise Busy("the daemon is shutting down")
        self.queue.put(owner, Job(commands, actor, done, owner))

    def commit_now(self, commands: list[Any], actor: str, done: Callable[[list[Any], int], None],
                   owner: Hashable = None) -> bool:
        """Commit a job on the calling thread if the writer is idle (nothing queued, so none
        of this owner's jobs is ahead of it; no group committing) and answer it as the writer
        would; False, having done nothing, when it is not (then `submit` it)."""
        if not self._accepting or not self.queue.idle():
            return False
        if not self._turn.acquire(blocking=False):  # a group of another thread's is committing
            return False
        try:
            self._commit_turn([Job(commands, actor, done, owner)])
        finally:
            self._turn.release()
        return True

    def call(self, fn: Callable[[], Any], done: Callable[[Any], None]) -> None:
        if not self._accepting:
            raise Busy("the daemon is shutting down")
        self.queue.put(_CONTROL, Call(fn, done))

    def wait_for_seq(self, seq: int, timeout: float) -> bool:
        with self.committed:
            return self.committed.wait_for(lambda: self.store.head_seq >= seq, timeout)

    def stop(self, timeout: float = 30.0) -> None:
        """Refuse new jobs, finish the group in flight, answer the jobs still queued with Busy
        (nothing of theirs was written), then end the thread."""
        self._accepting = False
        while True:
            try:
                waiting = self.queue.get()
            except queue.Empty:
                break
            busy = Busy("the daemon is shutting down; nothing was written, try again")
            if isinstance(waiting, Job):
                self._safe(waiting.done, [busy] * len(waiting.commands), self.store.head_seq)
            elif isinstance(waiting, Call):
                self._safe(waiting.done, busy)
        self.queue.put(_CONTROL, _STOP)
        self._thread.join(timeout)
        self.settler.stop(timeout)

    def _run(self) -> None:
        while True:
            first = self.queue.get(wait=True)
            if first is _STOP:
                return
            if isinstance(first, Call):
                self._call(first)
                continue
            jobs, stop = self._gather(first)
            self._commit(jobs)
            if stop:
                return

    def _gather(self, first: Job) -> tuple[list[Job], bool]:
        """The jobs of one group: `first`, then others in turn while they fit. A group holds
        up to max_group commands while one client is writing, and SHARED_GROUP once another
        client's request is waiting: an import then runs in big groups (one fsync each), and
        a write arriving beside it waits for one such group and one small one, not for the
        import. A job that does not fit leaves room for smaller ones of other clients; one
        bigger than the limit is committed in parts, its owner's turn coming round between
        them, and answered after the last."""
        limit = self.max_group
        if self.queue.has_others(first.owner):
            limit = min(limit, SHARED_GROUP)
        if len(first.commands) > limit:
            first, rest = first.split(limit)
            self.queue.put_front(first.owner, rest)
        jobs = [first]
        size = len(first.commands)

        def fits(job: Any) -> bool:
            return not isinstance(job, Job) or size + len(job.commands) <= limit
        while size < limit:
            try:
                nxt = self.queue.get(fits=fits)
            except queue.Empty:
                break
            if nxt is _STOP:
                return jobs, True
            if isinstance(nxt, Call):
                self._commit(jobs)
                self._call(nxt)
                jobs, size = [], 0
                continue
            jobs.append(nxt)
            size += len(nxt.commands)
        return jobs, False

    def _commit(self, jobs: list[Job]) -> None:
        if not jobs:
            return
        with self._turn:
            self._commit_turn(jobs)

    def _commit_turn(self, jobs: list[Job]) -> None:
        pairs = [(cmd, job.actor) for job in jobs for cmd in job.commands]
        try:
            group = self.store.execute_attributed(pairs, settle=False)
            results, seq = group.results, group.seq
        except RagixError as err:
            log.error("writer.group_failed", error=str(err), commands=len(pairs))
            results, seq, group = [err] * len(pairs), self.store.head_seq, None
        except Exception as err:  # a bug must not kill the writer
            log.exception("writer.group_crashed", commands=len(pairs))
            wrapped = StoreError(f"write failed: {err}")
            results, seq, group = [wrapped] * len(pairs), self.store.head_seq, None
        with self.committed:
            self.committed.notify_all()
        at = 0
        for job in jobs:
            part = results[at:at + len(job.commands)]
            at += len(job.commands)
            self._safe(job.done, part, seq)
        if group is not None and group.events:
            self.settler.hand(group.events)

    def _call(self, call: Call) -> None:
        with self._turn:  # no group commits meanwhile, on any thread
            self.settler.drain()  # exclusive work (a rebuild) must not race a settle
            try:
                result = call.fn()
            except Exception as err:  # reported to the caller, never fatal
                result = err if isinstance(err, RagixError) else StoreError(str(err))
        with self.committed:
            self.committed.notify_all()
        self._safe(call.done, result)

    @staticmethod
    def _safe(fn: Callable[..., Any], *args: Any) -> None:
        call_safely(log, "writer.callback_failed", fn, *args)
