"""The Ollama embedder against a fake Ollama server on loopback (the real client code runs)."""

from __future__ import annotations

import numpy as np
import pytest
from support.fake_ollama import FakeOllama, fake_vector, unused_loopback_port

from ragixd.embed.ollama_embedder import OllamaEmbedder
from ragixd.embed.protocol import Embedder
from ragixd.embed.registry import make_embedder
from ragixd.errors import Unavailable


@pytest.fixture
def fake():
    with FakeOllama(dimension=16) as server:
        yield server


def test_embeds_and_normalises(fake):
    emb = OllamaEmbedder(url=fake.url, timeout=5)
    out = emb.embed_batch(["alpha", "beta"])
    assert isinstance(emb, Embedder)
    assert out.shape == (2, 16) and out.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(out, axis=1), 1.0, rtol=1e-5)
    expected = np.array(fake_vector("alpha", 16), dtype=np.float32)
    np.testing.assert_allclose(out[0], expected / np.linalg.norm(expected), rtol=1e-5)
    assert emb.model_name == "nomic-embed-text"


def test_batches_requests_and_keeps_order(fake):
    emb = OllamaEmbedder(url=fake.url, batch_size=3)
    texts = [f"text {i}" for i in range(7)]
    out = emb.embed_batch(texts)
    assert fake.embed_calls() == [texts[0:3], texts[3:6], texts[6:7]]
    single = emb.embed_batch(["text 5"])[0]
    np.testing.assert_allclose(out[5], single, rtol=1e-6)


def test_dimension_discovered_from_first_response(fake):
    emb = OllamaEmbedder(url=fake.url)
    assert emb.dimension == 16
    assert len(fake.embed_calls()) == 1  # one probe
    assert emb.dimension == 16
    assert len(fake.embed_calls()) == 1  # remembered


def test_a_dimension_change_puts_the_model_out_of_service_as_an_outage_does(fake):
    emb = OllamaEmbedder(url=fake.url)
    emb.embed_batch(["a"])
    fake.dimension = 8
    with pytest.raises(Unavailable) as info:
        emb.embed_batch(["b"])
    assert info.value.details["reason"] == "dimension"
    assert "8-d vectors, expected 16" in emb.last_error  # what a search that fell back says
    fake.dimension = 16
    assert emb.embed_batch(["b"]).shape == (1, 16) and emb.last_error == ""


@pytest.mark.parametrize("poison", [float("nan"), float("inf"), 1e39, 3e38])
def test_vectors_with_nan_or_infinite_values_are_refused_not_stored(fake, poison):
    # 1e39 is infinite in float32; 3e38 is finite, but its row's length is not.
    emb = OllamaEmbedder(url=fake.url)
    fake.poison = poison
    with pytest.raises(Unavailable) as info:
        emb.embed_batch(["a", "b"])
    assert info.value.details["reason"] == "bad_response" and "NaN or infinite" in emb.last_error
    fake.poison = None
    assert np.isfinite(emb.embed_batch(["a", "b"])).all()


def test_absent_server_is_unavailable():
    emb = OllamaEmbedder(url=f"http://127.0.0.1:{unused_loopback_port()}", timeout=2)
    with pytest.raises(Unavailable) as info:
        emb.embed_batch(["hello"])
    assert info.value.details["reason"] == "connect"
    assert not emb.available()


def test_slow_server_times_out_as_unavailable(fake):
    fake.delay = 5.0
    emb = OllamaEmbedder(url=fake.url, timeout=0.3)
    with pytest.raises(Unavailable) as info:
        emb.embed_batch(["hello"])
    assert info.value.details["reason"] == "timeout"


@pytest.mark.parametrize("status", [500, 503])
def test_server_error_is_unavailable(fake, status):
    fake.fail_status = status
    with pytest.raises(Unavailable) as info:
        OllamaEmbedder(url=fake.url).embed_batch(["hello"])
    assert info.value.details["status"] == status


def test_unknown_model_is_unavailable_and_not_listed(fake):
    emb = OllamaEmbedder(model="no-such-model", url=fake.url)
    with pytest.raises(Unavailable) as info:
        emb.embed_batch(["hello"])
    assert info.value.details["status"] == 404
    assert not emb.available()
    assert OllamaEmbedder(url=fake.url).available()


def test_malformed_reply_is_unavailable(fake):
    fake.malformed = True
    with pytest.raises(Unavailable) as info:
        OllamaEmbedder(url=fake.url).embed_batch(["hello"])
    assert info.value.details["reason"] == "bad_response"


def test_registry_builds_it(fake):
    emb = make_embedder(
        {
            "backend": "ollama",
            "model": "nomic-embed-text",
            "url": fake.url,
            "timeout": 5,
            "batch_size": 2,
        }
    )
    assert isinstance(emb, OllamaEmbedder)
    assert emb.embed_batch(["a", "b", "c"]).shape == (3, 16)
    assert len(fake.embed_calls()) == 2
