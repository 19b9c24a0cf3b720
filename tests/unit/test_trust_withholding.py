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


@pytest.mark.parametrize("trust, sees_it", [("full", True), ("inner", False)])
def test_palace_get_and_a_timeline_anchored_on_a_withheld_item_say_not_found(shared_store, trust, sees_it):
    store, guard, coded, plain = shared_store
    store.run(c.AssignPalace(coded))
    for op, args in (("palace.get", {"id": coded}), ("timeline", {"anchor": coded})):
        if sees_it:
            assert _ask(store, guard, trust, op, args)
        else:
            with pytest.raises(NotFound):
                _ask(store, guard, trust, op, args)


def test_an_earlier_revision_that_held_a_refused_text_is_left_out_below_full_trust(shared_store):
    store, guard, _coded, plain = shared_store
    store.run(c.UpdateItem(plain, {"content": "launch code ZEBRA-9921"}))
    store.run(c.UpdateItem(plain, {"content": "launch steps: tag, build, ship"}))
    owner = [r["revision"] for r in _ask(store, guard, "full", "history", {"id": plain})["revisions"]]
    inner = [r["revision"] for r in _ask(store, guard, "inner", "history", {"id": plain})["revisions"]]
    assert len(owner) == 3 and inner == [owner[0], owner[2]]


def test_a_supersession_by_an_item_the_caller_cannot_see_is_not_named(tmp_path):
    store = Store(tmp_path / "sup.db", synchronous="OFF")
    try:
        private = store.run(c.CreateItem({"title": "private canonical", "content": "the real plan"}))["id"]
        shared = store.run(c.CreateItem({"title": "old shared", "content": "old plan", "store": "shared"}))["id"]
        store.run(c.SupersedeItem(shared, private))
        guard = RecallGuard(Policy())
        read = _ask(store, guard, "inner", "read", {"ids": [shared]})["items"][0]
        assert read["superseded_by"] is None and read["archived"]
        assert _ask(store, guard, "full", "read", {"ids": [shared]})["items"][0]["superseded_by"] == private
    finally:
        store.close()
