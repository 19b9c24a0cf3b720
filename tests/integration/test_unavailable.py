"""`unavailable` over the wire: a vector search whose model server fails says so (a hybrid
search falls back to full text instead)."""

from contextlib import contextmanager

import pytest

from ragixd.errors import Unavailable
from support.daemon import ollama_daemon
from support.fake_ollama import FakeOllama


@contextmanager
def vectors_served(tmp_path):
    """(fake Ollama, client) of a daemon embedding with it, one item written and found by
    its vector; the daemon is stopped after."""
    with FakeOllama(dimension=16) as fake:
        daemon = ollama_daemon(tmp_path / "home", fake.url)
        c = daemon.client()
        try:
            written = c.write(title="Deploy window", content="Fridays 14-16h")
            assert c.search("deploy window", mode="vector", min_seq=written["seq"])["mode"] == "vector"
            yield fake, c
        finally:
            c.close()
            daemon.stop()


def test_a_vector_search_whose_model_server_fails_is_unavailable(tmp_path):
    with vectors_served(tmp_path) as (fake, c):
        fake.fail_status = 500
        with pytest.raises(Unavailable) as err:
            c.search("when do deploys happen", mode="vector")
        assert err.value.code == "unavailable" and "ollama" in err.value.message
        assert c.search("when do deploys happen")["mode"] == "fts"


def test_a_model_that_changed_its_size_or_answers_nan_is_out_of_service_not_stored(tmp_path):
    """A model that now answers with another vector size, or with NaN, is said as an outage:
    a vector search is `unavailable`, a hybrid one falls back to full text and says why, and
    no such vector is stored (the items are back-filled once the model answers as before)."""
    with vectors_served(tmp_path) as (fake, c):
        for fault, why in (("dimension", "8-d vectors, expected 16"), ("poison", "NaN or infinite")):
            if fault == "dimension":
                fake.dimension = 8
            else:
                fake.poison = float("nan")
            with pytest.raises(Unavailable) as err:
                c.search("when do deploys happen", mode="vector")
            assert why in err.value.message
            answer = c.search("deploy window")
            assert answer["mode"] == "fts" and why in answer["vectors_unavailable"]
            c.write(title="Release train", content=f"Leaves on Tuesdays ({fault})")
            fake.dimension, fake.poison = 16, None
        hits = c.search("release train tuesdays", mode="vector", k=5)["items"]
        assert all(h["score"] == h["score"] for h in hits)  # no NaN score
        assert c.verify()["ok"]


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
        out = capsys.readouterr().out
        assert "dim ?" in out and "0 indexed (flat table)" in out
    finally:
        c.close()
        daemon.stop()


def test_a_vector_search_with_nothing_indexed_and_the_server_down_says_so(tmp_path, capsys):
    """Nothing was ever embedded (the server was down from the start): 'no matches' would hide
    that vector search cannot be made at all."""
    from support.fake_ollama import unused_loopback_port

    from ragix_client import ctl
    daemon = ollama_daemon(tmp_path / "home", f"http://127.0.0.1:{unused_loopback_port()}")
    c = daemon.client()
    try:
        written = c.write(title="Deploy window", content="Fridays 14-16h")
        assert c.embedders()["embedders"][0]["indexed"] == 0
        for call in (lambda: c.search("deploy window", mode="vector", min_seq=written["seq"]),
                     lambda: c.recall("deploy window", search_mode="vector")):
            with pytest.raises(Unavailable) as err:
                call()
            assert "vector search is unavailable" in err.value.message and "cannot connect" in err.value.message
        code = ctl.main(["--endpoint", daemon.endpoint, "search", "deploy window", "--mode", "vector"])
        out, err = capsys.readouterr()
        assert code == 3 and out == "" and "vector search is unavailable" in err and "--mode fts" in err

        hybrid = c.search("deploy window")  # falls back to full text, and says why
        assert hybrid["mode"] == "fts" and [i["id"] for i in hybrid["items"]] == [written["id"]]
        assert "cannot connect" in hybrid["vectors_unavailable"]
        assert "cannot connect" in c.recall("deploy window")["vectors_unavailable"]
        code = ctl.main(["--endpoint", daemon.endpoint, "search", "deploy window"])
        out, err = capsys.readouterr()
        assert code == 0 and written["id"] in out
        assert "vector search is unavailable" in err and "full-text results only" in err
        code = ctl.main(["--endpoint", daemon.endpoint, "recall", "deploy window"])
        out, err = capsys.readouterr()
        assert code == 0 and "Fridays" in out and "full-text results only" in err
    finally:
        c.close()
        daemon.stop()


def test_a_vector_search_with_nothing_indexed_and_the_server_up_is_an_honest_empty_answer(tmp_path):
    with FakeOllama(dimension=16) as fake:
        daemon = ollama_daemon(tmp_path / "home", fake.url)
        c = daemon.client()
        try:
            answer = c.search("anything at all", mode="vector")
            assert answer == {"items": [], "count": 0, "mode": "vector"}
            assert fake.embed_calls() == [["anything at all"]]  # the server was asked, and answered
            written = c.write(title="Deploy window", content="Fridays 14-16h")
            hybrid = c.search("deploy window", min_seq=written["seq"])
            assert hybrid["mode"] == "hybrid" and "vectors_unavailable" not in hybrid
        finally:
            c.close()
            daemon.stop()


def test_a_vector_search_without_any_embedder_is_refused(tmp_path):
    from support.daemon import Daemon

    from ragixd.errors import InvalidInput
    daemon = Daemon(tmp_path / "home", extra_env={"RAGIX_EMBEDDER": "none"}).start()
    c = daemon.client()
    try:
        c.write(title="Deploy window", content="Fridays 14-16h")
        with pytest.raises(InvalidInput) as err:
            c.search("deploy window", mode="vector")
        assert "none is configured" in err.value.message
        assert "vectors_unavailable" not in c.search("deploy window")  # nothing failed: none asked for
    finally:
        c.close()
        daemon.stop()


def test_a_model_server_that_came_back_is_not_said_to_be_down_by_a_search_of_an_empty_store(tmp_path):
    """An empty store has nothing to embed, so no embed clears the failure seen before: the
    search itself asks the server again instead of repeating the old error."""
    with FakeOllama(dimension=16) as fake:
        daemon = ollama_daemon(tmp_path / "home", fake.url)
        c = daemon.client()
        try:
            fake.fail_status = 500
            with pytest.raises(Unavailable):
                c.search("deploy window", mode="vector")  # nothing indexed: the query is embedded, and fails
            assert "answered 500" in c.search("deploy window")["vectors_unavailable"]  # still down: said
            assert "answered 500" in c.recall("deploy window")["vectors_unavailable"]
            fake.fail_status = None  # the server is back
            calls = len(fake.embed_calls())
            answer = c.search("deploy window")
            assert answer["mode"] == "fts" and "vectors_unavailable" not in answer  # nothing to search, nothing wrong
            assert len(fake.embed_calls()) == calls + 1  # asked once, and it answered
            assert "vectors_unavailable" not in c.recall("deploy window")
            assert len(fake.embed_calls()) == calls + 1  # no failure left to check again
        finally:
            c.close()
            daemon.stop()


def test_items_written_during_an_outage_are_embedded_soon_after_a_search_finds_the_model_back(tmp_path):
    """The back-filler retries every 30 s while the model is down; once a search's query has
    been embedded again (the model is back), it retries at once, within a second."""
    import time
    with vectors_served(tmp_path) as (fake, c):
        fake.fail_status = 500
        written = c.write(title="Release train", content="Leaves on Tuesdays from platform nine")
        deadline = time.monotonic() + 20
        while c.embedders()["embedders"][0]["available"] and time.monotonic() < deadline:
            time.sleep(0.2)  # until the back-filler has met the outage
        fake.fail_status = None
        assert c.search("release train", mode="hybrid")["mode"] == "hybrid"  # the model answers again
        deadline = time.monotonic() + 20  # well under the 30 s between retries
        while c.embedders()["embedders"][0]["missing"] and time.monotonic() < deadline:
            time.sleep(0.2)
        assert c.embedders()["embedders"][0]["missing"] == 0
        assert written["id"] in [h["id"] for h in c.search("release train tuesdays", mode="vector", k=5)["items"]]
