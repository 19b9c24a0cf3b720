"""The neighbours of a hit: items of its source written just before and after it, read on the
stored source key (projectors/items.py). Read-only, like every query.

A neighbour is an item of the anchor's source among the `window` items (passing the filters)
created nearest to the anchor on its side, in (created_at, rid) order. Rather than reading
those `window` rows, the nearest items of the source are sought on (source_key, created_at,
rid) and each is checked to lie within the window: fewer than `window` items may pass the
filters strictly between the two. Items of one time are told apart by row id, so a gap of
fewer than `window` row ids between two items of one time proves it with no read at all (the
turns of a chat session, the chunks of one file), else the items between are counted, never
past `window`. SQLite bounds an index range on (created_at, rid) by created_at alone, so each
statement below seeks one created_at (and a rid range) or a range of created_at, never both.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import apsw

from .filters import Filters

_RID_MAX = (1 << 63) - 1
_SIDES = (("<", ">", "DESC"), (">", "<", "ASC"))  # before the anchor, after it


class Near(NamedTuple):
    rid: int
    id: str
    created_at: str


class _Side:
    """The statements that read one side of an anchor (before: op '<'; after: op '>')."""

    def __init__(self, op: str, back: str, order: str, where: str) -> None:
        self.op = op
        cols = "SELECT i.rid, i.id, i.created_at FROM memory_items i WHERE i.source_key = ? AND"
        # The source's items of the anchor's time on this side, then those of other times.
        self.same_time = f"{cols} i.created_at = ? AND i.rid {op} ? AND {where} ORDER BY i.rid {order} LIMIT ?"
        self.other_times = (f"{cols} i.created_at {op} ? AND {where} "
                            f"ORDER BY i.created_at {order}, i.rid {order} LIMIT ?")
        count = "SELECT count(*) FROM (SELECT 1 FROM memory_items i WHERE"
        self.count_at = f"{count} i.created_at = ? AND i.rid > ? AND i.rid < ? AND {where} LIMIT ?)"
        self.count_inside = (f"{count} i.created_at {op} ? AND i.created_at {back} ? AND {where} LIMIT ?)")


def near(conn: apsw.Connection, anchors: list[tuple[Any, str]], window: int, span: int,
         filters: Filters) -> list[list[Near]]:
    """For each (anchor, source): up to `span` items of that source on each side of the anchor
    (nearest first, the side before first), among the `window` items created just before it
    and the `window` just after. An anchor is anything with `rid` and `created_at`."""
    out: list[list[Near]] = [[] for _ in anchors]
    if window <= 0 or span <= 0:
        return out
    where, params = filters.where()
    sides = [_Side(op, back, order, where) for op, back, order in _SIDES]
    for found, (anchor, source) in zip(out, anchors):
        for side in sides:
            found += _one_side(conn, side, (anchor.created_at, anchor.rid), source, window, span, params)
    return out


def _one_side(conn: apsw.Connection, side: _Side, key: tuple[str, int], source: str, window: int,
              span: int, params: list[Any]) -> list[Near]:
    at, rid = key
    rows = conn.execute(side.same_time, (source, at, rid, *params, span)).fetchall()
    if len(rows) < span:
        rows += conn.execute(side.other_times, (source, at, *params, span - len(rows))).fetchall()
    # Nearest first: once one lies past the window, so does every one after it.
    kept = []
    for row in rows:
        if not _within(conn, side, key, (row[2], row[0]), window, params):
            break
        kept.append(Near(*row))
    return kept


def _within(conn: apsw.Connection, side: _Side, key: tuple[str, int], other: tuple[str, int],
            window: int, params: list[Any]) -> bool:
    """Whether fewer than `window` items passing the filters lie strictly between the anchor's
    key and another one on `side` (row ids are log seqs: from 1, below _RID_MAX)."""
    (at, rid), (other_at, other_rid) = key, other
    if other_at == at:
        low, high = sorted((rid, other_rid))
        return high - low - 1 < window or _count(conn, side.count_at, (at, low, high), window, params) < window
    before = side.op == "<"
    # The anchor's time beyond it, the times in between, then the other item's time up to it.
    parts = ((side.count_at, (at, 0, rid) if before else (at, rid, _RID_MAX)),
             (side.count_inside, (at, other_at)),
             (side.count_at, (other_at, other_rid, _RID_MAX) if before else (other_at, 0, other_rid)))
    total = 0
    for sql, args in parts:
        total += _count(conn, sql, args, window - total, params)
        if total >= window:
            return False
    return True


def _count(conn: apsw.Connection, sql: str, args: tuple, limit: int, params: list[Any]) -> int:
    """Rows of a count statement, up to `limit`."""
    return conn.execute(sql, (*args, *params, limit)).fetchone()[0]
