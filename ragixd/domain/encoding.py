"""Canonical msgpack encoding and the hashes built on it.

This encoding is a contract: every event hash in every log depends on it. Rules:
maps have str keys, written in ascending code-point order; tuples are written as arrays;
floats are always float64 and must be finite; integers fit in 64 bits; str is UTF-8 (raw
str type), bytes are the bin type. Nothing else is encodable. Changing any rule changes
every hash, so it is written down in docs/encoding.md and pinned by tests.
"""

from __future__ import annotations

import hashlib
import hmac
import math
from typing import Any

import msgpack

HASH_PREFIX = "sha256:"
GENESIS_HASH = HASH_PREFIX + "0" * 64


class EncodingError(ValueError):
    """A value cannot be put in canonical form."""


def _check_int(obj: int) -> int:
    if not -(2**63) <= obj < 2**64:
        raise EncodingError(f"integer out of 64-bit range: {obj}")
    return obj


def _check_float(obj: float) -> float:
    if not math.isfinite(obj):
        raise EncodingError("non-finite float")
    return obj


# Leaves that are already canonical: checked by exact type inline, without a call per value.
_LEAVES = frozenset({str, bytes, bool, type(None)})


def _canonical_list(obj: Any) -> list[Any]:
    leaves = _LEAVES
    return [v if type(v) in leaves else canonical(v) for v in obj]


def _canonical_map(obj: dict) -> dict[str, Any]:
    for key in obj:
        if type(key) is not str:
            raise EncodingError(f"map key is not a string: {key!r}")
    leaves = _LEAVES
    out = {}
    for key in sorted(obj):
        value = obj[key]
        out[key] = value if type(value) in leaves else canonical(value)
    return out


def _same(obj: Any) -> Any:
    return obj


# Exact-type dispatch keeps this hot path cheap; subclasses fall back to isinstance below.
_BY_TYPE = {
    str: _same, bytes: _same, bool: _same, type(None): _same, int: _check_int,
    float: _check_float, list: _canonical_list, tuple: _canonical_list, dict: _canonical_map,
}


def canonical(obj: Any) -> Any:
    """Return `obj` rebuilt with sorted maps and lists, refusing anything non-canonical."""
    handler = _BY_TYPE.get(type(obj))
    if handler is not None:
        return handler(obj)
    for kind in (bool, str, bytes, int, float, tuple, list, dict):
        if isinstance(obj, kind):
            return _BY_TYPE[kind](kind(obj) if kind in (str, bytes, int, float) else obj)
    raise EncodingError(f"type not encodable: {type(obj).__name__}")


def encode_canonical(obj: Any) -> tuple[Any, bytes]:
    """The canonical form of `obj` and its bytes."""
    form = canonical(obj)
    return form, msgpack.packb(form, use_bin_type=True, use_single_float=False)


def encode(obj: Any) -> bytes:
    """Canonical msgpack bytes for `obj`."""
    return msgpack.packb(canonical(obj), use_bin_type=True, use_single_float=False)


def decode(data: bytes) -> Any:
    """Inverse of encode (arrays come back as lists)."""
    return msgpack.unpackb(data, raw=False, strict_map_key=True, use_list=True)


def sha256_hex(data: bytes) -> str:
    return HASH_PREFIX + hashlib.sha256(data).hexdigest()


def _titled(title: str, content: str) -> bytes:
    """What an item's hashes read: title, a NUL, then content."""
    return title.encode("utf-8") + b"\x00" + content.encode("utf-8")


def content_hash(title: str, content: str) -> str:
    """The dedup and integrity hash of an item: title, a NUL, then content."""
    return sha256_hex(_titled(title, content))


REFUSAL_DIGEST_PREFIX = "hmac-sha256:"


def refusal_digest(key: bytes, title: str, content: str) -> str:
    """The fingerprint of a refused text, keyed by its store's audit key: the same text
    refused twice in one store has one fingerprint, but no guess can be checked against it
    without the key (a plain hash of "password: hunter2" could be)."""
    return REFUSAL_DIGEST_PREFIX + hmac.new(key, _titled(title, content), hashlib.sha256).hexdigest()


def event_hash(header: list[Any], payload: bytes) -> str:
    """Hash of one log entry: canonical header array followed by the payload bytes.

    The header is [seq, id, type, v, ts, actor, prev_hash]; being a self-delimiting msgpack
    array, its concatenation with the payload is unambiguous.
    """
    return sha256_hex(encode(header) + payload)
