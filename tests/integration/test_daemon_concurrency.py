"""Many clients at once against one real daemon: no "database is locked", no lost write, every
answer delivered to the request that asked for it, and read-your-writes through min_seq."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from typing import Any

from ragix_client import Client

OWN_CLIENTS = 8       # threads with a Client each
SHARED_THREADS = 4    # threads sharing one Client
OPS_PER_THREAD = 300  # mixed reads and writes: 12 x 300 = 3,600 requests


def title_for(thread: int, n: int) -> str:
    # One word unique to this request, so a search for it can only find this item.
    return f"conc t{thread}r{n} marker{thread}x{n}"


def worker(client: Client, thread: int, seed: int, acked: dict[str, str],
           problems: list[Any]) -> None:
    """Mixed ops; every answer is checked against the request it should belong to."""
    rng = random.Random(seed)
    mine: list[tuple[str, str]] = []
    for n in range(OPS_PER_THREAD):
        roll = rng.random()
        try:
            if roll < 0.45 or not mine:
                title = title_for(thread, n)
                answer = client.write(title=title, content=f"thread {thread} request {n}",
                                      tags=[f"t{thread}"])
                if answer["status"] != "created":
                    problems.append(("not created", title, answer))
                    continue
                mine.append((answer["id"], title))
                acked[answer["id"]] = title
                if n % 5 == 0:  # read-your-writes: the write is visible at its own seq
                    found = client.search(f"marker{thread}x{n}", min_seq=answer["seq"], mode="fts")
                    if [i["id"] for i in found["items"]] != [answer["id"]]:
                        problems.append(("search missed its write", title, found["items"]))
            elif roll < 0.75:
                item_id, title = rng.choice(mine)
                items = client.read(item_id)["items"]
                if [(i["id"], i["title"]) for i in items] != [(item_id, title)]:
                    problems.append(("read got another answer", item_id, items))
            elif roll < 0.9:
                item_id, title = rng.choice(mine)
                word = title.split()[-1]
                found = client.search(word, mode="fts")["items"]
                if [i["id"] for i in found] != [item_id]:
                    problems.append(("search got another answer", word, found))
            elif roll < 0.95:
                history = client.history(rng.choice(mine)[0])
                if len(history["revisions"]) != 1:
                    problems.append(("history", history))
            else:
                client.stats()
        except Exception as err:  # noqa: BLE001 - every failure is a finding
            problems.append(("raised", thread, n, repr(err)))


def run_threads(targets: list[Callable[[], None]]) -> None:
    threads = [threading.Thread(target=t) for t in targets]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not any(t.is_alive() for t in threads), "a client thread hung"


def rebuilds(daemon, times: int, problems: list[Any], stop: threading.Event,
             expect_events: int | None = None) -> Callable[[], None]:
    """A thread body: `times` rebuilds in a row (each replaying `expect_events`, if given),
    problems noted, then `stop` set for the other threads."""
    def run() -> None:
        client = daemon.client()
        try:
            for _ in range(times):
                replayed = client.rebuild()["events"]
                if expect_events is not None and replayed != expect_events:
                    problems.append(("rebuild", replayed))
        except Exception as err:  # noqa: BLE001
            problems.append(("rebuild raised", repr(err)))
        finally:
            stop.set()
            client.close()
    return run


def test_many_clients_mixed_reads_and_writes(daemon):
    acked: dict[str, str] = {}
    problems: list[Any] = []
    own = [daemon.client() for _ in range(OWN_CLIENTS)]
    shared = daemon.client()
    targets = [lambda c=c, t=t: worker(c, t, t, acked, problems) for t, c in enumerate(own)]
    targets += [lambda t=t: worker(shared, t, t, acked, problems)
                for t in range(OWN_CLIENTS, OWN_CLIENTS + SHARED_THREADS)]
    run_threads(targets)
    assert problems == [], problems[:10]

    check = daemon.client()
    ids = sorted(acked)
    assert len(ids) > 1000
    for start in range(0, len(ids), 500):
        batch = ids[start:start + 500]
        items = check.read(*batch)["items"]
        assert {i["id"]: i["title"] for i in items} == {i: acked[i] for i in batch}
    stats = check.stats()
    assert stats["items"] == len(acked)
    assert check.verify()["ok"]
    for c in (*own, shared, check):
        c.close()
    assert "database is locked" not in daemon.log_path.read_text()


def test_queries_during_rebuilds_see_the_old_state_or_the_new_never_a_gap(daemon):
    """A rebuild drops and replays every projection; queries must wait for it, not fail (a
    rebuild this small ends well within the 5 s a query waits before it would answer busy)."""
    c = daemon.client()
    ids = [c.write(title=f"rebuild target {n}", content=f"word{n} stays")["id"] for n in range(200)]
    events = c.stats()["events"]  # each write also commits its vector
    problems: list[Any] = []
    stop = threading.Event()

    def reader(seed: int) -> None:
        client, rng = daemon.client(), random.Random(seed)
        while not stop.is_set():
            n = rng.randrange(len(ids))
            try:
                if [i["id"] for i in client.search(f"word{n}", mode="fts")["items"]] != [ids[n]]:
                    problems.append(("search", n))
                if client.stats()["items"] != len(ids):
                    problems.append(("stats", n))
                client.status()
            except Exception as err:  # noqa: BLE001
                problems.append(("raised", repr(err)))
        client.close()

    rebuilder = rebuilds(daemon, 10, problems, stop, expect_events=events)
    run_threads([rebuilder, *[lambda s=s: reader(s) for s in range(4)]])
    assert problems == [], problems[:10]
    assert c.status()["rebuilding"] is False
    assert c.verify()["ok"]
    c.close()


def test_a_query_waiting_for_a_future_seq_sees_the_write_that_reaches_it(daemon):
    """min_seq ahead of the head: the query waits for the commit, then sees the write."""
    c = daemon.client()
    for n in range(20):
        head = c.status()["head_seq"]
        box: dict[str, Any] = {}

        def wait(box=box, word=f"future{n}", min_seq=head + 1) -> None:
            box["found"] = daemon.client().search(word, min_seq=min_seq, mode="fts")

        waiter = threading.Thread(target=wait)
        waiter.start()
        written = c.write(title=f"future{n} write", content="committed after the query arrived")
        waiter.join(30)
        assert written["seq"] > head
        assert [i["id"] for i in box["found"]["items"]] == [written["id"]]
        # status follows the head: every projector is at the write's seq, none left behind
        status = c.status()
        assert status["head_seq"] == written["seq"]
        assert status["projectors"] and set(status["projectors"].values()) == {written["seq"]}
    c.close()


def test_a_vector_search_with_min_seq_sees_the_write_just_answered(daemon):
    """The vector index is brought up to a commit after its answer is sent; a query carrying
    the write's seq waits for that step, so read-your-writes holds for vector search too."""
    c = daemon.client()
    for n in range(15):
        title = f"zebu{n} quokka{n} vector read"
        written = c.write(title=title, content=f"okapi{n} tapir{n} axolotl{n}")
        found = c.search(f"zebu{n} quokka{n} okapi{n}", mode="vector", k=3, min_seq=written["seq"])
        assert written["id"] in [i["id"] for i in found["items"]]
    c.close()


def test_each_write_is_found_by_its_vector_while_others_write_and_rebuilds_run(daemon):
    """Read-your-writes for the vector index, which the settler fills after the answer: with
    min_seq a search by the text just written finds it first, whatever else is committing or
    being rebuilt."""
    problems: list[Any] = []
    stop = threading.Event()

    def writer(thread: int) -> None:
        client = daemon.client()
        n = 0
        while not stop.is_set() or n < 40:
            text = f"kiln {thread} batch {n} glaze {n} cone {thread}"
            try:
                written = client.write(title=f"stress {thread} {n}", content=text, dedup=False)
                found = client.search(f"stress {thread} {n} {text}", mode="vector", k=5,
                                      min_seq=written["seq"])["items"]
                if not found or found[0]["id"] != written["id"]:
                    problems.append(("not first", thread, n, [i["title"] for i in found]))
            except Exception as err:  # noqa: BLE001
                problems.append(("raised", repr(err)))
            n += 1
        client.close()

    run_threads([rebuilds(daemon, 3, problems, stop), *[lambda t=t: writer(t) for t in range(4)]])
    assert problems == [], problems[:10]
    assert daemon.client().verify()["ok"]
