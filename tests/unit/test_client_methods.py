"""The client library has one method per op of schemas/ops and no other op method, and the
argument a method takes positionally is one its op's request schema names."""

import inspect

from ragix_client import Client
from ragix_client.client import POSITIONAL
from ragixd import contract

TRANSPORT = {"call", "close", "subscribe", "follow"}


def test_one_client_method_per_op_schema_and_no_other():
    ops = {p.stem for p in (contract.SCHEMA_DIR / "ops").glob("*.json")}
    methods = {name for name, _ in inspect.getmembers(Client, inspect.isfunction)
               if not name.startswith("_") and name not in TRANSPORT}
    # a Python keyword takes a trailing underscore: c.import_(lines=…) can be written out
    assert methods == {op.replace(".", "_") + ("_" if op == "import" else "") for op in ops}
    assert hasattr(Client, "import_") and not hasattr(Client, "import")


def test_positional_arguments_are_request_fields_of_their_op():
    for op, field in POSITIONAL.items():
        schema = contract.validator(f"ops/{op}#request").schema
        assert field in schema["properties"], (op, field)


def test_search_and_recall_both_take_their_query_positionally():
    assert POSITIONAL["search"] == POSITIONAL["recall"] == "query"


def test_read_takes_its_ids_as_arguments_or_as_one_list():
    sent = []

    class Recording(Client):
        def call(self, op, args=None, timeout=None, keep_waiting=None):
            sent.append((op, args))
            return {}

    c = Recording("ipc:///nonexistent/r.sock")
    c.read("MEM-aaaaaaaaaaaaaaaa", "MEM-bbbbbbbbbbbbbbbb")
    c.read(["MEM-aaaaaaaaaaaaaaaa", "MEM-bbbbbbbbbbbbbbbb"])
    c.read(("MEM-aaaaaaaaaaaaaaaa",))
    assert sent == [("read", {"ids": ["MEM-aaaaaaaaaaaaaaaa", "MEM-bbbbbbbbbbbbbbbb"]})] * 2 + \
        [("read", {"ids": ["MEM-aaaaaaaaaaaaaaaa"]})]
