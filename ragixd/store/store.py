"""The Store: the event log plus its projections, behind one small in-process API.

Writes go through `execute`, which decides each command against the current state, appends
its events and applies them to every projection in one transaction (group commit: many
commands, one commit, one fsync). A command that fails is rolled back to its savepoint and
answered with its error; the others in the group still commit. Reads use a connection per
thread and never write.
"""

from __future__ import annotations

import itertools
import os
import tempfile
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

import apsw

from ..domain import commands as cmds
from ..domain.clock import now_ts
from ..domain.events import Event
from ..domain.policy import Policy
from ..errors import RagixError, StoreError
from . import keys, log, migrations, queries
from .gcpause import collector_paused
from .db import READ_MMAP_BYTES, open_connection
from .filters import Filters
from .projection import ConnectionView, Projections
from .projectors import fts

REPLAY_BATCH = 20_000
# Indexes a replay builds after its last event rather than row by row: nothing a replay reads
# goes through them (it reads items by id, revisions by item, tags by row id, entity links by
# their key), and an index built from the full table is sorted once, where one kept up to date
# takes a random b-tree insert per row, and per update of a column it holds (a content update
# changes the content hash). Session 23: ~5 % less CPU for 100k creates, ~11 % for 1M events.
DEFERRED_INDEXES = ("idx_items_created", "idx_items_hash", "idx_items_counts", "idx_items_source_key",
                    "idx_entity_items_item", "idx_links_dst", "idx_palace_path")
SYNC_NORMAL = 1  # PRAGMA synchronous: 0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA
# Tables that are not projections of the log and are left out of dumps and rebuilds.
NOT_PROJECTED = ("memory_events", "schema_migrations", keys.KEYS_TABLE)


# Adds derived events to a decision before it is appended (e.g. embedding vectors).
Enricher = Callable[[list, ConnectionView, cmds.Context], list]


class _ApplyFailed(Exception):
    """Applying a decided command failed; the group is retried with isolation."""


@dataclass
class GroupResult:
    """What one group commit produced: per-command results (dict or error), events, head seq."""

    results: list[dict[str, Any] | RagixError] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    seq: int = 0


class Store:
    def __init__(self, path: str | Path, *, synchronous: str = "FULL",
                 enrichers: Sequence[Enricher] = (), policy: Policy | None = None) -> None:
        self.path = Path(path)
        self.policy = policy or cmds.default_policy()
        self.enrichers = list(enrichers)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.synchronous = synchronous
        self.projections = Projections()
        self.incomplete: str | None = None  # why the projections are not whole (rebuild), or None
        self._write_lock = threading.Lock()
        self._local = threading.local()
        self._readers: list[apsw.Connection] = []
        self._readers_lock = threading.Lock()
        self._writer = open_connection(self.path, synchronous=synchronous)
        log.create(self._writer)
        self.audit_key = keys.audit_key(self._writer)
        migrations.migrate(self._writer)
        self._head = log.head(self._writer)
        if self._behind():
            self.rebuild()

    # -- writing ---------------------------------------------------------------------------

    @property
    def head_seq(self) -> int:
        return self._head.seq

    def execute(self, commands: Sequence[Any], actor: str = "local") -> GroupResult:
        """Execute commands all attributed to one actor (see execute_attributed)."""
        return self.execute_attributed([(command, actor) for command in commands])

    def execute_attributed(self, commands: Sequence[tuple[Any, str]]) -> GroupResult:
        """Decide, append and project a group of (command, actor) pairs in one transaction.

        Commands are decided before they write, so a refused command leaves nothing behind.
        Should applying one fail unexpectedly, the group is run again with a savepoint per
        command, so that one bad command cannot take the others down with it.
        """
        with self._write_lock:
            self.check_complete()
            try:
                out = self._group(commands, isolate=False)
            except _ApplyFailed:
                out = self._group(commands, isolate=True)
        out.seq = self._head.seq
        return out

    def _group(self, commands: Sequence[tuple[Any, str]], isolate: bool) -> GroupResult:
        out = GroupResult()
        conn = self._writer
        try:
            conn.execute("BEGIN IMMEDIATE")
            head = self._head
            for command, actor in commands:
                head = self._execute_one(conn, command, actor, head, out, isolate)
            if out.events:
                self.projections.flush(conn, head.seq)
                self.projections.record_position(conn, head.seq)
            conn.execute("COMMIT")
        except _ApplyFailed:
            self._rollback(conn)
            raise
        except apsw.Error as e:
            self._rollback(conn)
            raise StoreError(f"commit failed: {e}") from e
        except BaseException:
            self._rollback(conn)
            raise
        self._head = head
        return out

    def _execute_one(self, conn: apsw.Connection, command: Any, actor: str, head: log.Head,
                     out: GroupResult, isolate: bool) -> log.Head:
        ctx = cmds.Context(ts=now_ts(), actor=actor, policy=self.policy, audit_key=self.audit_key)
        try:
            view = ConnectionView(conn)
            decision = cmds.decide(command, view, ctx)
            for enrich in self.enrichers:
                decision.events.extend(enrich(decision.events, view, ctx))
        except RagixError as err:
            out.results.append(err)
            return head
        except Exception as err:  # noqa: BLE001 - deciding writes nothing: one bad command fails alone
            out.results.append(StoreError(f"command failed: {type(err).__name__}: {err}"))
            return head
        try:
            if isolate:
                with conn:  # a savepoint: a command that fails to apply leaves no trace
                    events, new_head = self._append(conn, head, decision, ctx, actor)
            else:
                events, new_head = self._append(conn, head, decision, ctx, actor)
        except Exception as err:  # noqa: BLE001 - the group is run again, each command isolated
            if not isolate:
                raise _ApplyFailed() from err
            out.results.append(StoreError(f"command failed: {err}"))
            return head
        out.events.extend(events)
        out.results.append({**decision.result, "seq": new_head.seq})
        return new_head

    def _append(self, conn, head, decision, ctx, actor):
        events, new_head = log.append(conn, head, decision.events, ctx.ts, actor)
        for event in events:
            self.projections.apply(conn, event)
        return events, new_head

    def _rollback(self, conn: apsw.Connection) -> None:
        self.projections.discard()
        try:
            conn.execute("ROLLBACK")
        except apsw.Error:
            pass

    def run(self, command: Any, actor: str = "local") -> dict[str, Any]:
        """Execute one command; return its result or raise its error."""
        result = self.execute([command], actor).results[0]
        if isinstance(result, RagixError):
            raise result
        return result

    # -- reading ---------------------------------------------------------------------------

    def reader(self) -> apsw.Connection:
        """This thread's read connection (opened on first use)."""
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = open_connection(self.path, synchronous=self.synchronous, mmap_bytes=READ_MMAP_BYTES)
            self._local.conn = conn
            with self._readers_lock:
                self._readers.append(conn)
        return conn

    @contextmanager
    def snapshot(self) -> Iterator[apsw.Connection]:
        """A read transaction: every query inside sees the same committed state."""
        conn = self.reader()
        conn.execute("BEGIN")
        try:
            yield conn
        finally:
            conn.execute("COMMIT")

    def get(self, item_id: str, filters: Filters | None = None):
        return queries.get_item(self.reader(), item_id, filters)

    def search(self, query: str, filters: Filters | None = None, k: int = 10):
        return queries.search(self.reader(), query, filters, k)

    def history(self, item_id: str) -> list[dict[str, Any]]:
        """Every revision of the item, oldest first (in process, unpaged)."""
        return queries.history(self.reader(), item_id)[0]

    def timeline(self, anchor: str, before: int = 5, after: int = 5, filters: Filters | None = None):
        return queries.timeline(self.reader(), anchor, before, after, filters)

    def stats(self) -> dict[str, Any]:
        with self.snapshot() as conn:
            data = queries.stats(conn)
            data["projectors"] = self.projections.all_positions(conn)
        return data

    def events(self, after: int = 0) -> Iterator[Event]:
        return log.read(self.reader(), after)

    # -- rebuild and verify ----------------------------------------------------------------

    def _behind(self) -> bool:
        positions = Projections.positions(self._writer)
        names = [p.name for p in self.projections.projectors]
        if self._head.seq == 0:
            return False
        return any(positions.get(name) != self._head.seq for name in names)

    def rebuild(self, progress: log.Progress | None = None) -> dict[str, Any]:
        """Drop every projection and replay the whole log into fresh tables.

        A rebuild that fails after the drop (a full disk, a stop) leaves the tables partly
        built: `incomplete` then says why, and no command is executed until a rebuild succeeds
        (a write would record every projector at the head over half-built tables, and the next
        start would take them for whole). The log itself is untouched, and a start with the
        positions behind it completes the replay."""
        with self._write_lock, collector_paused():
            conn = self._writer
            try:
                with conn:
                    drop_projections(conn)
                migrations.migrate(conn)
                replayed = replay(conn, conn, self.projections, progress=progress)
            except BaseException as err:
                self.incomplete = f"the last rebuild did not finish ({getattr(err, 'message', None) or err})"
                raise
            self.incomplete = None
            self._head = log.head(conn)
        return {"events": replayed, "seq": self._head.seq}

    def profile_sqlite(self, hook: Callable[[str, int], None] | None) -> None:
        """Call `hook(statement, nanoseconds)` after each statement the writer connection runs
        (None stops it): how much of a write or a rebuild is SQLite's own work, for bench/."""
        self._writer.set_profile(hook)

    def check_complete(self) -> None:
        """Raise StoreError while the projections are incomplete (see rebuild)."""
        if self.incomplete is not None:
            raise StoreError(f"the memory cannot be read or written: {self.incomplete}; the log is intact, "
                             "and `ragixctl rebuild` (or a restart) builds the rest again once the cause "
                             "is fixed", incomplete=self.incomplete)

    def verify(self, progress: log.Progress | None = None) -> dict[str, Any]:
        """Check the hash chain, the FTS index, and live projections against a fresh replay."""
        with self.snapshot() as conn:
            broken, why, checked = log.verify_chain(conn, progress)
            report: dict[str, Any] = {"events": checked, "chain_ok": broken is None}
            if broken is not None:
                report.update(ok=False, broken_seq=broken, reason=why)
                return report
            report["mismatched_tables"] = compare_with_replay(conn, self.path.parent, progress)
        # Outside the snapshot: the check is an INSERT command, which needs the write lock and
        # would fail at once inside a read transaction that a later commit has overtaken.
        report["fts_ok"] = fts.integrity_ok(self.reader())
        report["ok"] = report["fts_ok"] and not report["mismatched_tables"]
        return report

    def dump(self) -> dict[str, list[tuple]]:
        with self.snapshot() as conn:
            return dump_projections(conn)

    def close(self) -> None:
        with self._readers_lock:
            for conn in self._readers:
                conn.close()
            self._readers.clear()
        self._writer.close()


def projection_tables(conn: apsw.Connection) -> list[str]:
    """Plain projection tables (FTS virtual and shadow tables excluded)."""
    rows = conn.execute(
        "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' "
        "AND name NOT LIKE 'memory_items_fts%' AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name")
    return [r[0] for r in rows if r[0] not in NOT_PROJECTED]


def drop_projections(conn: apsw.Connection) -> None:
    conn.execute("DROP TABLE IF EXISTS memory_items_fts")
    conn.execute(f"DROP VIEW IF EXISTS {fts.TEXT_VIEW}")
    for name in projection_tables(conn):
        conn.execute(f'DROP TABLE IF EXISTS "{name}"')
    conn.execute("DELETE FROM schema_migrations")


def replay(source: apsw.Connection, target: apsw.Connection, projections: Projections,
           batch: int | None = None, index_text: bool = True,
           progress: log.Progress | None = None) -> int:
    """Apply every event of `source`'s log to `target`'s fresh projections, in batched
    transactions, each ending like a group commit; then, unless index_text is False (for a
    comparison that does not read it), build the full-text index from the items' final rows.

    The index is built once at the end, not batch by batch: an item updated in many batches
    is indexed once instead of being taken out and indexed again each time. Its position is
    recorded only with the last commit, so a replay stopped before then leaves it behind the
    log and the next start rebuilds; nothing reads the projections meanwhile, so a partly
    built index is never seen. The DEFERRED_INDEXES are missing likewise: dropped in the first
    batch, created again from their own definitions after the last event.
    `progress` hears ("replay", events applied, events in the log) after each batch, then
    ("index", items indexed, items) after each piece of the index. The cyclic garbage
    collector is paused meanwhile (see gcpause)."""
    batch = batch or REPLAY_BATCH
    count = 0
    pending = 0
    total = log.head(source).seq if progress else 0
    with collector_paused(), projections.replaying(), _batches_unsynced(target) as resync:
        target.execute("BEGIN")
        try:
            deferred = _drop_indexes(target, DEFERRED_INDEXES)
            for event in log.read(source, 0):
                projections.apply(target, event)
                count += 1
                pending += 1
                if pending >= batch:
                    projections.flush(target, event.seq, index_text=False)
                    # Not the index's: it is built after the last event (a replay stopped
                    # before then leaves it behind the log, and the next start rebuilds).
                    projections.record_position(target, event.seq, skip=(fts.FtsProjector.name,))
                    target.execute("COMMIT")
                    target.execute("BEGIN")
                    pending = 0
                    if progress:
                        progress("replay", count, total)
            head = log.head(source).seq
            projections.flush(target, head, index_text=False)
            for sql in deferred:
                target.execute(sql)
            if progress:
                progress("replay", count, total)
            if index_text:
                _index_text(target, batch, progress)
            target.execute("COMMIT")
            # The positions last, in a commit that waits for the disk: its flush makes the
            # batches before it durable too, and a crash before it leaves the replay undone.
            resync()
            if head:
                target.execute("BEGIN")
                projections.record_position(target, head)
                target.execute("COMMIT")
        except BaseException:
            projections.discard()
            if not target.getautocommit():
                target.execute("ROLLBACK")
            raise
    return count


def _drop_indexes(conn: apsw.Connection, names: Sequence[str]) -> list[str]:
    """Drop those of the named indexes that exist; return the statements that create them."""
    marks = ", ".join("?" * len(names))
    found = conn.execute(f"SELECT name, sql FROM sqlite_master WHERE type = 'index' AND name IN ({marks}) "
                         "ORDER BY name", tuple(names)).fetchall()
    for name, _ in found:
        conn.execute(f'DROP INDEX "{name}"')
    return [sql for _, sql in found]


@contextmanager
def _batches_unsynced(conn: apsw.Connection) -> Iterator[Callable[[], None]]:
    """Within: the commits of a replay's batches do not wait for the disk (synchronous=NORMAL:
    in WAL mode a commit is then ordered but not flushed). What it yields gives the connection
    its own setting back, for the last commit: that one waits for the disk, and its flush makes
    every frame written before it durable too. A crash before then loses at most some batches,
    whose recorded positions go with them, so the next start replays them again; the log is
    not written during a replay (it holds the writer)."""
    own = conn.execute("PRAGMA synchronous").fetchone()[0]

    def restore() -> None:
        if conn.getautocommit():  # not within a transaction, where SQLite refuses the change
            conn.execute(f"PRAGMA synchronous={own}")

    if own > SYNC_NORMAL:
        conn.execute(f"PRAGMA synchronous={SYNC_NORMAL}")
    try:
        yield restore
    finally:
        restore()


def _index_text(target: apsw.Connection, rows_per_piece: int, progress: log.Progress | None) -> None:
    """Within replay's open transaction: index every item's text, a piece at a time, each
    piece committed (the log's write-ahead file stays the size of one piece), then merge the
    index into one segment (searches read one b-tree)."""
    items, ranges = fts.index_ranges(target, rows_per_piece)
    fts.pause_merging(target)
    done = 0
    for after, upto in ranges:
        done += fts.index_range(target, after, upto)
        target.execute("COMMIT")
        target.execute("BEGIN")
        if progress:
            progress("index", done, items)
    fts.optimize(target)


def dump_projections(conn: apsw.Connection) -> dict[str, list[tuple]]:
    out = {}
    for name in projection_tables(conn):
        cols = [r[1] for r in conn.execute(f'PRAGMA table_info("{name}")')]
        order = ", ".join(f'"{c}"' for c in cols)
        out[name] = conn.execute(f'SELECT * FROM "{name}" ORDER BY {order}').fetchall()
    return out


VERIFY_PREFIX = ".verify-"  # the scratch database of a verify's replay, beside the store


def remove_verify_leftovers(home: Path) -> list[str]:
    """Delete the scratch databases a verify cut short (the daemon killed during it) left in
    `home`; the names removed. Only for the one process that owns the home (its lock held)."""
    removed = []
    for leftover in home.glob(VERIFY_PREFIX + "*.db*"):
        try:
            leftover.unlink()
            removed.append(leftover.name)
        except OSError:
            pass
    return removed


def compare_with_replay(conn: apsw.Connection, workdir: Path, progress: log.Progress | None = None) -> list[str]:
    """Names of projection tables whose live rows differ from a replay of the log."""
    fd, tmp = tempfile.mkstemp(prefix=VERIFY_PREFIX, suffix=".db", dir=workdir)
    os.close(fd)
    try:
        fresh = apsw.Connection(tmp)
        fresh.execute("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF")
        migrations.migrate(fresh)
        replay(conn, fresh, Projections(), index_text=False, progress=progress)
        live, expected = set(projection_tables(conn)), set(projection_tables(fresh))
        differ = sorted((live ^ expected) | {name for name in live & expected
                                              if not _same_rows(conn, fresh, name)})
        fresh.close()
    finally:
        for suffix in ("", "-journal", "-wal", "-shm"):
            Path(tmp + suffix).unlink(missing_ok=True)
    return differ


def _same_rows(a: apsw.Connection, b: apsw.Connection, name: str) -> bool:
    """Whether table `name` holds the same rows in both databases, compared as two ordered
    streams (memory stays flat however large the table: a 1M-event log's revisions alone
    would be gigabytes as Python lists)."""
    columns = [r[1] for r in a.execute(f'PRAGMA table_info("{name}")')]
    if columns != [r[1] for r in b.execute(f'PRAGMA table_info("{name}")')]:
        return False
    sql = f'SELECT * FROM "{name}" ORDER BY ' + ", ".join(f'"{c}"' for c in columns)
    rows_a, rows_b = a.execute(sql), b.execute(sql)
    while True:
        chunk = list(itertools.islice(rows_a, 4096))
        if chunk != list(itertools.islice(rows_b, 4096)):
            return False
        if not chunk:
            return True
