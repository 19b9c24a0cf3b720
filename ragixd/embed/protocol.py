"""The Embedder protocol every backend implements, and the row normalisation they share.

Owns the contract only: a backend has a stable `model_name` (vectors are stored per model, so
the name must change whenever the vectors would), a `dimension`, and `embed_batch`, which
returns float32 rows of unit length. Never does I/O itself.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into unit-length float32 vectors of a fixed dimension."""

    model_name: str
    dimension: int

    def embed_batch(self, texts: list[str]) -> np.ndarray:
        """Return a float32 array of shape [len(texts), dimension], each row L2-normalised."""
        ...


def normalise_rows(matrix: np.ndarray) -> np.ndarray:
    """Return a float32 copy with every row of unit length; all-zero rows stay zero."""
    out = np.asarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    norms[norms == 0.0] = 1.0
    return (out / norms).astype(np.float32, copy=False)
