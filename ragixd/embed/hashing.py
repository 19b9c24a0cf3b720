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
from functools import lru_cache
from hashlib import blake2b
from itertools import pairwise

import numpy as np

from ragixd.embed.protocol import normalise_rows
from ragixd.embed.text import STOP_WORDS, char_ngrams, words

FEATURE_VERSION = 2  # 2: words of every script (1 read [a-z0-9] only)
DEFAULT_DIMENSION = 384

# Relative weights of the feature families; NGRAM_WEIGHT is the norm of one word's n-gram block,
# so long words do not outweigh short ones. Pairs stay light: at 384 buckets they mostly collide.
WORD_WEIGHT = 1.0
PAIR_WEIGHT = 0.25
NGRAM_WEIGHT = 2.0

MODEL_PREFIX = "hash-v"  # every hash model's name: hash-v<FEATURE_VERSION>-<dimension>

_CACHE_LIMIT = 50_000  # entries per cache; bounds memory to tens of MB
_EMPTY_FEATURE = "\x00empty"


def stable_hash(feature: str) -> int:
    """A stable 64-bit hash of one feature string."""
    return int.from_bytes(blake2b(feature.encode("utf-8"), digest_size=8).digest(), "little")


# n-grams recur across words far more than words recur
feature_hash = lru_cache(maxsize=1 << 17)(stable_hash)


MAX_DIMENSION = 4096  # as wide as the largest learned models'


def is_hash_model(model: str) -> bool:
    """Whether vectors stored under this model name are the hash embedder's (any version).
    Their queries set few dimensions, so large indexes of them are scanned by column rather
    than searched in an HNSW graph (vectors/scan.py)."""
    return model.startswith(MODEL_PREFIX)


class HashEmbedder:
    """Deterministic hashed bag of words, word pairs and character n-grams."""

    # Below this cosine a neighbour shares no word with the query, only stray n-gram and bucket
    # collisions: strings of made-up words reach 0.09-0.19 against real text (5th-95th
    # percentile), a question 0.36-0.69 against its best neighbour. Search drops such
    # neighbours instead of presenting the nearest of nothing as a hit.
    min_similarity = 0.2
    # Its weight in hybrid fusion: its neighbours are mostly the full-text hits again, plus
    # typo- and inflection-tolerant ones; a learned model's count for more (hybrid.py).
    fusion_weight = 0.5

    def __init__(self, dimension: int = DEFAULT_DIMENSION) -> None:
        # Checked here, not at the first write: the hash embedder runs inline in every write
        # and query, so a dimension it cannot use would fail them all (a 10^11 one allocated
        # hundreds of gigabytes per text).
        if isinstance(dimension, bool) or not isinstance(dimension, int) or not 8 <= dimension <= MAX_DIMENSION:
            raise ValueError(f"dimension must be a whole number from 8 to {MAX_DIMENSION}, not {dimension!r}")
        self.dimension = dimension
        self.model_name = f"{MODEL_PREFIX}{FEATURE_VERSION}-{dimension}"
        self._word_cache: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        self._pair_cache: dict[str, tuple[int, float]] = {}

    def embed_batch(self, texts: list[str]) -> np.ndarray:
        n = len(texts)
        if n == 0:
            return np.zeros((0, self.dimension), dtype=np.float32)
        if n == 1:  # the write path and every query: one text, no row bookkeeping
            return normalise_rows(self._dense(texts[0]).reshape(1, self.dimension))
        batch = _Batch()
        for row, text in enumerate(texts):
            self._collect(row, text, batch)
        # One scatter-add for the whole batch: numpy per text would cost more than the hashing.
        lengths = [len(c) for c in batch.word_cols]
        rows = np.concatenate([np.repeat(batch.word_rows, lengths), batch.pair_rows])
        cols = np.concatenate([*batch.word_cols, np.asarray(batch.pair_cols, dtype=np.int64)])
        word_vals = np.concatenate([*batch.word_vals, np.empty(0)]) * np.repeat(
            batch.word_scale, lengths
        )
        vals = np.concatenate([word_vals, batch.pair_vals])
        flat = rows.astype(np.int64) * self.dimension + cols
        dense = np.bincount(flat, weights=vals, minlength=n * self.dimension)
        return normalise_rows(dense.reshape(n, self.dimension))

    @staticmethod
    def is_blank(text: str) -> bool:
        """Whether `text` has no word to embed (punctuation, emoji, '*'): its vector is the
        same for every such text, so it says nothing about similarity."""
        return not words(text)

    def _dense(self, text: str) -> np.ndarray:
        """One text's unnormalised vector: the same features, in the same order, summed the
        same way as a batch row (so a text embeds to the same bits alone or in a batch)."""
        word_cols, word_vals, scales, pair_cols, pair_vals = self._features(text)
        cols = [*word_cols, np.asarray(pair_cols, dtype=np.int64)]
        vals = [v if scale == 1.0 else v * scale for v, scale in zip(word_vals, scales)]
        vals.append(np.asarray(pair_vals, dtype=np.float64))
        return np.bincount(np.concatenate(cols), weights=np.concatenate(vals), minlength=self.dimension)

    def _collect(self, row: int, text: str, batch: _Batch) -> None:
        """Append the features of one text to the batch."""
        word_cols, word_vals, scales, pair_cols, pair_vals = self._features(text)
        batch.word_rows.extend([row] * len(word_cols))
        batch.word_cols.extend(word_cols)
        batch.word_vals.extend(word_vals)
        batch.word_scale.extend(scales)
        for col, value in zip(pair_cols, pair_vals):
            batch.add_pair(row, col, value)

    def _features(self, text: str) -> tuple[list[np.ndarray], list[np.ndarray], list[float], list[int], list[float]]:
        """A text's features in order: each distinct word's columns, values and count scale,
        then each distinct word pair's column and signed value (one feature for an empty text)."""
        tokens = words(text)
        content = [w for w in tokens if w not in STOP_WORDS] or tokens
        if not content:
            col, sign = self._pair(_EMPTY_FEATURE)
            return [], [], [], [col], [sign]
        # Comprehensions over the caches first (most words hit, most pairs miss): the same
        # features in the same order as a loop per feature, for less interpreter time.
        counts = Counter(content)
        word_cache, word = self._word_cache, self._word
        entries = [word_cache.get(token) or word(token) for token in counts]
        word_cols = [cols for cols, _ in entries]
        word_vals = [vals for _, vals in entries]
        scales = [_sublinear(count) for count in counts.values()]
        pairs = Counter(map(" ".join, pairwise(content)))
        pair_cache, pair = self._pair_cache, self._pair
        hits = [pair_cache.get(text_pair) or pair(text_pair) for text_pair in pairs]
        pair_cols = [col for col, _ in hits]
        pair_vals = [sign * PAIR_WEIGHT * _sublinear(count) for (_, sign), count in zip(hits, pairs.values())]
        return word_cols, word_vals, scales, pair_cols, pair_vals

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
            # Not through feature_hash's LRU: pairs rarely repeat across texts, and this cache
            # already holds those that do.
            h = stable_hash("p:" + pair)
            hit = (h % self.dimension, 1.0 if h >> 63 else -1.0)
            if len(self._pair_cache) >= _CACHE_LIMIT:
                self._pair_cache.clear()
            self._pair_cache[pair] = hit
        return hit

    def _hashes_to_arrays(
        self, hashes: list[int], weights: list[float]
    ) -> tuple[np.ndarray, np.ndarray]:
        # Plain Python on a dozen values, then one array each: cheaper than numpy ops on tiny
        # arrays (this runs for every word not seen before, on the write path).
        dim = self.dimension
        cols = np.array([h % dim for h in hashes], dtype=np.int64)
        vals = np.array([w if h >> 63 else -w for h, w in zip(hashes, weights)], dtype=np.float64)
        return cols, vals


def _sublinear(count: int) -> float:
    return 1.0 if count == 1 else 1.0 + math.log(count)


class _Batch:
    """Feature lists of one embed_batch call, turned into arrays once at the end."""

    def __init__(self) -> None:
        self.word_rows: list[int] = []
        self.word_cols: list[np.ndarray] = []
        self.word_vals: list[np.ndarray] = []
        self.word_scale: list[float] = []
        self.pair_rows: list[int] = []
        self.pair_cols: list[int] = []
        self.pair_vals: list[float] = []

    def add_pair(self, row: int, col: int, value: float) -> None:
        self.pair_rows.append(row)
        self.pair_cols.append(col)
        self.pair_vals.append(value)
