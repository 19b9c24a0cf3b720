"""The reader pool: jobs run in each owner's order, owners in turn, and the open/done counts
that status shows move when a job's answer is handed over."""

import threading

from ragixd.readers import ReaderPool


def test_jobs_run_and_are_counted_done():
    pool = ReaderPool(2)
    ran = []
    for n in range(20):
        pool.submit(("client", n % 3), ran.append, n)
    pool.shutdown()
    assert sorted(ran) == list(range(20))
    assert pool.done == 20
    assert not pool.busy


def test_one_owner_waits_behind_no_one_else_queue():
    """With one thread held, the queued jobs of a client with many run after the first job of
    a client with one: owners take turns."""
    pool = ReaderPool(1)
    gate = threading.Event()
    order = []
    pool.submit("blocker", gate.wait, 10)
    for n in range(3):
        pool.submit("greedy", order.append, f"greedy-{n}")
    pool.submit("polite", order.append, "polite-0")
    gate.set()
    pool.shutdown()
    assert order[:2] == ["greedy-0", "polite-0"]
    assert order[2:] == ["greedy-1", "greedy-2"]


def test_a_job_counts_done_when_it_hands_over_its_answer():
    pool = ReaderPool(1)
    answered = threading.Event()
    release = threading.Event()
    seen = {}

    def job():
        pool.answered()  # the answer leaves here; work after it no longer counts as open
        seen["done_after_answer"] = pool.done
        seen["busy_after_answer"] = pool.busy
        answered.set()
        release.wait(10)
        pool.answered()  # a second call changes nothing

    pool.submit("c", job)
    assert answered.wait(10)
    assert seen == {"done_after_answer": 1, "busy_after_answer": False}
    release.set()
    pool.shutdown()
    assert pool.done == 1


def test_a_failing_job_is_counted_and_the_pool_goes_on():
    pool = ReaderPool(1)
    ran = []

    def boom():
        raise RuntimeError("job failed")

    pool.submit("c", boom)
    pool.submit("c", ran.append, "after")
    pool.shutdown()
    assert ran == ["after"]
    assert pool.done == 2
    assert not pool.busy
