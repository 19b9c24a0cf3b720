"""Queries answered on the loop thread never make it wait: when the serving embedder is a
model server, a search goes to a reader, and the loop keeps answering everyone else."""

from __future__ import annotations

import threading

from support.daemon import ollama_daemon
from support.fake_ollama import FakeOllama

from ragixd import contract


def test_slow_model_server_does_not_hold_the_loop(tmp_path):
    with FakeOllama(dimension=16) as fake:
        daemon = ollama_daemon(tmp_path / "home", fake.url)
        try:
            a, b = daemon.client(), daemon.client()
            seq = a.write(title="Kiln schedule", content="firing on tuesdays at dawn")["seq"]
            a.search("kiln", mode="vector", min_seq=seq)  # back-filled: the index exists
            fake.delay = 2.0
            box: dict = {}
            search = threading.Thread(target=lambda: box.update(a.search("glaze recipe")))
            search.start()
            while search.is_alive() and not any("glaze recipe" in call for call in fake.embed_calls()):
                search.join(0.01)
            assert search.is_alive(), f"the search did not wait for the model server: {box}"
            status = b.status()  # asked while the query's embedding is in flight
            assert search.is_alive(), "the loop answered only after the slow search"
            assert contract.first_error("ops/status#answer", status) is None
            search.join(30)
            assert contract.first_error("ops/search#answer", box) is None
            a.close()
            b.close()
        finally:
            daemon.stop()


def test_a_burst_answers_as_one_at_a_time_does(daemon):
    """Requests sent back to back queue up, so some go to the readers; one at a time they are
    answered on the loop thread. Both ways give the same answers."""
    import msgpack
    import zmq

    c = daemon.client()
    written = [c.write(title=f"Glaze batch {i}", content=f"celadon glaze, cone {i % 7}, kiln {i % 3}",
                       tags=[f"kiln{i % 3}"], entities=[f"Potter {i % 4}"]) for i in range(30)]
    seq = written[-1]["seq"]
    requests = [("search", {"query": f"glaze cone {i % 7}", "k": 5, "mode": mode, "min_seq": seq})
                for i in range(12) for mode in ("fts", "hybrid")]
    requests += [("entities", {}), ("read", {"ids": [w["id"] for w in written[:3]]}),
                 ("timeline", {"anchor": written[10]["id"]})]
    c.stats()  # a whole-store read: always on a reader
    before = c.status()["served"]
    one_by_one = [c.call(op, dict(args)) for op, args in requests]
    middle = c.status()["served"]
    assert middle["loop"] - before["loop"] == len(requests) and middle["readers"] == before["readers"]
    assert before["readers"] >= 1
    sock = zmq.Context.instance().socket(zmq.DEALER)
    sock.setsockopt(zmq.LINGER, 0)
    sock.connect(daemon.endpoint)
    for _ in range(20):  # until the readers took part (the first burst almost always does)
        for i, (op, args) in enumerate(requests):
            sock.send(msgpack.packb({"v": 1, "id": i, "op": op, "args": args}, use_bin_type=True))
        burst: dict[int, dict] = {}
        while len(burst) < len(requests):
            assert sock.poll(30_000), "no answer to the burst"
            answer = msgpack.unpackb(sock.recv(), raw=False)
            assert answer["ok"], answer
            burst[answer["id"]] = answer["result"]
        assert [burst[i] for i in range(len(requests))] == one_by_one
        if c.status()["served"]["readers"] > middle["readers"]:
            break
    else:
        raise AssertionError("no request of 20 bursts went to the readers")
    sock.close()
    c.close()
