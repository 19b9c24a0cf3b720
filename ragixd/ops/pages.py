"""How much one page of a paged answer (export, tail) may hold.

A page is asked for by a count (`limit`), but its entries' sizes vary a thousandfold (a pointer
holds up to 100,000 characters, a provenance up to a thousand chunk ids): 500 of them would make
an answer of tens of megabytes, over the largest answer the daemon sends (server.
ANSWER_LIMIT_FACTOR times max_message_bytes) and refused. So a page also stops at a budget of
bytes, half that limit, measured on the entries as they are sent, and says where to go on from
(`next`), as it does when the count is reached.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence, TypeVar

T = TypeVar("T")

DEFAULT_BUDGET = 4 * 1024 * 1024  # bytes: half of the default 8 MiB answer limit
ENTRY_OVERHEAD = 512  # bytes counted for an entry beside what its size function measures


def budget_of(extra: Mapping[str, Any]) -> int:
    """The page budget the server put in a query's context (the default when it gave none)."""
    return int(extra.get("page_budget", DEFAULT_BUDGET))


def within_budget(entries: Sequence[T], size: Callable[[T], int], budget: int) -> int:
    """How many of the leading entries fit: their sizes (plus ENTRY_OVERHEAD each) add up to at
    most `budget`; at least one, so that a page always moves on."""
    total = 0
    for n, entry in enumerate(entries):
        total += size(entry) + ENTRY_OVERHEAD
        if total > budget and n > 0:
            return n
    return len(entries)
