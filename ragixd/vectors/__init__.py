"""Vector indexes: one approximate nearest-neighbour index per embedding model."""

from ragixd.vectors.index import VectorIndex, exact_search

__all__ = ["VectorIndex", "exact_search"]
