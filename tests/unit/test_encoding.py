import math

import pytest

from ragixd.domain import encoding


def test_maps_are_written_in_key_order():
    assert encoding.encode({"b": 1, "a": 2}) == encoding.encode({"a": 2, "b": 1})
    # fixmap of 2, "a", 2, "b", 1
    assert encoding.encode({"b": 1, "a": 2}) == bytes([0x82, 0xA1, 0x61, 0x02, 0xA1, 0x62, 0x01])


def test_floats_are_always_float64_and_bytes_are_bin():
    assert encoding.encode(1.5)[0] == 0xCB
    assert encoding.encode(b"\x00\x01")[0] == 0xC4
    assert encoding.encode("x")[0] == 0xA1


def test_tuples_encode_as_lists():
    assert encoding.encode((1, 2)) == encoding.encode([1, 2])


@pytest.mark.parametrize("bad", [{1: "x"}, math.nan, math.inf, 2**64, {"a": {1, 2}}, object()])
def test_non_canonical_values_are_refused(bad):
    with pytest.raises(encoding.EncodingError):
        encoding.encode(bad)


def test_pinned_hashes_do_not_drift():
    # Changing the encoding changes every hash in every log: these values are a contract.
    assert encoding.content_hash("t", "c") == (
        "sha256:" + __import__("hashlib").sha256(b"t\x00c").hexdigest())
    header = [1, "EVT-0000000000000000", "item.created", 1, "2026-01-01T00:00:00.000000Z", "local",
              encoding.GENESIS_HASH]
    assert encoding.event_hash(header, encoding.encode({"a": 1})) == (
        "sha256:dcfb8635998cac1cbb3c4984f10853223af26a6bf6f2f9dd10f573a1ea8adea0")
