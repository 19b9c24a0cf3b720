"""Memory-block markers: finding them in stored text and neutralising them for rendering.

Recall's inject mode wraps each item in `[MEMORY: id | type | tier | tags=… | provenance=…]`
… `[/MEMORY]`. Stored text must never open or close such a block, or an item could forge a
second block (another id, tier, provenance) in the prompt. A marker is found in the policy's
normalised view (zero-width and control characters removed, NFKC so fullwidth forms read as
ASCII, look-alike letters and brackets folded), lower-cased: `[`, optional whitespace, an
optional `/`, `memory` (its letters possibly spaced out), optional whitespace, then `:` or `]`.
Rendering replaces the `[` of every marker found in stored text by `(` (`[/MEMORY]` ->
`(/MEMORY]`): the rest of the text is left as it was written. Pure functions, no state beyond a per-character cache.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .policy.normalize import normalize

# In the normalised, lower-cased view. The letters may be spaced out (`[/M E M O R Y]` reads
# as a marker too).
MARKER = re.compile(r"\[\s*(?:/\s*)?m\s*e\s*m\s*o\s*r\s*y\s*[:\]]")
_CLOSING = re.compile(r"\[\s*/\s*m\s*e\s*m\s*o\s*r\s*y\s*[:\]]")
# Every character whose normalised form holds a `[` (checked against all of Unicode by a
# test): a text without one of them holds no marker. The normaliser folds bracket look-alikes
# (lenticular, tortoise-shell, white and mathematical brackets) to `[` and `]`.
BRACKETS = (
    "[", "\u2045", "\u27e6", "\u27ec", "\u298b", "\u298d", "\u298f", "\u2997", "\u3010", "\u3014", "\u3016",
    "\u3018", "\u301a", "\ufe17", "\ufe39", "\ufe3b", "\ufe47", "\ufe5d", "\uff3b", "\U000e005b", "\U0001f12a",
    "\U0001f240", "\U0001f241", "\U0001f242", "\U0001f243", "\U0001f244", "\U0001f245", "\U0001f246",
    "\U0001f247", "\U0001f248",
)
# Likewise for `]` (the same test).
CLOSING_BRACKETS = (
    "]", "\u2046", "\u27e7", "\u27ed", "\u298c", "\u298e", "\u2990", "\u2998", "\u3011", "\u3015", "\u3017",
    "\u3019", "\u301b", "\ufe18", "\ufe3a", "\ufe3c", "\ufe48", "\ufe5e", "\uff3d", "\U000e005d", "\U0001f12a",
    "\U0001f240", "\U0001f241", "\U0001f242", "\U0001f243", "\U0001f244", "\U0001f245", "\U0001f246",
    "\U0001f247", "\U0001f248",
)
ESCAPED_BRACKET = "("


@lru_cache(maxsize=4096)
def _fold(char: str) -> str:
    return normalize(char).lower()


def _may_hold_marker(text: str) -> bool:
    return any(b in text for b in BRACKETS)


def neutralise(text: str) -> str:
    """`text` with the `[` of every memory-block marker replaced by `(`."""
    if not _may_hold_marker(text):
        return text
    pieces = [_fold(c) for c in text]
    view = "".join(pieces)
    starts = [m.start() for m in MARKER.finditer(view)]
    if not starts:
        return text
    owner = [i for i, piece in enumerate(pieces) for _ in piece]  # view offset -> text index
    chars = list(text)
    for at in starts:
        chars[owner[at]] = ESCAPED_BRACKET
    return "".join(chars)


def count_markers(text: str) -> tuple[int, int]:
    """(opening, closing) markers in `text`, read as a model would: normalised."""
    view = normalize(text).lower()
    closing = len(_CLOSING.findall(view))
    return len(MARKER.findall(view)) - closing, closing
