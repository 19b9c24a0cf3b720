"""Retrieval: embedding on the write path, the usearch vector projection, hybrid recall."""
