"""The fast request check never lets through what the full JSON Schema validator refuses, on
every schema of the contract, and it does take the requests clients really send (else the
daemon would pay for the full validator on every request)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragixd import contract
from ragixd.quickcheck import compile_schema

SCHEMAS = Path(contract.SCHEMA_DIR)


def schema_names() -> list[str]:
    names = []
    for path in sorted(SCHEMAS.rglob("*.json")):
        rel = path.relative_to(SCHEMAS).with_suffix("").as_posix()
        doc = json.loads(path.read_text())
        parts = [p for p in ("request", "answer") if p in doc]
        names += [f"{rel}#{p}" for p in parts] or [rel]
    return names


def walk(schema, visit) -> None:
    """Call visit on every object inside a schema."""
    if isinstance(schema, dict):
        visit(schema)
        for value in schema.values():
            walk(value, visit)
    elif isinstance(schema, list):
        for value in schema:
            walk(value, visit)


def property_names(schema) -> list[str]:
    names: set[str] = set()
    walk(schema, lambda node: names.update(p for p in node.get("properties", {}) if isinstance(p, str)))
    return sorted(names)


def enum_values(schema) -> list:
    found: list = []
    walk(schema, lambda node: found.extend(v for v in node.get("enum", []) if not isinstance(v, (list, dict))))
    return found


def values(names: list[str], enums: list) -> st.SearchStrategy:
    """JSON-ish values aimed at the edges: bools beside ints, integral floats, NaN, huge
    integers, enum members, empty and long strings, nested lists and objects."""
    scalars = st.one_of(
        st.none(), st.booleans(), st.integers(-3, 12), st.integers(-2 ** 70, 2 ** 70),
        st.floats(allow_nan=True, allow_infinity=True), st.sampled_from([0.0, 1.0, 5.0, -1.0, 2.5]),
        st.text(max_size=8), st.sampled_from(["", "x" * 300, "stm", "ltm", "hybrid", "fts", "S2"]),
        *([st.sampled_from(enums)] if enums else []))
    keys = st.sampled_from(names + ["extra"]) if names else st.just("extra")
    return st.recursive(scalars, lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(keys, inner, max_size=4)), max_leaves=12)


@pytest.mark.parametrize("name", schema_names())
def test_quick_check_never_accepts_what_the_validator_refuses(name):
    schema = contract._schema(name)
    names = property_names(schema)
    quick = compile_schema(schema)
    full = contract.validator(name)
    keys = st.sampled_from(names) if names else st.just("extra")
    inner = values(names, enum_values(schema))
    instances = st.one_of(inner, st.dictionaries(keys, inner, max_size=6))

    @settings(max_examples=60, deadline=None)
    @given(instances)
    def check(instance):
        if quick(instance):
            assert full.is_valid(instance), (name, instance)

    check()


REAL_REQUESTS = [
    ("ops/write#request", {"title": "T", "content": "C", "tags": ["a", "b"], "tier": "stm", "dedup": False}),
    ("ops/search#request", {"query": "kafka retention", "k": 10, "mode": "hybrid", "tags": ["ops"]}),
    ("ops/search#request", {"query": "kafka", "k": 5, "mode": "fts", "min_seq": 12}),
    ("ops/read#request", {"ids": ["MEM-0123456789abcdef"]}),
    ("ops/recall#request", {"query": "kafka", "budget": 800, "mode": "inject"}),
    ("ops/timeline#request", {"anchor": "MEM-0123456789abcdef", "before": 3, "after": 3}),
    ("ops/tail#request", {"after": 10, "limit": 100}),
    ("ops/use#request", {"uses": {"MEM-0123456789abcdef": 2}}),
    ("envelope#request", {"v": 1, "id": 7, "op": "search", "args": {"query": "x"}}),
]


@pytest.mark.parametrize("name,instance", REAL_REQUESTS)
def test_real_requests_take_the_quick_path(name, instance):
    assert contract.validator(name).is_valid(instance)
    assert contract.quick(name)(instance)


def test_unsure_cases_fall_back_to_the_full_validator():
    quick = compile_schema({"type": "object", "properties": {"k": {"type": "integer", "minimum": 1}}})
    assert quick({"k": 3})
    assert not quick({"k": 3.0})           # valid, but left to the full check
    assert not quick({"k": True})          # a bool is no integer
    assert not quick({"k": math.nan})
    assert not compile_schema({"$ref": "other.json"})({})   # unknown keyword: never sure


def test_a_pattern_ending_in_dollar_refuses_a_final_newline_in_both_checks():
    shape = {"pattern": "^MEM-[0-9a-z]{4}$"}
    for schema, good, bad in (
            ({"type": "object", "properties": {"id": {"type": "string", **shape}}},
             {"id": "MEM-abcd"}, [{"id": "MEM-abcd\n"}, {"id": "MEM-abc"}]),
            ({"type": "object", "propertyNames": shape}, {"MEM-abcd": 1}, [{"MEM-abcd\n": 1}, {"x": 1}])):
        quick, full = compile_schema(schema), contract.StrictValidator(schema)
        assert quick(good) and full.is_valid(good)
        for instance in bad:
            assert not quick(instance) and not full.is_valid(instance)
