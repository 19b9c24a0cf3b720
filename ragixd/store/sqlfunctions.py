"""The SQL functions ragix's schema calls, registered on every connection that reads or
writes the projections.

`ragix_fts_text_v1(x)` is what the full-text index reads of a column (domain.text.spaced_cjk): the
view memory_items_fts_text applies it, and the index's external content is that view, so that
indexing, removing an entry and FTS5's integrity check all read the same text. Its name holds
a version: a change to what it returns needs a new name and a migration that rebuilds the index.
"""

from __future__ import annotations

from typing import Any

import apsw

from ..domain.text import spaced_cjk

FTS_TEXT = "ragix_fts_text_v1"


def fts_text(value: Any) -> Any:
    """The text the full-text index holds for one column value (NULL and non-text as they are)."""
    return spaced_cjk(value) if isinstance(value, str) else value


def register(conn: apsw.Connection) -> None:
    """Make the functions callable on `conn` (again is harmless)."""
    conn.create_scalar_function(FTS_TEXT, fts_text, 1, deterministic=True)
