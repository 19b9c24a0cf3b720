"""make_embedder: spec validation and backend selection."""

from __future__ import annotations

import sys

import pytest

from ragixd.embed.hashing import HashEmbedder
from ragixd.embed.onnx_embedder import INSTALL_HINT
from ragixd.embed.registry import make_embedder
from ragixd.errors import ConfigError


def test_default_is_hash_384():
    emb = make_embedder(None)
    assert isinstance(emb, HashEmbedder)
    assert (emb.model_name, emb.dimension) == ("hash-v2-384", 384)


def test_hash_with_dimension():
    assert make_embedder({"backend": "hash", "dimension": 128}).dimension == 128


def test_spec_is_not_mutated():
    spec = {"backend": "hash", "dimension": 64}
    make_embedder(spec)
    assert spec == {"backend": "hash", "dimension": 64}


def test_unknown_backend():
    with pytest.raises(ConfigError, match="unknown embedder backend"):
        make_embedder({"backend": "word2vec"})


def test_unknown_key_is_named():
    with pytest.raises(ConfigError) as info:
        make_embedder({"backend": "hash", "dimensions": 384})
    assert info.value.details["unknown"] == ["dimensions"]


def test_bad_value_is_config_error():
    with pytest.raises(ConfigError):
        make_embedder({"backend": "hash", "dimension": 2})
    with pytest.raises(ConfigError):
        make_embedder({"backend": "ollama", "batch_size": 0})


def test_onnx_without_its_packages_names_the_install_command(monkeypatch):
    monkeypatch.setitem(sys.modules, "onnxruntime", None)  # import now fails as if absent
    with pytest.raises(ConfigError) as info:
        make_embedder({"backend": "onnx"})
    assert INSTALL_HINT in info.value.message
    assert INSTALL_HINT.startswith("pip install ")


@pytest.mark.parametrize("dimension", [10**11, 4097, 8.5, "64", True])
def test_a_hash_dimension_it_cannot_use_is_a_config_error(dimension):
    # Caught at start-up or reload, not at each write: the hash embedder runs inside them.
    with pytest.raises(ConfigError, match="dimension"):
        make_embedder({"backend": "hash", "dimension": dimension})


def test_an_option_of_the_wrong_type_is_a_config_error_not_a_crash():
    with pytest.raises(ConfigError, match="ollama"):
        make_embedder({"backend": "ollama", "url": 5})
