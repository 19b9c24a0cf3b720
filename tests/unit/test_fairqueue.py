"""The fair queue (the reader pool's and the writer's): clients take turns, each client's jobs keep their order."""

from hypothesis import given, strategies as st

from ragixd.fairqueue import FairQueue


def test_a_client_with_many_jobs_does_not_go_before_the_others():
    q = FairQueue()
    for i in range(5):
        q.put("busy", f"busy{i}")
    q.put("quiet", "quiet0")
    q.put("other", "other0")
    taken = [q.get() for _ in range(len(q))]
    assert taken[:3] == ["busy0", "quiet0", "other0"]  # the quiet ones wait one job, not five
    assert taken[3:] == ["busy1", "busy2", "busy3", "busy4"]


@given(st.lists(st.tuples(st.integers(0, 3), st.integers()), max_size=40))
def test_every_job_comes_out_once_and_each_owners_in_order(puts):
    q = FairQueue()
    for owner, job in puts:
        q.put(owner, (owner, job))
    taken = [q.get() for _ in range(len(puts))]
    assert sorted(taken) == sorted(puts) and len(q) == 0
    for owner in {o for o, _ in puts}:
        assert [j for o, j in taken if o == owner] == [j for o, j in puts if o == owner]
