"""Builds an Embedder from a config spec such as {"backend": "hash", "dimension": 384}.

Owns the mapping from backend names to classes and the check of each spec's keys, so a typo in
the config fails loudly at start-up rather than silently falling back to defaults. Heavy
backends are imported only when asked for, so the hash default never loads onnxruntime.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ragixd.embed.protocol import Embedder
from ragixd.errors import ConfigError, RagixError

DEFAULT_SPEC: dict[str, Any] = {"backend": "hash", "dimension": 384}


def _hash(opts: dict[str, Any]) -> Embedder:
    from ragixd.embed.hashing import HashEmbedder

    return HashEmbedder(**opts)


def _ollama(opts: dict[str, Any]) -> Embedder:
    from ragixd.embed.ollama_embedder import OllamaEmbedder

    return OllamaEmbedder(**opts)


def _onnx(opts: dict[str, Any]) -> Embedder:
    from ragixd.embed.onnx_embedder import OnnxEmbedder

    return OnnxEmbedder(**opts)


# backend name -> (factory, allowed option keys)
BACKENDS: dict[str, tuple[Callable[[dict[str, Any]], Embedder], frozenset[str]]] = {
    "hash": (_hash, frozenset({"dimension"})),
    "ollama": (_ollama, frozenset({"model", "url", "timeout", "batch_size", "dimension"})),
    "onnx": (
        _onnx,
        frozenset(
            {"model_path", "tokenizer_path", "model_name", "max_tokens", "batch_size", "threads"}
        ),
    ),
}


def make_embedder(spec: dict[str, Any] | None = None) -> Embedder:
    """Return the embedder a spec describes; raise ConfigError naming what is wrong."""
    spec = dict(DEFAULT_SPEC if spec is None else spec)
    backend = spec.pop("backend", "hash")
    if backend not in BACKENDS:
        raise ConfigError(
            f"unknown embedder backend {backend!r}; choose one of {sorted(BACKENDS)}",
            backend=backend,
        )
    factory, allowed = BACKENDS[backend]
    unknown = sorted(set(spec) - allowed)
    if unknown:
        raise ConfigError(
            f"embedder backend {backend!r} does not take {unknown}; it takes {sorted(allowed)}",
            backend=backend,
            unknown=unknown,
        )
    try:
        return factory(spec)
    except RagixError:
        raise
    except Exception as exc:  # noqa: BLE001 - a value of the wrong type fails deep in a library
        raise ConfigError(f"bad {backend!r} embedder options: {exc}", backend=backend) from exc
