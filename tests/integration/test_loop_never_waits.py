"""Queries answered on the loop thread never make it wait: when the serving embedder is a
model server, a search goes to a reader, and the loop keeps answering everyone else."""

from __future__ import annotations

import threading

from support.daemon import Daemon
from support.fake_ollama import FakeOllama

from ragixd import contract


def test_slow_model_server_does_not_hold_the_loop(tmp_path):
    with FakeOllama(dimension=16) as fake:
        home = tmp_path / "home"
        (home / "config" / "ragix").mkdir(parents=True)
        (home / "config" / "ragix" / "ragixd.toml").write_text(
            f'[embedder]\nbackend = "ollama"\nurl = "{fake.url}"\ntimeout = 30\n')
        daemon = Daemon(home).start()
        try:
            a, b = daemon.client(), daemon.client()
            seq = a.write(title="Kiln schedule", content="firing on tuesdays at dawn")["seq"]
            a.search("kiln", mode="vector", min_seq=seq)  # back-filled: the index exists
            fake.delay = 2.0
            box: dict = {}
            search = threading.Thread(target=lambda: box.update(a.search("glaze recipe")))
            search.start()
            while not any("glaze recipe" in call for call in fake.embed_calls()):
                search.join(0.01)
            status = b.status()  # asked while the query's embedding is in flight
            assert search.is_alive(), "the loop answered only after the slow search"
            assert contract.first_error("ops/status#answer", status) is None
            search.join(30)
            assert contract.first_error("ops/search#answer", box) is None
            a.close()
            b.close()
        finally:
            daemon.stop()
