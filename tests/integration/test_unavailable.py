"""`unavailable` over the wire: a vector search whose model server fails says so (a hybrid
search falls back to full text instead)."""

import pytest

from ragixd.errors import Unavailable
from support.daemon import ollama_daemon
from support.fake_ollama import FakeOllama


def test_a_vector_search_whose_model_server_fails_is_unavailable(tmp_path):
    with FakeOllama(dimension=16) as fake:
        daemon = ollama_daemon(tmp_path / "home", fake.url)
        c = daemon.client()
        try:
            written = c.write(title="Deploy window", content="Fridays 14-16h")
            assert c.search("deploy window", mode="vector", min_seq=written["seq"])["mode"] == "vector"
            fake.fail_status = 500
            with pytest.raises(Unavailable) as err:
                c.search("when do deploys happen", mode="vector")
            assert err.value.code == "unavailable" and "ollama" in err.value.message
            assert c.search("when do deploys happen")["mode"] == "fts"
        finally:
            c.close()
            daemon.stop()


def test_embedders_lists_a_model_whose_server_never_answered_as_unavailable(tmp_path, capsys):
    from support.fake_ollama import unused_loopback_port

    from ragix_client import ctl
    daemon = ollama_daemon(tmp_path / "home", f"http://127.0.0.1:{unused_loopback_port()}")
    c = daemon.client()
    try:
        c.write(title="Deploy window", content="Fridays 14-16h")
        (model,) = c.embedders()["embedders"]
        assert model["dimension"] is None and model["model"]
        assert ctl.main(["--endpoint", daemon.endpoint, "embedders"]) == 0
        assert "dim ?" in capsys.readouterr().out
    finally:
        c.close()
        daemon.stop()
