"""The default embedder: signed feature hashing of words, word pairs and character n-grams.

Owns the feature design of the `hash` backend. It needs no model and no download, is
deterministic across processes and machines (blake2b, never the salted built-in hash), and is
fast enough to run inline on the write path. Character n-grams put inflections, typos and
accent variants near each other; word pairs reward phrase matches. Any change to the features
or weights must bump FEATURE_VERSION, because stored vectors are keyed by the model name.
"""

from __future__ import annotations

import math
from collections import Counter
from hashlib import blake2b

import numpy as np

from ragixd.embed.protocol import normalise_rows
from ragixd.embed.text import STOP_WORDS, char_ngrams, words

FEATURE_VERSION = 1
DEFAULT_DIMENSION = 384

# Relative weights of the three feature families (each word's n-gram block has this norm).
WORD_WEIGHT = 1.0
PAIR_WEIGHT = 0.6
NGRAM_WEIGHT = 0.8

_CACHE_LIMIT = 200_000
_EMPTY_FEATURE = "\x00empty"


def feature_hash(feature: str) -> int:
    """A stable 64-bit hash of one feature string."""
    return int.from_bytes(blake2b(feature.encode("utf-8"), digest_size=8).digest(), "little")


class HashEmbedder:
    """Deterministic hashed bag of words, word pairs and character n-grams."""

    def __init__(self, dimension: int = DEFAULT_DIMENSION) -> None:
        if dimension < 8:
            raise ValueError("dimension must be at least 8")
        self.dimension = dimension
        self.model_name = f"hash-v{FEATURE_VERSION}-{dimension}"
        self._word_cache: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        self._pair_cache: dict[str, tuple[int, float]] = {}

    def embed_batch(self, texts: list[str]) -> np.ndarray:
        rows: list[np.ndarray] = []
        cols: list[np.ndarray] = []
        vals: list[np.ndarray] = []
        for row, text in enumerate(texts):
            idx, val = self._features(text)
            rows.append(np.full(len(idx), row, dtype=np.int64))
            cols.append(idx)
            vals.append(val)
        n = len(texts)
        if n == 0:
            return np.zeros((0, self.dimension), dtype=np.float32)
        flat = np.concatenate(rows) * self.dimension + np.concatenate(cols)
        dense = np.bincount(flat, weights=np.concatenate(vals), minlength=n * self.dimension)
        return normalise_rows(dense.reshape(n, self.dimension))

    def _features(self, text: str) -> tuple[np.ndarray, np.ndarray]:
        tokens = words(text)
        content = [w for w in tokens if w not in STOP_WORDS] or tokens
        if not content:
            col, sign = self._pair(_EMPTY_FEATURE)
            return np.array([col], dtype=np.int64), np.array([sign], dtype=np.float64)
        idx_parts: list[np.ndarray] = []
        val_parts: list[np.ndarray] = []
        for word, count in Counter(content).items():
            idx, val = self._word(word)
            idx_parts.append(idx)
            val_parts.append(val * _sublinear(count))
        pairs = Counter(f"{a} {b}" for a, b in zip(content, content[1:]))
        if pairs:
            pair_cols = np.empty(len(pairs), dtype=np.int64)
            pair_vals = np.empty(len(pairs), dtype=np.float64)
            for i, (pair, count) in enumerate(pairs.items()):
                col, sign = self._pair(pair)
                pair_cols[i] = col
                pair_vals[i] = sign * PAIR_WEIGHT * _sublinear(count)
            idx_parts.append(pair_cols)
            val_parts.append(pair_vals)
        return np.concatenate(idx_parts), np.concatenate(val_parts)

    def _word(self, word: str) -> tuple[np.ndarray, np.ndarray]:
        """The word's own feature plus its n-gram block, cached because words repeat (Zipf)."""
        hit = self._word_cache.get(word)
        if hit is not None:
            return hit
        grams = char_ngrams(word)
        hashes = [feature_hash("w:" + word)] + [feature_hash("c:" + g) for g in grams]
        weights = [WORD_WEIGHT] + [NGRAM_WEIGHT / math.sqrt(max(1, len(grams)))] * len(grams)
        entry = self._hashes_to_arrays(hashes, weights)
        if len(self._word_cache) >= _CACHE_LIMIT:
            self._word_cache.clear()
        self._word_cache[word] = entry
        return entry

    def _pair(self, pair: str) -> tuple[int, float]:
        hit = self._pair_cache.get(pair)
        if hit is None:
            h = feature_hash("p:" + pair)
            hit = (h % self.dimension, 1.0 if h >> 63 else -1.0)
            if len(self._pair_cache) >= _CACHE_LIMIT:
                self._pair_cache.clear()
            self._pair_cache[pair] = hit
        return hit

    def _hashes_to_arrays(
        self, hashes: list[int], weights: list[float]
    ) -> tuple[np.ndarray, np.ndarray]:
        h = np.array(hashes, dtype=np.uint64)
        cols = (h % np.uint64(self.dimension)).astype(np.int64)
        signs = np.where(h >> np.uint64(63), 1.0, -1.0)
        return cols, signs * np.asarray(weights, dtype=np.float64)


def _sublinear(count: int) -> float:
    return 1.0 + math.log(count)
