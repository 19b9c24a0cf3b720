"""Applying events to every projector, and the read-only state view commands decide against."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Callable, Iterator

import apsw

from ..domain import events as ev
from ..domain.events import Event
from ..domain.item import MemoryItem
from ..domain.reducer import apply_use, created_item, reduce_item, target_id
from . import queries
from .projectors import items as items_proj
from .projectors.base import ItemChange, Projector
from .projectors.entities import EntitiesProjector
from .projectors.fts import FtsProjector
from .projectors.items import ItemsProjector
from .projectors.links import LinksProjector
from .projectors.log_totals import LogTotalsProjector
from .projectors.palace import PalaceProjector
from .projectors.refusals import RefusalsProjector
from .projectors.revisions import RevisionsProjector
from .projectors.vectors import VectorsProjector


def default_projectors() -> list[Projector]:
    return [ItemsProjector(), FtsProjector(), RevisionsProjector(), LinksProjector(),
            PalaceProjector(), EntitiesProjector(), RefusalsProjector(), VectorsProjector(),
            LogTotalsProjector()]


Loader = Callable[[apsw.Connection, str], "tuple[int, MemoryItem] | None"]


def item_changes(conn: apsw.Connection, event: Event, load: Loader = items_proj.load) -> list[ItemChange]:
    """The items an event changes, loaded before and folded after."""
    if event.type == ev.ITEM_CREATED:
        return [ItemChange(None, created_item(event), event.seq)]
    if event.type == ev.ITEM_USED:
        return [use_change(load(conn, use["id"]), use, event.ts) for use in event.payload["uses"]]
    item_id = target_id(event)
    if item_id is None:
        return []
    rid, item = load(conn, item_id)
    return [ItemChange(item, reduce_item(item, event), rid)]


def use_change(found: tuple[int, MemoryItem], use: dict, ts: str) -> ItemChange:
    """The change one use ({"id", "count"}) at time `ts` makes to a loaded (rid, item)."""
    rid, item = found
    return ItemChange(item, apply_use(item, use["count"], ts), rid)


class _Folded:
    """The states a replay has just folded, by item id, so that the next event on the same
    item does not read and parse its row again (a replay touches the same items over and over:
    usage counts, updates). Bounded; only the items projector writes these rows, and the memo
    lives no longer than one replay."""

    LIMIT = 50_000

    def __init__(self) -> None:
        self.states: dict[str, tuple[int, MemoryItem]] = {}

    def load(self, conn: apsw.Connection, item_id: str) -> tuple[int, MemoryItem] | None:
        found = self.states.get(item_id)
        return found if found is not None else items_proj.load(conn, item_id)

    def changes(self, conn: apsw.Connection, event: Event) -> list[ItemChange]:
        """item_changes, with the states held here. A use changes nothing but the usage
        count and last-use time, which only the items projector stores: every use is counted
        on its row at once (no row read back and parsed, no projector called: most of a long
        log is uses), and the state of a used item held here is brought up to date with it."""
        if event.type != ev.ITEM_USED:
            changes = item_changes(conn, event, self.load)
            self.keep(changes)
            return changes
        uses = event.payload["uses"]
        states = self.states
        for use in uses:
            held = states.get(use["id"])
            if held is not None:
                states[use["id"]] = (held[0], apply_use(held[1], use["count"], event.ts))
        items_proj.add_uses(conn, uses, event.ts)
        return []

    def keep(self, changes: list[ItemChange]) -> None:
        states = self.states
        if len(states) >= self.LIMIT:
            states.clear()
        for change in changes:
            states[change.after.id] = (change.rid, change.after)


class Projections:
    """Every projector, fed each event in order, positions kept per projector."""

    def __init__(self, projectors: list[Projector] | None = None) -> None:
        self.projectors = projectors or default_projectors()
        self._folded: _Folded | None = None

    def apply(self, conn: apsw.Connection, event: Event) -> None:
        folded = self._folded
        changes = item_changes(conn, event) if folded is None else folded.changes(conn, event)
        for projector in self.projectors:
            projector.apply(conn, event, changes)

    @contextmanager
    def replaying(self) -> Iterator[None]:
        """Within: remember the item states folded, for the next events on the same items, and
        tell the projectors that have a `replaying` switch (what they may remember then)."""
        switches = [s for s in (getattr(p, "replaying", None) for p in self.projectors) if s is not None]
        self._folded = _Folded()
        for switch in switches:
            switch(True)
        try:
            yield
        finally:
            self._folded = None
            for switch in switches:
                switch(False)

    def flush(self, conn: apsw.Connection, upto: int, index_text: bool = True) -> None:
        """End of a group whose last committed event is `upto`: projectors that write in bulk
        write now (the full-text index, the log totals)."""
        for projector in self.projectors:
            flush = getattr(projector, "flush", None)
            if flush is not None:
                flush(conn, upto, index_text)

    def discard(self) -> None:
        """The group was rolled back: drop whatever projectors collected for it."""
        if self._folded is not None:
            self._folded.states.clear()
        for projector in self.projectors:
            discard = getattr(projector, "discard", None)
            if discard is not None:
                discard()

    def record_position(self, conn: apsw.Connection, seq: int, skip: tuple[str, ...] = ()) -> None:
        """Record that every projector (but those named in `skip`) has applied up to seq."""
        conn.executemany(
            "INSERT OR REPLACE INTO projector_positions(name, seq) VALUES (?, ?)",
            [(p.name, seq) for p in self.projectors if p.name not in skip])

    @staticmethod
    def positions(conn: apsw.Connection) -> dict[str, int]:
        return dict(conn.execute("SELECT name, seq FROM projector_positions ORDER BY name"))

    def all_positions(self, conn: apsw.Connection) -> dict[str, int]:
        """Each projector's last applied seq; one that has applied nothing yet (a fresh home)
        has no row, and is at 0."""
        return {**{p.name: 0 for p in self.projectors}, **self.positions(conn)}

    def tables(self) -> list[str]:
        return [t for p in self.projectors for t in p.tables]


class ConnectionView:
    """The StateView of the domain, read through a connection (sees the open transaction)."""

    def __init__(self, conn: apsw.Connection) -> None:
        self.conn = conn

    def get_item(self, item_id: str) -> MemoryItem | None:
        found = items_proj.load(self.conn, item_id)
        return found[1] if found else None

    def exists(self, item_id: str) -> bool:
        return self.conn.execute("SELECT 1 FROM memory_items WHERE id=?", (item_id,)).fetchone() is not None

    def find_duplicate(self, store: str, content_hash: str, live_at: str,
                       until: str | None) -> MemoryItem | None:
        """The first live item of `store` with this content hash that is served at least as
        long as a write expiring at `until` would be (None: never expiring): not past its expiry
        at `live_at`, and expiring no earlier than `until`. One without an expiry first."""
        expiry = "expires_at IS NULL" if until is None else "(expires_at IS NULL OR expires_at >= ?)"
        rows = self.conn.execute(
            f"SELECT expires_at IS NOT NULL, rid, id FROM memory_items "
            f"WHERE store=? AND content_hash=? AND archived=0 AND {expiry} AND (expires_at IS NULL OR expires_at > ?)",
            (store, content_hash, live_at) if until is None else (store, content_hash, until, live_at)).fetchall()
        return self.get_item(min(rows)[2]) if rows else None

    def live_of_source(self, store: str, source: str) -> list[str]:
        """Ids of the live items of `store` whose source_id is `source`, ':' and a part that
        holds no ':' (a file's chunk number): those whose stored source key is `source`. Not
        the sources under it: a file named "notes:2023.md" is not a part of "notes"."""
        rows = self.conn.execute(
            "SELECT id FROM memory_items WHERE source_key = ? AND +store = ? AND +archived = 0 ORDER BY rid",
            (source, store)).fetchall()
        return [r[0] for r in rows]

    def palace_location(self, item_id: str) -> dict[str, str] | None:
        return queries.palace_location(self.conn, item_id)

    def link_exists(self, src: str, dst: str, rel: str) -> bool:
        row = self.conn.execute(
            "SELECT 1 FROM memory_links WHERE src_id=? AND dst_id=? AND rel=?", (src, dst, rel)).fetchone()
        return row is not None
