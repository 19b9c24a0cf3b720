"""Search filters and their SQL: one place builds the WHERE clause every query shares."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..domain import clock
from ..domain.item import MAX_TAGS, STORES, TIERS, TYPE_ALIASES, TYPES
from ..errors import InvalidInput, shown

# Values one filter may list: each is a bound SQL variable, and each tag one more EXISTS term,
# so thousands made SQL that SQLite refuses to run (too many variables, an expression tree too
# deep). A tags filter asks for all of its tags, and an item holds at most MAX_TAGS.
MAX_FILTER_VALUES = 1000


@dataclass(frozen=True)
class Filters:
    tiers: tuple[str, ...] = ()
    types: tuple[str, ...] = ()
    scopes: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    stores: tuple[str, ...] = ()
    after: str | None = None
    before: str | None = None
    include_archived: bool = False
    # Hide items whose expires_at is at or before this time (a quarantined proposal left past
    # its expiry is not served); None: no such filter. include_archived shows them too.
    live_at: str | None = None
    # Stores the caller may see at all (trust gating); None means every store.
    visible_stores: tuple[str, ...] | None = field(default=None)

    @property
    def hides_stores(self) -> bool:
        """Does trust gating hide some store from the caller?"""
        return self.visible_stores is not None and not set(STORES) <= set(self.visible_stores)

    @property
    def narrowing(self) -> bool:
        """Does the filter keep only part of the items (beyond archived)?"""
        return bool(self.tiers or self.types or self.scopes or self.tags or self.stores
                    or self.after or self.before or self.hides_stores)

    def where(self, alias: str = "i") -> tuple[str, list[Any]]:
        # The unary '+' keeps the planner off idx_items_hash(store, ...) and idx_items_counts
        # (archived, tier, type, store): a filter on a few stores or tiers, or on archived = 0,
        # selects most rows, and driving a search, a lookup of candidates by row id or a
        # time-ordered scan from those indexes reads every item (10-100s of ms at 100k).
        clauses: list[str] = []
        params: list[Any] = []
        for column, values in (("tier", self.tiers), ("type", self.types), ("scope", self.scopes),
                               ("store", self.stores)):
            if values:
                clauses.append(f"+{alias}.{column} IN ({','.join('?' * len(values))})")
                params.extend(values)
        if self.visible_stores is not None:
            stores = self.visible_stores or ("",)
            clauses.append(f"+{alias}.store IN ({','.join('?' * len(stores))})")
            params.extend(stores)
        for tag in self.tags:
            clauses.append(f"EXISTS (SELECT 1 FROM item_tags t WHERE t.tag=? AND t.rid={alias}.rid)")
            params.append(tag)
        if self.after:
            clauses.append(f"{alias}.created_at >= ?")
            params.append(self.after)
        if self.before:
            clauses.append(f"{alias}.created_at < ?")
            params.append(self.before)
        if not self.include_archived:
            clauses.append(f"+{alias}.archived = 0")
            if self.live_at:
                clauses.append(f"(+{alias}.expires_at IS NULL OR +{alias}.expires_at > ?)")
                params.append(self.live_at)
        return (" AND ".join(clauses) or "1"), params


def stores_of(args: Mapping[str, Any], key: str = "store") -> tuple[str, ...]:
    """The stores named by args[key] (a name, "a,b" or a list), each checked: InvalidInput
    naming `key` for one that does not exist."""
    return _names(args, key, STORES)


def _names(args: Mapping[str, Any], key: str, allowed: tuple[str, ...] | None = None,
           lower: bool = True, most: int = MAX_FILTER_VALUES, split: bool = True) -> tuple[str, ...]:
    """The values of a filter: a list, or a string holding one (or, with `split`, several
    separated by commas: names that cannot hold one)."""
    value = args.get(key)
    if value is None or value == "" or value == []:
        return ()
    if isinstance(value, str):
        value = [v for v in value.split(",") if v.strip()] if split else [value]
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise InvalidInput(key, "must be a string or a list of strings")
    if len(value) > most:
        raise InvalidInput(key, f"at most {most} values, not {len(value)}")
    names = tuple(unicodedata.normalize("NFC", v.strip().lower() if lower else v.strip()) for v in value)
    if allowed is not None:
        bad = [v for v in names if v not in allowed]
        if bad:
            raise InvalidInput(key, f"must be one of {', '.join(allowed)}; got {shown(bad[0])}")
    return names


def _types(args: Mapping[str, Any], key: str) -> tuple[str, ...]:
    """Type names as a write stores them (an alias such as "task" is the type it stands for);
    a name that is neither is an error: a write would have stored it as a note."""
    names = _names(args, key)
    bad = [n for n in names if n not in TYPES and n not in TYPE_ALIASES]
    if bad:
        raise InvalidInput(key, f"unknown type {shown(bad[0])}; types are {', '.join(TYPES)} (a write "
                           "stores an unknown type name as note)")
    return tuple(dict.fromkeys(n if n in TYPES else TYPE_ALIASES[n] for n in names))


def _time(args: Mapping[str, Any], key: str) -> str | None:
    value = args.get(key)
    if value in (None, ""):
        return None
    if not isinstance(value, str):
        raise InvalidInput(key, "must be an ISO-8601 timestamp string")
    try:
        return clock.normalize_ts(value)
    except ValueError:
        raise InvalidInput(key, f"is not an ISO-8601 timestamp: {shown(value)}") from None


def filters_from_args(args: Mapping[str, Any]) -> Filters:
    """Filters from request-style arguments (tier/tiers, type/types, tags, store, after, before);
    the items past their expiry are hidden with the archived ones."""
    archived = args.get("include_archived", False)
    if not isinstance(archived, bool):
        raise InvalidInput("include_archived", "must be true or false")
    return Filters(
        tiers=_names(args, "tier", TIERS) + _names(args, "tiers", TIERS),
        types=_types(args, "type") + _types(args, "types"),
        scopes=_names(args, "scope", lower=False, split=False),  # a scope may hold a comma
        tags=_names(args, "tags", most=MAX_TAGS),
        stores=stores_of(args) + stores_of(args, "stores"),
        after=_time(args, "after"),
        before=_time(args, "before"),
        include_archived=archived,
        live_at=None if archived else clock.now_ts(),
    )
