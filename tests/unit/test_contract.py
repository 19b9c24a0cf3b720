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
