"""How each event changes an item: the pure fold used by projections and by replay."""

from __future__ import annotations

from typing import Any, Callable

from . import events as ev
from .item import MemoryItem, apply_patch, item_from_dict

# Events after which the item gets a new revision, and the reason recorded when the payload
# carries none.
REVISION_REASONS = {
    ev.ITEM_CREATED: "create",
    ev.ITEM_UPDATED: "update",
    ev.ITEM_ARCHIVED: "archive",
    ev.ITEM_SUPERSEDED: "supersede",
    ev.ITEM_PROMOTED: "promote",
}


def _updated(item: MemoryItem, e: ev.Event) -> MemoryItem:
    return apply_patch(item, e.payload["patch"], e.ts)


def _archived(item: MemoryItem, e: ev.Event) -> MemoryItem:
    return item.evolve(archived=True, updated_at=e.ts)


def _superseded(item: MemoryItem, e: ev.Event) -> MemoryItem:
    return item.evolve(archived=True, superseded_by=e.payload["by"], updated_at=e.ts)


def _mentioned(item: MemoryItem, e: ev.Event) -> MemoryItem:
    return item.evolve(mention_count=item.mention_count + 1, updated_at=e.ts)


def _promoted(item: MemoryItem, e: ev.Event) -> MemoryItem:
    return item.evolve(tier=e.payload["to"], updated_at=e.ts)


def _linked(item: MemoryItem, e: ev.Event) -> MemoryItem:
    link = (e.payload["rel"], e.payload["dst"])
    if link in item.links:
        return item
    return item.evolve(links=item.links + (link,))


ITEM_REDUCERS: dict[str, Callable[[MemoryItem, ev.Event], MemoryItem]] = {
    ev.ITEM_UPDATED: _updated,
    ev.ITEM_ARCHIVED: _archived,
    ev.ITEM_SUPERSEDED: _superseded,
    ev.ITEM_MENTIONED: _mentioned,
    ev.ITEM_PROMOTED: _promoted,
    ev.LINK_CREATED: _linked,
}


def target_id(e: ev.Event) -> str | None:
    """The item an event changes (the source item for links), if any."""
    if e.type == ev.LINK_CREATED:
        return e.payload["src"]
    if e.type in ITEM_REDUCERS or e.type == ev.ITEM_CREATED:
        return e.payload["id"] if e.type != ev.ITEM_CREATED else e.payload["item"]["id"]
    return None


def created_item(e: ev.Event) -> MemoryItem:
    return item_from_dict(e.payload["item"])


def reduce_item(item: MemoryItem, e: ev.Event) -> MemoryItem:
    return ITEM_REDUCERS[e.type](item, e)


def apply_use(item: MemoryItem, count: int, ts: str) -> MemoryItem:
    return item.evolve(usage_count=item.usage_count + count, last_used_at=ts)


def revision_reason(e: ev.Event) -> str | None:
    default = REVISION_REASONS.get(e.type)
    if default is None:
        return None
    reason: Any = e.payload.get("reason")
    return reason if isinstance(reason, str) and reason else default
