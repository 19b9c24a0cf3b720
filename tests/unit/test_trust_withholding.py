"""Below full trust, an item the current policy would refuse (stored before a rule existed) is
withheld from reads, searches, timelines, history and exports, as recall withholds it from
every prompt; the owner still sees it, to correct or archive it."""

import pytest

from ragixd.domain import commands as c
from ragixd.domain.policy import Policy, PolicyConfig
from ragixd.domain.trust import Caller
from ragixd.errors import NotFound
from ragixd.ops import handlers, registry
from ragixd.retrieval.guard import RecallGuard
from ragixd.store.store import Store

RULE = {"id": "config.project_code", "kind": "secret", "pattern": r"\bZEBRA-\d{4}\b",
        "description": "an internal project code"}


@pytest.fixture
def shared_store(tmp_path):
    store = Store(tmp_path / "s.db", synchronous="OFF")  # written before the rule existed
    coded = store.run(c.CreateItem({"title": "Launch plan", "content": "ship ZEBRA-4411 on Monday",
                                    "store": "shared"}))["id"]
    plain = store.run(c.CreateItem({"title": "Launch checklist", "content": "launch steps: tag, build",
                                    "store": "shared"}))["id"]
    guard = RecallGuard(Policy(PolicyConfig(extra_rules=(RULE,))))
    yield store, guard, coded, plain
    store.close()


def _ask(store, guard, trust, op, args):
    q = handlers.QueryContext(store.reader(), Caller(trust, trust), {"recall_guard": guard, "policy": guard.policy})
    return registry.QUERIES[op](q, args)


@pytest.mark.parametrize("trust, sees_it", [("full", True), ("inner", False)])
def test_an_item_the_policy_now_refuses_is_withheld_below_full_trust(shared_store, trust, sees_it):
    store, guard, coded, plain = shared_store
    found = [h["id"] for h in _ask(store, guard, trust, "search", {"query": "launch", "mode": "fts"})["items"]]
    assert plain in found and (coded in found) is sees_it
    read = [i["id"] for i in _ask(store, guard, trust, "read", {"ids": [coded, plain]})["items"]]
    assert read == ([coded, plain] if sees_it else [plain])
    around = [i["id"] for i in _ask(store, guard, trust, "timeline", {"anchor": plain})["items"]]
    assert (coded in around) is sees_it
    exported = [ln["item"]["id"] for ln in _ask(store, guard, trust, "export", {})["lines"]]
    assert (coded in exported) is sees_it and plain in exported
    if sees_it:
        assert _ask(store, guard, trust, "history", {"id": coded})["revisions"]
    else:
        with pytest.raises(NotFound):
            _ask(store, guard, trust, "history", {"id": coded})
