"""Read-your-writes with a model-server embedder: its vectors come from a back-filler after
the write, and a query with min_seq must still find the item by vector."""

from __future__ import annotations

from support.daemon import ollama_daemon
from support.fake_ollama import FakeOllama


def test_min_seq_waits_for_the_back_filled_vector(tmp_path):
    with FakeOllama(dimension=16) as fake:
        daemon = ollama_daemon(tmp_path / "home", fake.url)
        try:
            c = daemon.client()
            for i in range(8):
                title, content = f"Kiln log {i}", f"firing number {i} reached cone {i + 4}"
                w = c.write(title=title, content=content)
                # The query's text is the item's embedding text, so its fake vector is the same.
                found = c.search(f"{title}\n{content}", mode="vector", k=3, min_seq=w["seq"])
                assert found["mode"] == "vector"
                assert w["id"] in [h["id"] for h in found["items"]], (i, found)
            c.close()
        finally:
            daemon.stop()
