"""Identifier formats: MEM-… for items, EVT-… for events. Generation takes a random source."""

from __future__ import annotations

import re
import secrets
from typing import Callable

from ..errors import shown

# \Z, not $: a $ also matches before a final newline, and "MEM-abcd\n" is no id.
ITEM_ID_RE = re.compile(r"^MEM-[0-9A-Za-z_-]{4,64}\Z")
EVENT_ID_RE = re.compile(r"^EVT-[0-9a-f]{16}\Z")

TokenSource = Callable[[int], str]


def new_item_id(token: TokenSource = secrets.token_hex) -> str:
    return "MEM-" + token(8)


def new_event_id(token: TokenSource = secrets.token_hex) -> str:
    return "EVT-" + token(8)


def is_item_id(value: object) -> bool:
    return isinstance(value, str) and bool(ITEM_ID_RE.match(value))


def not_an_item_id(value: object) -> str:
    """What every op says of an id that is not of the item id shape (it cannot name an item,
    so it is invalid input, never 'not found')."""
    # An id mistyped is worth seeing whole (MEM-…, up to 80 characters); anything else may be a
    # key pasted into the wrong field, and is said as errors.shown says it.
    if isinstance(value, str) and value[:4].upper() == "MEM-" and len(value) <= 80 and value.isprintable():
        said = repr(value)
    else:
        said = shown(value)
    return f"{said} is not an item id (MEM- then 4 to 64 letters, digits, '_' or '-')"
