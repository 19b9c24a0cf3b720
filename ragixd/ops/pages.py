"""How much one page of a paged answer (export, tail) may hold.

A page is asked for by a count (`limit`), but its items' sizes vary a hundredfold (a pointer
holds up to 100,000 characters): 500 of them would make an answer of tens of megabytes, held in
memory and refused by the client. So a page also stops at a budget of characters and says where
to go on from (`next`), as it does when the count is reached. The budget follows the largest
answer the daemon sends (server.ANSWER_LIMIT_FACTOR times max_message_bytes), at four bytes a
character and as much again for the rest of each entry.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence, TypeVar

T = TypeVar("T")

DEFAULT_BUDGET = 1_000_000  # characters: 8 MB of answer, the default limit's
ENTRY_OVERHEAD = 512  # characters counted for an entry's fields beside its text


def budget_of(extra: Mapping[str, Any]) -> int:
    """The page budget the server put in a query's context (the default when it gave none)."""
    return int(extra.get("page_budget", DEFAULT_BUDGET))


def within_budget(entries: Sequence[T], size: Callable[[T], int], budget: int) -> tuple[Sequence[T], bool]:
    """The leading entries whose sizes (plus ENTRY_OVERHEAD each) add up to at most `budget`,
    at least one; and whether any were left out."""
    total = 0
    for n, entry in enumerate(entries):
        total += size(entry) + ENTRY_OVERHEAD
        if total > budget and n > 0:
            return entries[:n], True
    return entries, False
