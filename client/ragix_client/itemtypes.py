"""The memory types ragixctl checks --type against: the domain's own list, never a copy."""

from __future__ import annotations

from ragixd.domain.item import TYPE_ALIASES, TYPES
from ragixd.errors import InvalidInput

KNOWN = ", ".join(TYPES)


def stored_type(name: str | None) -> str | None:
    """The type an item given `--type name` is stored as (the domain maps an unknown name to
    note, by design); None when the name is one the domain knows or no name was given."""
    if name is None or not name.strip():
        return None
    key = name.strip().lower()
    return None if key in TYPES or key in TYPE_ALIASES else "note"


def unknown_type_note(name: str | None) -> str | None:
    """The one-line warning for a write whose type is unknown, or None."""
    if stored_type(name) is None:
        return None
    return f"ragixctl: unknown type {name!r}: stored as note (known types: {KNOWN})"


def check_filter(value: str | None) -> None:
    """A --type filter (comma-separated) must name types a write takes: a stored type or an
    alias of one (`task` filters todo, as the daemon reads it); an unknown one would match
    nothing, which would read as "no such memory" rather than as a typo."""
    for name in (v.strip().lower() for v in (value or "").split(",") if v.strip()):
        if name not in TYPES and name not in TYPE_ALIASES:
            raise InvalidInput("--type", f"unknown type {name!r}; known types: {KNOWN}")
