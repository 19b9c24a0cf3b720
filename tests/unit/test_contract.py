"""The contract cannot drift: every op has a schema and a handler, every event type a schema,
and the README documents every ragixctl command."""

from pathlib import Path

from ragixd import contract
from ragixd.domain.events import CURRENT_VERSIONS
from ragixd.ops import registry as handlers
from ragixd.ops.catalog import ADMIN, CATALOG

ROOT = Path(__file__).resolve().parents[2]


def test_every_op_has_schemas_and_exactly_one_handler():
    admin = {"status", "verify", "rebuild"}
    for spec in CATALOG:
        assert contract.schema_exists(f"ops/{spec.name}"), spec.name
        contract.validator(f"ops/{spec.name}#request")
        contract.validator(f"ops/{spec.name}#answer")
        owners = [spec.name in handlers.PLANS, spec.name in handlers.QUERIES, spec.kind == ADMIN]
        assert sum(owners) == 1, spec.name
        if spec.kind == ADMIN:
            assert spec.name in admin


def test_every_event_type_has_a_schema():
    for event_type, version in CURRENT_VERSIONS.items():
        schema = contract.validator(f"events/{event_type}").schema
        assert schema["properties"]["v"]["const"] == version


def test_readme_documents_every_command():
    from ragix_client.ctl_parser import build_parser
    readme = (ROOT / "README.md").read_text()
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    for name in sub.choices:
        assert f"ragixctl {name}" in readme or f"`{name}" in readme, name
    assert "make run" in readme and "make test" in readme


def test_the_daemon_serves_exactly_the_catalogs_ops():
    served = set(handlers.PLANS) | set(handlers.QUERIES) | {s.name for s in CATALOG if s.kind == ADMIN}
    assert served == {spec.name for spec in CATALOG}


def test_every_schema_file_is_an_op_or_an_event_type():
    ops = {p.stem for p in (contract.SCHEMA_DIR / "ops").glob("*.json")}
    events = {p.stem for p in (contract.SCHEMA_DIR / "events").glob("*.json")}
    assert ops == {spec.name for spec in CATALOG}
    assert events == set(CURRENT_VERSIONS)


def test_the_answer_envelope_names_exactly_the_error_codes_and_the_readme_each():
    from ragixd.errors import all_error_classes
    codes = {cls.code for cls in all_error_classes()}
    assert len(codes) == len(all_error_classes())  # one class per code: the client raises it again
    schema = contract.validator("envelope#answer").schema
    error = next(part for part in schema["oneOf"] if "error" in part["properties"])["properties"]["error"]
    assert set(error["properties"]["code"]["enum"]) == codes
    readme = (ROOT / "README.md").read_text()
    for code in codes:
        assert f"`{code}`" in readme, code


def test_tail_answers_hold_events_of_every_type_checked_by_their_own_schema():
    items = contract.validator("ops/tail#answer").schema["properties"]["events"]["items"]["oneOf"]
    assert {ref["$ref"] for ref in items} == {f"../events/{t}.json" for t in CURRENT_VERSIONS}


def test_a_final_dollar_in_a_schema_pattern_ends_the_string_as_in_json_schema():
    # Python's `$` also matches before a final newline; JSON Schema's (ECMA-262) does not.
    from ragixd.domain.ids import is_item_id
    for name, args in (("ops/history#request", {"id": "MEM-abcd\n"}),
                       ("ops/read#request", {"ids": ["MEM-abcd\n"]}),
                       ("ops/use#request", {"uses": {"MEM-abcd\n": 1}})):
        assert not contract.quick(name)(args)
        assert "is not an item id" in contract.first_error(name, args)
    assert contract.first_error("ops/history#request", {"id": "MEM-abcd"}) is None
    assert not is_item_id("MEM-abcd\n") and is_item_id("MEM-abcd")


def test_every_id_pattern_in_the_schemas_is_the_domains():
    from ragixd.domain.ids import ITEM_ID_RE
    from ragixd.quickcheck import python_pattern
    text = "\n".join(p.read_text() for p in (ROOT / "schemas").rglob("*.json"))
    assert text.count('"^MEM-') == text.count(f'"{contract.ITEM_ID_PATTERN}"') + text.count('"^MEM-"')
    assert python_pattern(contract.ITEM_ID_PATTERN) == ITEM_ID_RE.pattern


def test_a_value_refused_by_the_schema_is_not_repeated_back():
    """Schema errors say a value as errors.shown does: a key pasted into the wrong field (or
    used as a field name) is not echoed into error text, logs and terminals."""
    import pytest

    from ragixd.contract import check
    from ragixd.errors import InvalidInput

    key = "sk_live_4eC39HqLyjWDarjtT1zdp7dc"
    cases = [("ops/write#request", {"title": "t", "content": "x", "store": key}),
             ("ops/export#request", {"tier": key}),
             ("ops/read#request", {"ids": [key]}),
             ("ops/history#request", {"id": key}),
             ("ops/search#request", {"query": "x", "k": key}),
             ("ops/write#request", {"title": "t", "content": "x", key: 1})]
    for name, request in cases:
        with pytest.raises(InvalidInput) as err:
            check(name, request)
        assert "4eC39" not in err.value.message and "4eC39" not in str(err.value.details), (name, err.value.message)
    with pytest.raises(InvalidInput) as err:  # an id mistyped is still said whole
        check("ops/history#request", {"id": "MEM-ab cd"})
    assert "'MEM-ab cd'" in err.value.message
    with pytest.raises(InvalidInput) as err:
        check("ops/export#request", {"tier": "S9"})
    assert "S3, S2, S0" in err.value.message


def test_filters_and_numbers_refused_by_the_schema_are_not_repeated_back():
    import pytest

    from ragixd.contract import check
    from ragixd.errors import InvalidInput

    key = "sk-live-4f9d8a7b6c5d4e3f"
    for request in ({"query": "x", "tier": {"k": key}}, {"query": "x", "tags": [key, {"a": 1}]},
                    {"query": "x", "k": 123456789012345678901234567890}):
        with pytest.raises(InvalidInput) as err:
            check("ops/search#request", request)
        assert "4f9d8a7b" not in err.value.message and "1234567890123" not in err.value.message
