"""The onnx embedder (optional extra): skipped cleanly when its packages are not installed."""

from __future__ import annotations

import importlib.metadata
import socket
import subprocess
import sys

import numpy as np
import pytest

from ragixd.errors import ConfigError

onnxruntime = pytest.importorskip("onnxruntime")
pytest.importorskip("tokenizers")

from ragixd.embed.onnx_embedder import (
    INSTALL_HINT,
    MODEL_SOURCES,
    TOKENIZER_SOURCES,
    OnnxEmbedder,
    find_packaged_file,
)

if find_packaged_file(MODEL_SOURCES) is None or find_packaged_file(TOKENIZER_SOURCES) is None:
    pytest.skip("the onnx model packages are not installed", allow_module_level=True)


@pytest.fixture(scope="module")
def emb(request) -> OnnxEmbedder:
    # Any attempt to open a network connection while loading or embedding fails the test.
    real_connect = socket.socket.connect

    def refuse(self, address):
        raise AssertionError(f"network access attempted: {address}")

    socket.socket.connect = refuse
    try:
        embedder = OnnxEmbedder(batch_size=4)
        embedder.embed_batch(["warm up"])
    finally:
        socket.socket.connect = real_connect
    return embedder


def test_contract(emb):
    out = emb.embed_batch(["A man is eating food.", "Une phrase en français.", ""])
    assert out.shape == (3, 384) and out.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(out, axis=1), 1.0, rtol=1e-4)
    assert emb.model_name == "all-minilm-l6-v2-onnx-int8"


def test_semantic_neighbours(emb):
    a, b, c = emb.embed_batch(
        [
            "A man is eating food.",
            "A man is eating a piece of bread.",
            "The girl is carrying a baby.",
        ]
    )
    assert float(a @ b) > 0.6
    assert float(a @ c) < 0.2


def test_batching_and_padding_do_not_change_vectors(emb):
    texts = [
        "short",
        "a considerably longer sentence that needs more word pieces than the other",
        "mid size",
    ]
    together = emb.embed_batch(texts)
    alone = np.vstack([emb.embed_batch([t]) for t in texts])
    np.testing.assert_allclose(together, alone, atol=1e-4)


def test_long_text_is_truncated_not_rejected(emb):
    out = emb.embed_batch(["word " * 2000])
    assert out.shape == (1, 384) and np.isfinite(out).all()


def test_custom_model_path_needs_a_name():
    with pytest.raises(ValueError):
        OnnxEmbedder(model_path="/nonexistent/model.onnx")


def test_bad_model_file_is_config_error(tmp_path):
    bad = tmp_path / "model.onnx"
    bad.write_bytes(b"not an onnx file")
    with pytest.raises(ConfigError):
        OnnxEmbedder(model_path=str(bad), model_name="broken")


def test_missing_packages_name_the_install_command(monkeypatch):
    def missing(name):
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "distribution", missing)
    with pytest.raises(ConfigError) as info:
        OnnxEmbedder()
    assert INSTALL_HINT in info.value.message


def test_onnxruntime_imports_after_usearch():
    # usearch >= 2.26.2 loaded first crashes onnxruntime >= 1.23 at import (libstdc++ locale).
    code = "import usearch.index, onnxruntime; print('ok')"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert out.returncode == 0 and out.stdout.strip() == "ok", (out.returncode, out.stderr[-500:])
