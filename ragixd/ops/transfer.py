"""Export and import as JSONL, with secrecy tiers (seed 002): S3 keeps everything, S2 redacts
hostnames, IP addresses, hashes and ports, S0 also paths, file names, e-mail addresses and
entity labels — in every field. Import goes through the policy, keeps ids and provenance, and
is idempotent (an id already present is left alone)."""

from __future__ import annotations

from typing import Any

import msgpack

from ..domain import commands as c
from ..domain.ids import is_item_id
from ..domain.item import MemoryItem
from ..domain.trust import Caller
from ..errors import Forbidden, RagixError, shown
from ..store.filters import Filters
from ..store import queries
from .handlers import Plan, QueryContext, shown_items, withheld_from
from .pages import budget_of, within_budget

FORMAT = "ragix-export/1"
# What an import takes from a line; counters and updated_at are the importing store's own.
IMPORTED = ("id", "title", "content", "tier", "type", "tags", "entities", "provenance", "confidence",
            "validation", "scope", "store", "expires_at", "rule_id", "corpus_id", "created_at")


def query_export(q: QueryContext, args: dict[str, Any]) -> dict[str, Any]:
    # Imported at the first export: compiling redaction's patterns takes ~0.1 s, which every
    # daemon start would otherwise pay.
    from ..domain.redact import redact_item
    tier = args.get("tier", "S3")
    limit = args.get("limit", 500)
    f = Filters(include_archived=args.get("include_archived", False), visible_stores=q.caller.stores)
    page = queries.items_after(q.conn, args.get("after", 0), limit, f)
    withheld = withheld_from(q)
    kept = [(rid, item) for rid, item in page if not withheld(item)]
    lines = [{"format": FORMAT, "secrecy": tier, "item": redact_item(d, tier)}
             for d in shown_items(q, [item for _, item in kept])]
    if tier == "S3":  # a place in the palace is the owner's own wording: exported whole only
        places = queries.palace_locations(q.conn, [line["item"]["id"] for line in lines])
        for line in lines:
            place = places.get(line["item"]["id"])
            if place is not None:
                line["palace"] = {k: place[k] for k in ("domain", "room", "shelf")}
    # Cut at the budget, measured on the lines as they are sent (ops.pages): the next page
    # starts after the last line given (items withheld after it are passed over again there).
    fit = within_budget(lines, _packed_size, budget_of(q.extra))
    if fit < len(lines):
        return {"lines": lines[:fit], "next": kept[fit - 1][0], "tier": tier}
    return {"lines": lines, "next": page[-1][0] if len(page) == limit else None, "tier": tier}


def _packed_size(line: dict[str, Any]) -> int:
    return len(msgpack.packb(line, use_bin_type=True))


def _fields(item: dict[str, Any]) -> dict[str, Any]:
    return {k: item[k] for k in IMPORTED if item.get(k) is not None}


def _line_problem(line: dict[str, Any], item: dict[str, Any]) -> str | None:
    """Why the parts of a line that an import makes after the item (links, supersession,
    archive mark, palace place) cannot be read as export writes them; None when they can.
    The line is then invalid as a whole: half of it would be a silent loss."""
    links = item.get("links")
    if links is not None and (not isinstance(links, list) or not all(
            isinstance(x, dict) and isinstance(x.get("to"), str) for x in links)):
        return "'links' must be a list of objects {to, rel}, each with an item id in 'to'"
    if not isinstance(item.get("archived", False), bool):
        return "'archived' must be true or false"
    if item.get("superseded_by") is not None and not is_item_id(item["superseded_by"]):
        return "'superseded_by' must be an item id"
    palace = line.get("palace")
    if palace is not None and (not isinstance(palace, dict) or not all(
            isinstance(palace.get(level), str) for level in ("domain", "room", "shelf"))):
        return "'palace' must be an object {domain, room, shelf}"
    return None


def plan_import(args: dict[str, Any], caller: Caller) -> Plan:
    if caller.trust != "full":
        # An import keeps the ids, stores, archive marks and supersessions it is given: at a
        # lower trust level it could name, archive or supersede items the caller cannot see,
        # and its per-line answers would tell which ids exist. Agents write or propose instead.
        raise Forbidden("import is for the owner of the daemon only (it keeps the ids, stores "
                        "and archive marks it is given); at lower trust use write or propose",
                        op="import")
    commands: list[Any] = []
    kinds: list[tuple[int, str]] = []
    secrecy: dict[int, str] = {}
    later: list[tuple[int, str, Any]] = []  # (file line, what it makes, the command)
    for n, line in enumerate(args["lines"]):
        item = line.get("item") if isinstance(line, dict) else None
        if not isinstance(item, dict):
            kinds.append((n, "a line needs an 'item' object"))
            continue
        if line.get("format", FORMAT) != FORMAT:
            kinds.append((n, f"format must be {FORMAT!r}; got {shown(line.get('format'))}"))
            continue
        problem = _line_problem(line, item)
        if problem is not None:
            kinds.append((n, problem))
            continue
        secrecy[n] = str(line.get("secrecy", "S3"))
        fields = _fields(item)
        fields.setdefault("store", caller.default_store())
        commands.append(c.ImportItem(fields, trusted=caller.trust == "full"))
        kinds.append((n, "item"))
        item_id = item.get("id", "")

        def if_imported(command: Any) -> Any:  # nothing of a line answered conflict is applied
            return c.IfImported(command, item_id, item.get("title", ""), item.get("content", ""))
        for link in item.get("links") or []:
            later.append((n, f"link to {link.get('to', '')}",
                          if_imported(c.CreateLink(item_id, link.get("to", ""), link.get("rel", "related")))))
        if item.get("superseded_by"):
            later.append((n, "supersession", if_imported(c.SupersedeItem(item_id, item["superseded_by"], "import"))))
        if item.get("archived"):  # archived even when its supersession cannot be made
            later.append((n, "archive", if_imported(c.ArchiveItem(item_id, "import"))))
        if isinstance(line.get("palace"), dict):
            later.append((n, "palace place", if_imported(c.AssignPalace(item_id, line["palace"]))))
    commands.extend(cmd for _, _, cmd in later)

    def finish(results: list[Any]) -> dict[str, Any]:
        out = []
        at = 0
        for n, kind in kinds:
            if kind != "item":  # refused before any command: the kind says why
                out.append({"line": n, "status": "invalid", "error": kind})
                continue
            result = results[at]
            at += 1
            if isinstance(result, RagixError):
                out.append({"line": n, "status": "invalid", "error": result.message, "code": result.code})
            else:
                out.append({"line": n, **{k: v for k, v in result.items() if k != "seq"}})
                if result.get("status") == "conflict" and secrecy[n] != "S3":
                    out[-1]["error"] += (f" (this line is from a redacted {secrecy[n]} export: its text cannot "
                                         "replace the original; import an S3 export, or into another home)")
        # A link, supersession or archive that failed (its target was not in the file, e.g.
        # an archived item left out of the export) is said on its line, not dropped silently.
        by_line = {o["line"]: o for o in out}
        for (n, what, _cmd), result in zip(later, results[at:]):
            entry = by_line.get(n)
            if isinstance(result, RagixError) and entry is not None and entry["status"] in ("created", "exists"):
                entry.setdefault("notes", []).append(f"{what} not made: {result.message}")
        seq = max((r.get("seq", 0) for r in results if isinstance(r, dict)), default=0)
        counts = {k: sum(1 for o in out if o["status"] == k)
                  for k in ("created", "exists", "conflict", "refused", "quarantined", "invalid")}
        return {"lines": out, "seq": seq, **counts}
    return Plan(commands, finish)


def round_trip_view(item: MemoryItem | dict[str, Any]) -> dict[str, Any]:
    """The fields an S3 export then import keeps exactly (for tests and the README)."""
    data = item.to_dict() if isinstance(item, MemoryItem) else item
    return {k: data[k] for k in (*IMPORTED, "links", "archived", "superseded_by", "content_hash")}
