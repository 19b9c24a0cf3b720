"""Memory-block markers: finding them in stored text and neutralising them for rendering.

Recall's inject mode wraps each item in `[MEMORY: id | type | tier | tags=… | provenance=…]`
… `[/MEMORY]`. Stored text must never open or close such a block, or an item could forge a
second block (another id, tier, provenance) in the prompt. A marker is found in the policy's
normalised view (zero-width and control characters removed, NFKC so fullwidth forms read as
ASCII, look-alike letters folded), lower-cased: `[`, optional whitespace, an optional `/`,
`memory`, optional whitespace, then `:` or `]`. Rendering replaces the `[` of every marker
found in stored text by `(` (`[/MEMORY]` -> `(/MEMORY]`): the rest of the text is left as it
was written. Pure functions, no state beyond a per-character cache.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .policy.normalize import normalize

# In the normalised, lower-cased view.
MARKER = re.compile(r"\[\s*(?:/\s*)?memory\s*[:\]]")
# Every character whose normalised form holds a `[` (checked against all of Unicode by a
# test): a text without one of them holds no marker.
BRACKETS = ("[", "\ufe47", "\uff3b", "\U000e005b")
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
    closing = len(re.findall(r"\[\s*/\s*memory\s*[:\]]", view))
    return len(MARKER.findall(view)) - closing, closing
