"""Queries waiting for a min_seq do not hold the readers: a client asking for seqs no write
reaches (a seq of another home, a stale one after a restore) cannot keep every other client's
searches and stats waiting for its time-out."""

from __future__ import annotations

import msgpack
import zmq

from support.daemon import Daemon


def test_queries_waiting_for_a_far_seq_leave_the_readers_to_everyone_else(tmp_path):
    config = tmp_path / "ragixd.toml"
    config.write_text("min_seq_timeout_s = 600\nreaders = 2\n")
    d = Daemon(tmp_path / "home", extra_env={"RAGIX_CONFIG": str(config)}).start()
    try:
        # A deadline, not a measure: held behind the waiting queries, these calls wait 600 s.
        c = d.client(timeout=30)
        head = c.write(title="Deploy window", content="Fridays 14-16h")["seq"]
        sock = zmq.Context.instance().socket(zmq.DEALER)
        sock.setsockopt(zmq.LINGER, 0)
        sock.connect(d.endpoint)
        for n in range(8):  # four times as many as there are readers, each waiting 600 s
            sock.send(msgpack.packb({"v": 1, "id": n, "op": "search",
                                     "args": {"query": "deploy", "min_seq": head + 5_000}}))
        # And one whose seq the next write reaches: answered then, with that write.
        sock.send(msgpack.packb({"v": 1, "id": "soon", "op": "search",
                                 "args": {"query": "window", "mode": "fts", "min_seq": head + 1}}))
        assert c.stats()["items"] >= 1
        assert c.search("deploy", k=5)["count"] == 1
        assert c.verify()["ok"]
        second = c.write(title="Second window", content="Mondays 9-10h")
        assert second["seq"] > head
        assert sock.poll(30_000), "the query whose seq was reached was not answered"
        answer = msgpack.unpackb(sock.recv_multipart()[-1], raw=False)
        assert answer["id"] == "soon" and answer["ok"], answer
        assert {item["id"] for item in answer["result"]["items"]} >= {second["id"]}
        c.close()
        d.stop()  # the eight still waiting are answered busy (test_daemon_edges covers that)
        sock.close()
    finally:
        d.kill()  # a failed run leaves no daemon behind
