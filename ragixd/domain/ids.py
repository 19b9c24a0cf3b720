"""Identifier formats: MEM-… for items, EVT-… for events. Generation takes a random source."""

from __future__ import annotations

import re
import secrets
from typing import Callable

ITEM_ID_RE = re.compile(r"^MEM-[0-9A-Za-z_-]{4,64}$")
EVENT_ID_RE = re.compile(r"^EVT-[0-9a-f]{16}$")

TokenSource = Callable[[int], str]


def new_item_id(token: TokenSource = secrets.token_hex) -> str:
    return "MEM-" + token(8)


def new_event_id(token: TokenSource = secrets.token_hex) -> str:
    return "EVT-" + token(8)


def is_item_id(value: object) -> bool:
    return isinstance(value, str) and bool(ITEM_ID_RE.match(value))
