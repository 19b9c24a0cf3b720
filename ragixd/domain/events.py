"""Event types of the log, their current versions, and upcasting of old versions on read.

An event is a fact: it is never rewritten. When a payload shape changes, the type's version
goes up and an upcaster turns the old shape into the new one as events are read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

ITEM_CREATED = "item.created"
ITEM_UPDATED = "item.updated"
ITEM_ARCHIVED = "item.archived"
ITEM_SUPERSEDED = "item.superseded"
ITEM_MENTIONED = "item.mentioned"
ITEM_USED = "item.used"
ITEM_PROMOTED = "item.promoted"
ITEM_EMBEDDED = "item.embedded"
LINK_CREATED = "link.created"
PALACE_ASSIGNED = "palace.assigned"
WRITE_REFUSED = "write.refused"

CURRENT_VERSIONS: dict[str, int] = {
    ITEM_CREATED: 1,
    ITEM_UPDATED: 1,
    ITEM_ARCHIVED: 1,
    ITEM_SUPERSEDED: 1,
    ITEM_MENTIONED: 1,
    ITEM_USED: 1,
    ITEM_PROMOTED: 1,
    ITEM_EMBEDDED: 1,
    LINK_CREATED: 1,
    PALACE_ASSIGNED: 1,
    WRITE_REFUSED: 1,
}


@dataclass(frozen=True)
class NewEvent:
    """An event decided by a command, not yet in the log."""

    type: str
    payload: dict[str, Any]
    v: int = 0

    def version(self) -> int:
        return self.v or CURRENT_VERSIONS[self.type]


@dataclass(frozen=True)
class Event:
    """An event as stored in the log."""

    seq: int
    id: str
    type: str
    v: int
    ts: str
    actor: str
    payload: dict[str, Any] = field(default_factory=dict)
    prev_hash: str = ""
    hash: str = ""
    # Bytes of the payload as stored (0 when not known); bookkeeping, not part of the event.
    size: int = field(default=0, compare=False, repr=False)

    def header(self) -> list[Any]:
        return [self.seq, self.id, self.type, self.v, self.ts, self.actor, self.prev_hash]

    def to_dict(self) -> dict[str, Any]:
        return {
            "seq": self.seq, "id": self.id, "type": self.type, "v": self.v, "ts": self.ts,
            "actor": self.actor, "payload": self.payload, "prev_hash": self.prev_hash,
            "hash": self.hash,
        }


Upcaster = Callable[[dict[str, Any]], dict[str, Any]]
# (type, from_version) -> function producing the payload of version from_version + 1.
UPCASTERS: dict[tuple[str, int], Upcaster] = {}


def register_upcaster(event_type: str, from_version: int) -> Callable[[Upcaster], Upcaster]:
    def wrap(fn: Upcaster) -> Upcaster:
        UPCASTERS[(event_type, from_version)] = fn
        return fn
    return wrap


def upcast(event: Event) -> Event:
    """Bring an event read from the log to the current version of its type."""
    target = CURRENT_VERSIONS.get(event.type, event.v)
    payload, v = event.payload, event.v
    while v < target:
        step = UPCASTERS.get((event.type, v))
        if step is None:
            raise ValueError(f"no upcaster for {event.type} v{v}")
        payload, v = step(payload), v + 1
    if v == event.v:
        return event
    return Event(event.seq, event.id, event.type, v, event.ts, event.actor, payload,
                 event.prev_hash, event.hash, event.size)
