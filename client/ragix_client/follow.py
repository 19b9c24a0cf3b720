"""Following the log: committed events in seq order, each exactly once.

The daemon publishes each committed event on its PUB socket, but a stream alone can miss
events: those committed before the subscription took effect, and those dropped for a reader
that fell behind (the socket's high-water mark). `in_order` puts the stream back in order
against the log itself: a gap in the seqs, or a quiet moment, is filled by reading the stored
events after the last one given; what was already given is skipped. Pure: the caller brings
the stream and the reads.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Iterator

Event = dict[str, Any]


def in_order(live: Iterable[Event | None], fetch: Callable[[int], list[Event]], last: int) -> Iterator[Event]:
    """Every event after seq `last`, in seq order, none missed and none twice.

    `live` yields published events, and None whenever it has been quiet for a while (the
    moment to look in the log for what the stream may have missed); `fetch(after)` returns
    stored events after a seq, in order (one batch; empty once there are none)."""

    def catch_up() -> Iterator[Event]:
        nonlocal last
        while True:
            batch = [e for e in fetch(last) if e["seq"] > last]
            if not batch:
                return
            for event in batch:
                last = event["seq"]
                yield event

    yield from catch_up()
    for event in live:
        if event is None or event["seq"] > last + 1:
            yield from catch_up()  # quiet, or a gap: the log holds what the stream missed
        if event is not None and event["seq"] > last:
            last = event["seq"]
            yield event
