"""Canonical msgpack encoding and the hashes built on it.

This encoding is a contract: every event hash in every log depends on it. Rules:
maps have str keys, written in ascending code-point order; tuples are written as arrays;
floats are always float64 and must be finite; integers fit in 64 bits; str is UTF-8 (raw
str type), bytes are the bin type. Nothing else is encodable. Changing any rule changes
every hash, so it is written down in docs/encoding.md and pinned by tests.
"""

from __future__ import annotations

import hashlib
import math
from typing import Any

import msgpack

HASH_PREFIX = "sha256:"
GENESIS_HASH = HASH_PREFIX + "0" * 64


class EncodingError(ValueError):
    """A value cannot be put in canonical form."""


def canonical(obj: Any) -> Any:
    """Return `obj` rebuilt with sorted maps and lists, refusing anything non-canonical."""
    if obj is None or isinstance(obj, (bool, str, bytes)):
        return obj
    if isinstance(obj, int):
        if not -(2**63) <= obj < 2**64:
            raise EncodingError(f"integer out of 64-bit range: {obj}")
        return obj
    if isinstance(obj, float):
        if not math.isfinite(obj):
            raise EncodingError("non-finite float")
        return obj
    if isinstance(obj, (list, tuple)):
        return [canonical(v) for v in obj]
    if isinstance(obj, dict):
        for key in obj:
            if not isinstance(key, str):
                raise EncodingError(f"map key is not a string: {key!r}")
        return {k: canonical(obj[k]) for k in sorted(obj)}
    raise EncodingError(f"type not encodable: {type(obj).__name__}")


def encode(obj: Any) -> bytes:
    """Canonical msgpack bytes for `obj`."""
    return msgpack.packb(canonical(obj), use_bin_type=True, use_single_float=False)


def decode(data: bytes) -> Any:
    """Inverse of encode (arrays come back as lists)."""
    return msgpack.unpackb(data, raw=False, strict_map_key=True, use_list=True)


def sha256_hex(data: bytes) -> str:
    return HASH_PREFIX + hashlib.sha256(data).hexdigest()


def content_hash(title: str, content: str) -> str:
    """The dedup and integrity hash of an item: title, a NUL, then content."""
    return sha256_hex(title.encode("utf-8") + b"\x00" + content.encode("utf-8"))


def event_hash(header: list[Any], payload: bytes) -> str:
    """Hash of one log entry: canonical header array followed by the payload bytes.

    The header is [seq, id, type, v, ts, actor, prev_hash]; being a self-delimiting msgpack
    array, its concatenation with the payload is unambiguous.
    """
    return sha256_hex(encode(header) + payload)
