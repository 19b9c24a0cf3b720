"""Op handlers: turning validated request args into commands (writes) or answers (reads).

Write ops return a Plan (commands for the single writer plus a function that shapes their
results into the answer); read ops run against a reader connection. Both see the caller,
whose trust level limits the stores they may touch.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping

import apsw

from ..domain import commands as c
from ..domain.item import item_from_dict
from ..domain.trust import Caller
from ..errors import Forbidden, NotFound, PolicyRejected, RagixError, Unavailable
from ..memory import no_embedder
from ..store import log, queries
from ..store.filters import Filters, filters_from_args
from ..store.projection import Projections
from .pages import ENTRY_OVERHEAD, budget_of

Finish = Callable[[list[Any]], dict[str, Any]]


@dataclass
class Plan:
    commands: list[Any]
    finish: Finish


@dataclass
class QueryContext:
    conn: apsw.Connection
    caller: Caller
    extra: Mapping[str, Any]


def _first(results: list[Any]) -> dict[str, Any]:
    result = results[0]
    if isinstance(result, RagixError):
        raise result
    if result.get("status") == "refused":
        # The refusal itself is in the log (hash, rules, reasons); the caller gets an error.
        raise PolicyRejected("refused by the write policy: " + "; ".join(result.get("reasons", [])),
                             rules=result.get("rules", []), reasons=result.get("reasons", []),
                             content_hash=result.get("content_hash", ""), seq=result.get("seq", 0))
    return result


def _visible(caller: Caller, include_archived: bool = True) -> Filters:
    return Filters(include_archived=include_archived, visible_stores=caller.stores)


def _require_visible(conn: apsw.Connection, caller: Caller, item_id: str) -> None:
    """Not found unless the caller may see the item (no existence oracle)."""
    queries.get_item(conn, item_id, _visible(caller))


def withheld_from(q: QueryContext) -> Callable[[Any], bool]:
    """Whether an item is kept from this caller: below full trust, one the current policy
    would refuse (stored before a rule existed) is withheld as recall withholds it from every
    prompt; the owner still reads, searches and exports it, to correct or archive it."""
    guard = q.extra.get("recall_guard")
    if guard is None or q.caller.trust == "full":
        return lambda item: False
    return lambda item: not guard.admits(item)


def shown_items(q: QueryContext, items: Iterable[Any]) -> list[dict[str, Any]]:
    """Items as a caller is answered them: below full trust, without their links to items the
    caller cannot see (an id in another store tells that it exists)."""
    return hide_unseen_links(q, [i.to_dict() for i in items])


def hide_unseen_links(q: QueryContext, dicts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """`dicts` (items or revision snapshots, as dicts) with each link to an item outside the
    caller's stores left out, and a `superseded_by` naming one set to None (in place, and
    returned); the owner's as they are."""
    if q.caller.trust == "full":
        return dicts
    targets = {link["to"] for d in dicts for link in d.get("links") or ()}
    targets |= {d["superseded_by"] for d in dicts if d.get("superseded_by")}
    if targets:
        seen = queries.ids_in_stores(q.conn, targets, q.caller.stores)
        for d in dicts:
            if d.get("links"):
                d["links"] = [link for link in d["links"] if link["to"] in seen]
            if d.get("superseded_by") and d["superseded_by"] not in seen:
                d["superseded_by"] = None
    return dicts


# -- writes --------------------------------------------------------------------------------

# What governance decides about an item: a caller below full trust may not set these, or a
# quarantined proposal (stm, unverified, expiring) could be lifted by its own author.
GOVERNED_FIELDS = ("validation", "expires_at", "tier")


def _check_governed(caller: Caller, fields: Any, op: str, given: tuple[str, ...]) -> None:
    if caller.trust == "full" or not isinstance(fields, dict):
        return
    touched = [f for f in given if f in fields]
    if touched:
        raise Forbidden(f"trust level {caller.trust} may not set {', '.join(touched)} ({op}): validation, "
                        "expiry and tier are the owner's to decide", op=op, fields=touched)


def plan_write(args: dict[str, Any], caller: Caller) -> Plan:
    fields = {k: v for k, v in args.items() if k not in ("dedup", "why_store")}
    # A new item's tier may be asked for (provenance rules still apply); its validation and
    # expiry may not: those are what a quarantine sets.
    _check_governed(caller, fields, "write", ("validation", "expires_at"))
    fields.setdefault("store", caller.default_store())
    if isinstance(fields["store"], str):
        caller.check_store(fields["store"].strip().lower())
    # The owner's direct write is trusted (soft blocks skipped); everyone else's is governed
    # as a proposal. Hard blocks (secrets, injection, size, provenance) apply to all.
    command = c.CreateItem(fields, dedup=args.get("dedup", True), trusted=caller.trust == "full",
                           why_store=args.get("why_store", ""), op="write", sees=caller.stores)
    return Plan([command], _first)


def plan_update(args: dict[str, Any], caller: Caller) -> Plan:
    _check_governed(caller, args["patch"], "update", GOVERNED_FIELDS)
    return Plan([c.UpdateItem(args["id"], args["patch"], args.get("reason", "update"))], _first)


def plan_archive(args: dict[str, Any], caller: Caller) -> Plan:
    return Plan([c.ArchiveItem(args["id"], args.get("reason", "archive"))], _first)


def plan_link(args: dict[str, Any], caller: Caller) -> Plan:
    return Plan([c.CreateLink(args["src"], args["dst"], args.get("rel", "related"))], _first)


def plan_source_retire(args: dict[str, Any], caller: Caller) -> Plan:
    store = args.get("store", caller.default_store())
    caller.check_store(store)  # only items of a store the caller may write to are touched
    return Plan([c.RetireSource(args["source"], tuple(args["keep"]), store)], _first)


def plan_use(args: dict[str, Any], caller: Caller) -> Plan:
    return Plan([c.RecordUse(dict(args["uses"]))], _first)


def plan_palace_assign(args: dict[str, Any], caller: Caller) -> Plan:
    return Plan([c.AssignPalace(args["id"], args.get("location"))], _first)


# Which item ids a write touches, so that the server can check visibility before planning.
TOUCHED: dict[str, Callable[[dict[str, Any]], list[str]]] = {
    "update": lambda a: [a["id"]],
    "archive": lambda a: [a["id"]],
    "link": lambda a: [a["src"], a["dst"]],
    "use": lambda a: list(a["uses"]),
    "palace.assign": lambda a: [a["id"]],
}


def check_touched(conn: apsw.Connection, op: str, args: dict[str, Any], caller: Caller) -> None:
    if caller.trust == "full" or op not in TOUCHED:
        return
    for item_id in TOUCHED[op](args):
        _require_visible(conn, caller, item_id)


# -- reads ---------------------------------------------------------------------------------

def query_read(q: QueryContext, args: dict[str, Any]) -> dict[str, Any]:
    withheld = withheld_from(q)
    items = [i for i in queries.get_items(q.conn, list(args["ids"]), _visible(q.caller)) if not withheld(i)]
    return {"items": shown_items(q, items), "count": len(items)}


def search_filters(args: Mapping[str, Any], caller: Caller) -> Filters:
    f = filters_from_args(args)
    return Filters(**{**f.__dict__, "visible_stores": caller.stores})


def _hybrid(q: QueryContext, args: dict[str, Any], k: int) -> tuple[list[Any], str, str]:
    """Hits, the mode used, and why vectors were left out of a hybrid search ("" if they were not,
    or for no known reason): a vector search that cannot be made is an error, never an empty answer."""
    memory = q.extra.get("memory")
    mode = args.get("mode", "hybrid")
    filters = search_filters(args, q.caller)
    if memory is None:
        if mode == "vector":
            raise no_embedder()
        return [_Hit(i, s) for i, s in queries.search(q.conn, args["query"], filters, k)], "fts", ""
    try:
        if mode == "vector":
            memory.check_vector_search(args["query"])
        hits, used = memory.search.search(q.conn, args["query"], filters, k, mode)
    except Unavailable as err:
        if mode != "vector":
            raise
        raise Unavailable(f"vector search is unavailable: {err.message} (full-text search still works: "
                          "--mode fts, or hybrid, which falls back to it)", **err.details) from None
    fallback = memory.vector_trouble(args["query"]) if mode == "hybrid" and used == "fts" else ""
    return hits, used, fallback


@dataclass
class _Hit:
    item: Any
    score: float


def query_search(q: QueryContext, args: dict[str, Any]) -> dict[str, Any]:
    hits, used, fallback = _hybrid(q, args, args.get("k", 10))
    withheld = withheld_from(q)
    hits = [h for h in hits if not withheld(h.item)]
    shown = shown_items(q, (h.item for h in hits))
    items = [{"id": h.item.id, "title": h.item.title, "score": round(h.score, 6), "tier": h.item.tier,
              "type": h.item.type, "tags": list(h.item.tags), "item": d} for h, d in zip(hits, shown)]
    answer = {"items": items, "count": len(items), "mode": used}
    if fallback:
        answer["vectors_unavailable"] = fallback
    return answer


def query_recall(q: QueryContext, args: dict[str, Any]) -> dict[str, Any]:
    from ..retrieval.recall import recall
    search_args = {**args, "mode": args.get("search_mode", "hybrid")}
    hits, used, fallback = _hybrid(q, search_args, args.get("k", 20))
    guard = q.extra.get("recall_guard")
    if q.caller.trust != "full":
        # Below full trust an item the policy now refuses is as one not found (as in search):
        # left out without being named under `withheld`, which tells its owner what to correct.
        withheld = withheld_from(q)
        hits = [h for h in hits if not withheld(h.item)]
    out = recall(hits, args.get("mode", "inject"), args.get("budget", 2000), args.get("catalog_k", 10),
                 admits=guard.admits if guard is not None else None)
    out["search_mode"] = used
    if fallback:
        out["vectors_unavailable"] = fallback
    return out


# What `embedders` tells a caller below full trust: which models serve, not how many items
# (of every store) they hold, nor a model server's error text (its address, its host). Nor
# the index's layout, or the kernel that scans it: the layout leaves the flat table past 10k
# vectors of every store, so it too tells how much the hidden stores hold.
_EMBEDDER_COUNTS = ("indexed", "items", "embedded", "missing", "layout", "kernel")


def query_embedders(q: QueryContext, args: dict[str, Any]) -> dict[str, Any]:
    memory = q.extra.get("memory")
    found = memory.embedder_status() if memory else []
    if q.caller.trust != "full":
        found = [{**{k: v for k, v in e.items() if k not in _EMBEDDER_COUNTS}, "error": ""} for e in found]
    return {"embedders": found}


def _served_item(q: QueryContext, item_id: str) -> Any:
    """The item, if the caller may see it and it is not withheld from them; else not found, as
    for an id that does not exist (no existence oracle)."""
    item = queries.get_item(q.conn, item_id, _visible(q.caller))
    if withheld_from(q)(item):
        raise NotFound(f"no item {item_id}", id=item_id)
    return item


def query_timeline(q: QueryContext, args: dict[str, Any]) -> dict[str, Any]:
    window = {k: v for k, v in args.items() if k not in ("before", "after")}
    withheld = withheld_from(q)
    if q.caller.trust != "full":
        _served_item(q, args["anchor"])  # a window around a withheld item tells that it is there
    items = [i for i in queries.timeline(q.conn, args["anchor"], args.get("before", 5), args.get("after", 5),
                                         search_filters(window, q.caller)) if not withheld(i)]
    return {"items": shown_items(q, items), "count": len(items)}


def query_history(q: QueryContext, args: dict[str, Any]) -> dict[str, Any]:
    _served_item(q, args["id"])
    # Paged like export and tail (ops.pages): a pointer's snapshots are up to 100 kB each, and
    # an item updated often would make one answer too large to send.
    revisions, following = queries.history(q.conn, args["id"], args.get("after", 0), args.get("limit", 1000),
                                           budget_of(q.extra))
    if q.caller.trust != "full":
        # An earlier revision may hold what the current policy refuses (a secret since rotated
        # out of the text): below full trust it is left out, as the item itself would be.
        withheld = withheld_from(q)
        revisions = [r for r in revisions if not _snapshot_withheld(withheld, r["snapshot"])]
    hide_unseen_links(q, [r["snapshot"] for r in revisions if isinstance(r["snapshot"], dict)])
    return {"id": args["id"], "revisions": revisions, "next": following}


def _snapshot_withheld(withheld: Callable[[Any], bool], snapshot: Any) -> bool:
    """Whether a revision's snapshot is kept from the caller (one that cannot be read back as
    an item cannot be checked, and is kept too)."""
    try:
        return withheld(item_from_dict(snapshot))
    except (TypeError, ValueError, KeyError, AttributeError):
        return True


def query_entities(q: QueryContext, args: dict[str, Any]) -> dict[str, Any]:
    found = queries.entities(q.conn, args.get("query", ""), args.get("limit", 50), q.caller.stores)
    policy = q.extra.get("policy")
    if q.caller.trust != "full" and policy is not None:
        # An entity's name is an item's own text: one the policy now refuses (a secret written
        # into an item's entities, before its rule) is withheld below full trust, as the item is.
        found = [e for e in found if not policy.check_text(e["name"], "entities").rejected]
    return {"entities": found}


def query_palace_list(q: QueryContext, args: dict[str, Any]) -> dict[str, Any]:
    return queries.palace_list(q.conn, args.get("path", ""), q.caller.stores)


def query_palace_get(q: QueryContext, args: dict[str, Any]) -> dict[str, Any]:
    item = _served_item(q, args["id"])
    return {"location": queries.palace_location(q.conn, item.id), "item": shown_items(q, [item])[0]}


def query_stats(q: QueryContext, args: dict[str, Any]) -> dict[str, Any]:
    full = q.caller.trust == "full"
    data = queries.stats(q.conn, None if full else q.caller.stores)
    if not full:  # the log's totals count every store's events: they are the owner's to see
        del data["events"], data["log_bytes"]
    memory = q.extra.get("memory")
    data["projectors"] = (memory.store.projections.all_positions(q.conn) if memory is not None
                          else Projections.positions(q.conn))
    return data


def query_tail(q: QueryContext, args: dict[str, Any]) -> dict[str, Any]:
    if q.caller.trust != "full":
        raise Forbidden("tail (the event log) is for the owner of the daemon only", op="tail")
    limit = args.get("limit", 1000)
    budget = budget_of(q.extra)
    events: list[dict[str, Any]] = []
    for event in log.read(q.conn, args.get("after", 0), batch=limit):
        # A page stops at its budget too (ops.pages): the events after it come in the next one.
        # The payload's stored bytes measure it (the answer carries the same values).
        budget -= event.size + ENTRY_OVERHEAD
        if budget < 0 and events:
            break
        events.append(event_to_wire(event))
        if len(events) >= limit:
            break
    return {"events": events, "head_seq": log.head(q.conn).seq,
            "pub_endpoint": q.extra.get("pub_endpoint")}


def event_to_wire(event: Any) -> dict[str, Any]:
    return event.to_dict()


PLANS: dict[str, Callable[[dict[str, Any], Caller], Plan]] = {
    "write": plan_write,
    "update": plan_update,
    "archive": plan_archive,
    "link": plan_link,
    "use": plan_use,
    "palace.assign": plan_palace_assign,
    "source.retire": plan_source_retire,
}
QUERIES: dict[str, Callable[[QueryContext, dict[str, Any]], dict[str, Any]]] = {
    "read": query_read,
    "search": query_search,
    "recall": query_recall,
    "embedders": query_embedders,
    "timeline": query_timeline,
    "history": query_history,
    "entities": query_entities,
    "palace.list": query_palace_list,
    "palace.get": query_palace_get,
    "stats": query_stats,
    "tail": query_tail,
}
