"""Embedders: the protocol, the built-in backends (hash, ollama, onnx) and the factory."""

from ragixd.embed.protocol import Embedder
from ragixd.embed.registry import make_embedder

__all__ = ["Embedder", "make_embedder"]
