"""Memory palace paths: domain/room/shelf/card, derived from an item or given explicitly."""

from __future__ import annotations

import re
import unicodedata
from typing import Any, Mapping

from ..errors import InvalidInput

LEVELS = ("domain", "room", "shelf", "card")
_SEGMENT_RE = re.compile(r"^[^/\x00]{1,100}$")


def slug(text: str) -> str:
    """A place name from a label: lower case, runs of spaces as '-', no '/', and no control or
    hidden format characters (bidi overrides, zero-width spaces), which an explicit place may not
    hold either."""
    visible = "".join(ch for ch in text if not _hidden(ch))
    return re.sub(r"\s+", "-", visible.strip().lower()).replace("/", "-")[:100]


# Joiners are part of how words and emoji are written (Persian "می‌خواهم", 👨‍👩‍👧); every
# other format character (bidi overrides, zero-width spaces, tag characters) hides or reorders.
_JOINERS = frozenset("\u200c\u200d")


def _hidden(ch: str) -> bool:
    category = unicodedata.category(ch)
    return category == "Cc" or (category == "Cf" and ch not in _JOINERS)


def derive_location(item: Any) -> dict[str, str]:
    """Seed 002's auto-assignment: scope, primary tag (or first entity), type, id."""
    room = item.tags[0] if item.tags else (item.entities[0] if item.entities else "misc")
    return {
        "domain": slug(item.scope) or "default",
        "room": slug(room) or "misc",
        "shelf": item.type,
        "card": item.id,
    }


def validate_location(location: Mapping[str, Any], item_id: str) -> dict[str, str]:
    if not isinstance(location, Mapping):
        raise InvalidInput("location", "must be an object {domain, room, shelf}")
    out = {}
    for level in LEVELS[:3]:
        value = location.get(level)
        if not isinstance(value, str) or not _SEGMENT_RE.match(value):
            raise InvalidInput(f"location.{level}", "must be 1-100 characters without '/'")
        if not value.strip() or any(_hidden(ch) for ch in value):
            # A blank or multi-line segment could be neither seen nor typed back in `palace list`,
            # and a bidi override would show it as another.
            raise InvalidInput(f"location.{level}", "must hold visible text and no control or format "
                               "characters")
        out[level] = value
    out["card"] = item_id
    return out


def split_path(path: str) -> list[str]:
    if not isinstance(path, str):
        raise InvalidInput("path", "must be a string")
    parts = [p for p in path.strip("/").split("/") if p]
    if len(parts) > len(LEVELS):
        raise InvalidInput("path", "has more than domain/room/shelf/card")
    return parts
