"""The projector contract and the item changes an event implies."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import apsw

from ...domain.events import Event
from ...domain.item import MemoryItem


@dataclass(frozen=True)
class ItemChange:
    """One item before and after an event (before is None for a creation)."""

    before: MemoryItem | None
    after: MemoryItem
    rid: int


class Projector(Protocol):
    name: str
    tables: tuple[str, ...]

    def apply(self, conn: apsw.Connection, event: Event, changes: list[ItemChange]) -> None: ...
