"""ragix_client: a thin client for ragixd (pyzmq + msgpack only)."""

from .client import Client

__all__ = ["Client"]
