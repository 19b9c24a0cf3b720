"""Items built without the dataclass's __init__ (assemble, item_of_fields) are the items
__init__ would build: same fields, same order, same equality and hash, same errors."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragixd.domain.item import (ITEM_FIELD_ORDER, MemoryItem, Provenance, assemble,
                                build_item, item_from_dict, item_of_fields)

REQUIRED = {"id": "MEM-1", "title": "t", "content": "c", "created_at": "2026-01-01T00:00:00Z",
            "updated_at": "2026-01-02T00:00:00Z"}
optional = st.fixed_dictionaries({}, optional={
    "tier": st.sampled_from(["stm", "mtm", "ltm"]), "tags": st.lists(st.text(max_size=4)).map(tuple),
    "usage_count": st.integers(0, 10), "last_used_at": st.none() | st.just("2026-03-01T00:00:00Z"),
    "provenance": st.builds(Provenance, st.just("file"), st.text(max_size=6)),
    "archived": st.booleans(), "confidence": st.floats(0, 1),
})


@given(optional)
def test_assembled_item_is_the_initialised_one(extra):
    values = {**REQUIRED, **extra}
    built, expected = assemble(values), MemoryItem(**values)
    assert built == expected and hash(built) == hash(expected)
    assert list(built.__dict__) == list(expected.__dict__) == list(ITEM_FIELD_ORDER)
    assert item_of_fields(tuple(expected.__dict__.values())) == expected
    assert item_from_dict(expected.to_dict()) == expected


def test_assembled_item_stays_frozen():
    with pytest.raises(AttributeError):
        assemble(REQUIRED).title = "changed"  # type: ignore[misc]


@pytest.mark.parametrize("values", [
    {**REQUIRED, "colour": "red"},                              # unknown field
    {k: v for k, v in REQUIRED.items() if k != "content"},       # missing field
])
def test_bad_fields_raise_as_init_does(values):
    with pytest.raises(TypeError):
        assemble(values)


def test_wrong_field_count_raises_as_init_does():
    with pytest.raises(TypeError):
        item_of_fields(tuple(REQUIRED.values()) + ("stm",) * 30)


def test_create_fields_may_not_set_derived_ones():
    fields = {"title": "t", "content": "c", "content_hash": "sha256:0"}
    with pytest.raises(TypeError):
        build_item("MEM-2", fields, "2026-01-01T00:00:00Z")
