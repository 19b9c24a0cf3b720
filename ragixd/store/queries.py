"""Read-side queries over the projections. They never write: reads are not events."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from typing import Any, NamedTuple

import apsw
import msgpack

from ..domain.item import MemoryItem
from ..domain.palace import LEVELS, split_path
from ..domain import clock
from ..domain.text import cjk_query_terms, content_terms, entity_key
from ..errors import NotFound
from . import log
from .filters import Filters
from .projectors import log_totals
from .projectors.fts import BM25
from .projectors.items import SELECT_COLUMNS, row_to_item

_loads = json.JSONDecoder().decode
ITEM_COLS = ", ".join(f"i.{c}" for c in SELECT_COLUMNS.split(", "))


@contextmanager
def snapshot(conn: apsw.Connection) -> Iterator[apsw.Connection]:
    """One read transaction around several queries (joined if one is already open), so that
    rows chosen by one query are still what the next one reads."""
    if conn.in_transaction:
        yield conn
        return
    conn.execute("BEGIN")
    try:
        yield conn
    finally:
        conn.execute("COMMIT")


def get_items(conn: apsw.Connection, ids: list[str], filters: Filters | None = None) -> list[MemoryItem]:
    """Items by id in the order asked, each once; missing or invisible ids are left out."""
    f = filters or Filters(include_archived=True)
    where, params = f.where()
    found: dict[str, MemoryItem] = {}
    for chunk in _chunks(list(dict.fromkeys(ids))):
        rows = conn.execute(f"SELECT {ITEM_COLS} FROM memory_items i WHERE i.id IN ({_marks(chunk)}) "
                            f"AND {where}", [*chunk, *params])
        for row in rows:
            item = row_to_item(row)[1]
            found[item.id] = item
    return [found[i] for i in dict.fromkeys(ids) if i in found]  # each once, as first asked


def items_by_rid(conn: apsw.Connection, rids: list[int]) -> dict[int, MemoryItem]:
    """Items by row id, unfiltered (for rows already chosen through filters)."""
    out: dict[int, MemoryItem] = {}
    for chunk in _chunks(rids):
        for row in conn.execute(f"SELECT {ITEM_COLS} FROM memory_items i WHERE i.rid IN ({_marks(chunk)})", chunk):
            rid, item = row_to_item(row)
            out[rid] = item
    return out


def items_after(conn: apsw.Connection, after: int, limit: int, filters: Filters) -> list[tuple[int, MemoryItem]]:
    """Up to `limit` (rid, item) the filters allow, in rid order after rid `after`: one page of
    a walk over the whole store (export, the policy audit)."""
    where, params = filters.where()
    columns = ", ".join("i." + col for col in SELECT_COLUMNS.split(", "))
    rows = conn.execute(f"SELECT {columns} FROM memory_items i WHERE i.rid > ? AND {where} "
                        "ORDER BY i.rid LIMIT ?", [after, *params, limit]).fetchall()
    return [row_to_item(row) for row in rows]


def _chunks(values: list, size: int = 500) -> list[list]:
    return [values[i:i + size] for i in range(0, len(values), size)]


def _marks(values: list) -> str:
    return ",".join("?" * len(values))


def get_item(conn: apsw.Connection, item_id: str, filters: Filters | None = None) -> MemoryItem:
    found = get_items(conn, [item_id], filters)
    if not found:
        raise NotFound(f"no item {item_id}", id=item_id)
    return found[0]


def history(conn: apsw.Connection, item_id: str, after: int = 0, limit: int | None = None,
            budget: int | None = None) -> tuple[list[dict[str, Any]], int | None]:
    """The item's revisions numbered after `after`, oldest first: at most `limit` of them, and
    stopping where their stored snapshots pass `budget` bytes (at least one); with the revision
    number to go on after, or None when none is left."""
    rows = conn.execute(
        "SELECT revision_num, seq, event_id, changed_at, reason, actor, snapshot FROM memory_revisions "
        "WHERE item_id=? AND revision_num>? ORDER BY revision_num", (item_id, after))
    revisions: list[dict[str, Any]] = []
    left = budget
    for num, seq, eid, at, reason, actor, snap in rows:
        if limit is not None and len(revisions) >= limit:
            return revisions, revisions[-1]["revision"]
        if left is not None:
            left -= len(snap) + len(reason) + len(actor) + 128
            if left < 0 and revisions:
                return revisions, revisions[-1]["revision"]
        revisions.append({"revision": num, "seq": seq, "event_id": eid, "changed_at": at, "reason": reason,
                          "actor": actor, "snapshot": msgpack.unpackb(snap, raw=False)})
    return revisions, None


def timeline(conn: apsw.Connection, anchor: str, before: int = 5, after: int = 5,
             filters: Filters | None = None) -> list[MemoryItem]:
    """The anchor with up to `before` older and `after` newer items, oldest first."""
    f = filters or Filters()
    anchor_item = get_item(conn, anchor, Filters(include_archived=True, visible_stores=f.visible_stores))
    rid = conn.execute("SELECT rid FROM memory_items WHERE id=?", (anchor,)).fetchone()[0]
    key = (anchor_item.created_at, rid)
    where, params = f.where()
    older = conn.execute(
        f"SELECT {ITEM_COLS} FROM memory_items i WHERE (i.created_at, i.rid) < (?, ?) AND {where} "
        "ORDER BY i.created_at DESC, i.rid DESC LIMIT ?", [*key, *params, before]).fetchall()
    newer = conn.execute(
        f"SELECT {ITEM_COLS} FROM memory_items i WHERE (i.created_at, i.rid) > (?, ?) AND {where} "
        "ORDER BY i.created_at, i.rid LIMIT ?", [*key, *params, after]).fetchall()
    rows = list(reversed(older)) + newer
    items = [row_to_item(r)[1] for r in rows]
    return items[: len(older)] + [anchor_item] + items[len(older):]


def match_expression(query: str, every: bool = False) -> str | None:
    """An FTS5 MATCH string that treats every word of `query` as a literal term: any of them,
    or all of them with `every`.

    Operators, quotes, column filters and other FTS5 syntax in the query become plain words,
    so a query can never raise or change meaning; None when there is no word at all.
    """
    terms = content_terms(query)
    if not terms:
        return None
    # A word of Han, kana or Hangul is searched as the bigrams of its characters, each a
    # phrase of two of them, as the index holds them a character a word.
    phrases = dict.fromkeys(p for t in terms for p in cjk_query_terms(t))
    return (" AND " if every else " OR ").join(f'"{p}"' for p in phrases)


# Rank in FTS alone (a cheap top-n by bm25), then join and filter only the rows it kept. CROSS
# JOIN keeps the matches as the outer loop whatever the filters are. BM25 is called by name,
# not read as the rank column: see fts.BM25.
_TOP_SQL = (
    f"SELECT {{cols}}, -r.score FROM (SELECT rowid, {BM25} AS score FROM memory_items_fts "
    "WHERE memory_items_fts MATCH ? ORDER BY score LIMIT ?) r "
    "CROSS JOIN memory_items i ON i.rid = r.rowid WHERE {where} ORDER BY r.score, i.id LIMIT ?"
)
# When that gave too few (few matches, or filters removed many): rank every match that passes.
_ALL_SQL = (
    f"SELECT {{cols}}, -{BM25} AS score FROM memory_items_fts CROSS JOIN memory_items i "
    "ON i.rid = memory_items_fts.rowid WHERE memory_items_fts MATCH ? AND {where} ORDER BY score DESC, i.id LIMIT ?"
)


def _fts(conn: apsw.Connection, query: str, cols: str, filters: Filters | None, n: int,
         enough: int | None = None) -> list[tuple]:
    """Rows of `cols` plus the score, best first (ties by id).

    Items holding every term are tried first: when `enough` of them (n by default) are among
    the best matches and pass the filters, up to n of them are the answer, as matching all words
    is cheap (posting lists are intersected) where matching any word ranks every item holding a
    common one. Otherwise every item holding any term is ranked by bm25 alone.
    """
    every = match_expression(query, every=True)
    f = filters or Filters()
    if every is None or n <= 0 or f.visible_stores == ():  # a caller who sees no store: nothing
        return []
    where, params = f.where()
    top = _TOP_SQL.format(cols=cols, where=where)
    if " AND " in every:
        depth = n * 4 + 20
        rows = conn.execute(top, [every, depth, *params, n]).fetchall()
        if len(rows) < n and f.hides_stores and _more_matches(conn, every, depth):
            # The best matches are ranked over every store: items of a store the caller cannot
            # see may have filled them, and whether enough of its own are left among them must
            # not depend on how many such items hold every word. Its own are all ranked.
            rows = conn.execute(_ALL_SQL.format(cols=cols, where=where), [every, *params, n]).fetchall()
        if len(rows) >= min(n, enough or n):
            return rows
    expr = match_expression(query) or every
    rows = conn.execute(top, [expr, n * 4 + 20, *params, n]).fetchall()
    if len(rows) < n:
        rows = conn.execute(_ALL_SQL.format(cols=cols, where=where), [expr, *params, n]).fetchall()
    return rows


def _more_matches(conn: apsw.Connection, expr: str, depth: int) -> bool:
    """Whether more than `depth` items match `expr` (counted on the index alone, unranked)."""
    sql = "SELECT count(*) FROM (SELECT 1 FROM memory_items_fts WHERE memory_items_fts MATCH ? LIMIT ?)"
    return conn.execute(sql, (expr, depth + 1)).fetchone()[0] > depth


def search(conn: apsw.Connection, query: str, filters: Filters | None = None, k: int = 10) -> list[tuple[MemoryItem, float]]:
    """Full-text search: (item, score) pairs, best first; score = -bm25, higher is better."""
    return [(row_to_item(r[:-1])[1], float(r[-1])) for r in _fts(conn, query, ITEM_COLS, filters, k)]


class Candidate(NamedTuple):
    """What ranking needs of an item, read without decoding the whole row."""
    rid: int
    id: str
    tags: str            # the JSON array as stored
    source_kind: str
    source_id: str
    hashes: int          # how many content hashes the provenance names
    created_at: str
    updated_at: str
    usage_count: int
    mention_count: int
    # The JSON array as stored: read with the row, so that the entity signal needs no second
    # read of the same candidates.
    entities: str = "[]"


# The provenance is read whole and its three fields taken in Python (provenance_fields): three
# json_extract calls per row cost ~5 µs, as much as reading the row.
CANDIDATE_COLS = ("i.rid, i.id, i.tags, i.provenance_json, i.created_at, i.updated_at, i.usage_count, "
                  "i.mention_count, i.entities")


@lru_cache(maxsize=65536)  # chunks of one source, and every chat item without one, share it
def provenance_fields(text: str) -> tuple[str, str, int]:
    """(source_kind, source_id, how many content hashes) of a stored provenance, with the
    defaults of a missing field ('chat', '', 0)."""
    value = _loads(text)
    kind, source, hashes = value.get("source_kind"), value.get("source_id"), value.get("content_hashes")
    return ("chat" if kind is None else kind, "" if source is None else source,
            len(hashes) if isinstance(hashes, list) else 0)


def _candidate(row: tuple) -> Candidate:
    """A Candidate from a row of CANDIDATE_COLS."""
    return Candidate(row[0], row[1], row[2], *provenance_fields(row[3]), *row[4:9])


def search_candidates(conn: apsw.Connection, query: str, filters: Filters | None = None, n: int = 100,
                      enough: int | None = None) -> list[tuple[Candidate, float]]:
    """Full-text search as up to n (candidate, score) pairs, best first, rows left undecoded;
    items holding every word alone when there are `enough` of them (see _fts)."""
    rows = _fts(conn, query, CANDIDATE_COLS, filters, n, enough)
    return [(_candidate(r), float(r[-1])) for r in rows]


def candidates(conn: apsw.Connection, rids: list[int], filters: Filters) -> dict[int, Candidate]:
    """The candidates among `rids` that pass the filters, by row id."""
    where, params = filters.where()
    out: dict[int, Candidate] = {}
    for chunk in _chunks(rids):
        rows = conn.execute(f"SELECT {CANDIDATE_COLS} FROM memory_items i WHERE i.rid IN ({_marks(chunk)}) "
                            f"AND {where}", [*chunk, *params])
        out.update((row[0], _candidate(row)) for row in rows)
    return out


def filtered_rids(conn: apsw.Connection, filters: Filters, limit: int) -> list[int] | None:
    """The row ids of the items passing `filters` when there are at most `limit` of them, else
    None; read through an index, so that finding out costs at most `limit` + 1 rows: from the
    first tag's entries, or else from the (archived, tier, type, store) index (for a caller
    whose trust level hides stores, every live entry of it at worst: index only, no item row).
    A filter on neither (time, scope) is not looked up: None."""
    where, params = filters.where()
    if filters.tags:
        tagged = conn.execute("SELECT count(*) FROM (SELECT 1 FROM item_tags WHERE tag = ? LIMIT ?)",
                              (filters.tags[0], limit + 1)).fetchone()[0]
        if tagged > limit:  # counted on the tag index alone, before reading any item
            return None
        sql = (f"SELECT /* bounded seek */ i.rid FROM item_tags t CROSS JOIN memory_items i ON i.rid = t.rid "
               f"WHERE t.tag = ? AND {where} LIMIT ?")
        args = [filters.tags[0], *params, limit + 1]
    elif filters.tiers or filters.types or filters.stores or filters.hides_stores:
        # Unlike the shared WHERE (whose '+' keeps this index out of searches), these terms let
        # the planner seek the counting index: archived first, then the tiers asked for.
        live = "i.archived IN (0, 1)" if filters.include_archived else "i.archived = 0"
        tiers = f" AND i.tier IN ({','.join('?' * len(filters.tiers))})" if filters.tiers else ""
        sql = f"SELECT /* bounded seek */ i.rid FROM memory_items i WHERE {live}{tiers} AND {where} LIMIT ?"
        args = [*filters.tiers, *params, limit + 1]
    else:
        return None
    rids = [rid for (rid,) in conn.execute(sql, args)]
    return rids if len(rids) <= limit else None


def stats(conn: apsw.Connection, visible_stores: tuple[str, ...] | None = None) -> dict[str, Any]:
    """Counts by tier, type and store, and the log's size, without scanning items or the log:
    one pass over the (archived, tier, type, store) index, and the log totals projection."""
    where = "1"
    params: list[Any] = []
    if visible_stores is not None:
        where = f"store IN ({','.join('?' * max(1, len(visible_stores)))})"
        params = list(visible_stores) or [""]
    rows = conn.execute(
        f"SELECT archived, tier, type, store, count(*) FROM memory_items WHERE {where} "
        "GROUP BY archived, tier, type, store", params).fetchall()
    by: dict[str, dict[str, int]] = {"tier": {}, "type": {}, "store": {}}
    live = archived = 0
    for is_archived, tier, type_, store, n in rows:
        if is_archived:
            archived += n
            continue
        live += n
        for key, value in (("tier", tier), ("type", type_), ("store", store)):
            by[key][value] = by[key].get(value, 0) + n
    events, log_bytes = log_totals.totals(conn)
    return {
        "items": live, "archived": archived, **{f"by_{k}": dict(sorted(v.items())) for k, v in by.items()},
        "events": events, "log_bytes": log_bytes, "head_seq": log.head(conn).seq,
    }


def palace_list(conn: apsw.Connection, path: str, visible_stores: tuple[str, ...] | None = None) -> dict[str, Any]:
    """Children of a palace path ('' lists domains; domain/room/shelf lists cards)."""
    parts = split_path(path)
    level = LEVELS[len(parts)] if len(parts) < len(LEVELS) else "card"
    conds = " AND ".join(f"p.{LEVELS[i]}=?" for i in range(len(parts))) or "1"
    params: list[Any] = list(parts)
    store_clause = ""
    if visible_stores is not None:
        store_clause = f" AND +i.store IN ({','.join('?' * max(1, len(visible_stores)))})"
        params += list(visible_stores) or [""]
    params.append(clock.now_ts())  # an item past its expiry is not listed, as search hides it
    rows = conn.execute(
        f"SELECT p.{level}, count(*) FROM memory_palace_locations p JOIN memory_items i ON i.id = p.item_id "
        f"WHERE {conds} AND +i.archived=0{store_clause} AND (+i.expires_at IS NULL OR +i.expires_at > ?) "
        f"GROUP BY p.{level} ORDER BY p.{level}", params).fetchall()
    children = [{"name": name, "count": n} for name, n in rows]
    return {"level": level, "path": "/".join(parts), "children": children,
            "count": sum(c["count"] for c in children)}


def ids_in_stores(conn: apsw.Connection, ids: Iterable[str], stores: Sequence[str]) -> set[str]:
    """Those of `ids` that are items of one of `stores` (archived or not)."""
    wanted = sorted(ids)
    if not wanted or not stores:
        return set()
    rows = conn.execute(
        f"SELECT id FROM memory_items WHERE id IN (SELECT value FROM json_each(?)) "
        f"AND +store IN ({','.join('?' * len(stores))})", [json.dumps(wanted), *stores])
    return {r[0] for r in rows}


def palace_location(conn: apsw.Connection, item_id: str) -> dict[str, str] | None:
    return palace_locations(conn, [item_id]).get(item_id)


def palace_locations(conn: apsw.Connection, item_ids: list[str]) -> dict[str, dict[str, str]]:
    """The palace place of each of these items that has one, by id (one query a chunk)."""
    out: dict[str, dict[str, str]] = {}
    for chunk in _chunks(item_ids):
        rows = conn.execute("SELECT item_id, domain, room, shelf, card FROM memory_palace_locations "
                            f"WHERE item_id IN ({_marks(chunk)})", chunk)
        out.update((row[0], dict(zip(LEVELS, row[1:]))) for row in rows)
    return out


def entities(conn: apsw.Connection, query: str = "", limit: int = 50,
             visible_stores: tuple[str, ...] | None = None) -> list[dict[str, Any]]:
    params: list[Any] = []
    where = "1"
    if query:
        where = "e.key LIKE ? ESCAPE '\\'"
        params.append("%" + entity_key(query).replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%")
    if visible_stores is not None:
        where += f" AND e.store IN ({','.join('?' * max(1, len(visible_stores)))})"
        params += list(visible_stores) or [""]
    rows = conn.execute(
        f"SELECT e.name, e.store, e.mention_count, e.first_seen, e.last_mentioned, "
        f"(SELECT group_concat(item_id) FROM entity_items x WHERE x.key=e.key AND x.store=e.store) "
        f"FROM entities e WHERE {where} ORDER BY e.mention_count DESC, e.key LIMIT ?", [*params, limit])
    return [
        {"name": n, "store": s, "mention_count": c, "first_seen": f, "last_mentioned": l,
         "item_ids": sorted((ids or "").split(",")) if ids else []}
        for n, s, c, f, l, ids in rows
    ]
