"""Following the log (client/ragix_client/follow.py): whatever the stream drops, repeats or
delivers late, the events come out in seq order, each exactly once."""

from hypothesis import given
from hypothesis import strategies as st

from ragix_client.follow import in_order

# One step of the daemon's life as a follower sees it: `k` events committed, each published or
# dropped (a slow reader's high-water mark, a subscription not yet in effect), and the stream
# maybe quiet afterwards.
steps = st.lists(st.tuples(st.integers(0, 5), st.lists(st.booleans(), min_size=5, max_size=5), st.booleans()),
                 max_size=30)


def event(seq: int) -> dict:
    return {"seq": seq, "type": "item.created"}


@given(steps=steps, start=st.integers(0, 6), batch=st.integers(1, 4), preloaded=st.integers(0, 8),
       repeats=st.booleans())
def test_events_come_out_in_order_each_once(steps, start, batch, preloaded, repeats):
    head = [preloaded]  # what the log holds: committed before it is published

    def fetch(after: int) -> list[dict]:
        return [event(s) for s in range(after + 1, min(head[0], after + batch) + 1)]

    def live():
        for committed, published, quiet in steps:
            first = head[0] + 1
            head[0] += committed
            for seq, shown in zip(range(first, head[0] + 1), published):
                if shown:
                    yield event(seq)
                    if repeats:
                        yield event(seq)  # given twice: must come out once
            if quiet:
                yield None
        yield None  # the follower's last quiet check

    last = min(start, preloaded)
    out = [e["seq"] for e in in_order(live(), fetch, last)]
    assert out == list(range(last + 1, head[0] + 1))


def test_a_gap_is_read_back_from_the_log_before_the_event_after_it():
    head = [0]
    reads = []

    def fetch(after):
        reads.append(after)
        return [event(s) for s in range(after + 1, head[0] + 1)]

    def live():
        for seq in (1, 4, 5):  # 2 and 3 were dropped
            head[0] = seq
            yield event(seq)

    out = [e["seq"] for e in in_order(live(), fetch, 0)]
    assert out == [1, 2, 3, 4, 5]
    assert reads == [0, 1, 4]  # at the start, at the gap after 1 (until nothing more), no more
