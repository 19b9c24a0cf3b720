"""Recall renders only what the current write policy accepts: a memory stored before a rule
existed is withheld from the prompt and named, once per revision checked."""

from ragixd.domain import commands as c
from ragixd.domain.policy import Policy, PolicyConfig
from ragixd.retrieval.guard import RecallGuard
from ragixd.retrieval.hybrid import Hit
from ragixd.retrieval.recall import recall

PROJECT_CODE = {"id": "config.project_code", "kind": "secret", "pattern": r"\bZEBRA-\d{4}\b",
                "description": "an internal project code"}
STRICTER = PolicyConfig(extra_rules=(PROJECT_CODE,))


def stored(store, title, content, **extra):
    return store.get(store.run(c.CreateItem({"title": title, "content": content, **extra}))["id"])


class Counting(Policy):
    def __init__(self, config=None):
        super().__init__(config)
        self.calls = 0

    def evaluate(self, fields, trusted=False):
        self.calls += 1
        return super().evaluate(fields, trusted)


def test_an_item_the_policy_now_refuses_is_withheld_and_the_rest_rendered(store):
    coded = stored(store, "Launch plan", "ship ZEBRA-4411 on Monday")  # accepted when written
    plain = stored(store, "Launch checklist", "tag, build, canary")
    hits = [Hit(coded, 0.9), Hit(plain, 0.8)]
    out = recall(hits, "hybrid", 2000, 10, admits=RecallGuard(Policy(STRICTER)).admits)
    assert out["withheld"] == [coded.id]
    assert out["injected"] == [plain.id] and "ZEBRA" not in out["text"] + out["catalog_text"]
    assert [e["id"] for e in out["catalog"]] == [plain.id]
    same = recall(hits, "inject", 2000, 10, admits=RecallGuard(Policy()).admits)
    assert same["withheld"] == [] and same["injected"] == [coded.id, plain.id]


def test_a_structure_rule_is_no_reason_to_withhold(store):
    long = stored(store, "Long note", "word " * 200)
    guard = RecallGuard(Policy(PolicyConfig(max_content_length=50)))  # the item is now over it
    assert guard.admits(long)


def test_each_revision_is_checked_once(store):
    item = stored(store, "Launch plan", "ship on Monday")
    policy = Counting(STRICTER)
    guard = RecallGuard(policy)
    assert guard.admits(item) and guard.admits(item) and policy.calls == 1
    store.run(c.UpdateItem(item.id, {"content": "ship ZEBRA-4411 on Monday"}))  # accepted: the store has no such rule
    updated = store.get(item.id)
    assert updated.updated_at != item.updated_at
    assert not guard.admits(updated) and policy.calls == 2


def test_blocks_are_counted_as_the_text_they_make_together(store):
    from ragixd.retrieval.recall import count_tokens, inject, inject_block
    items = [stored(store, f"Budget note {n}", f"quarterly budget line {n} " + "x" * (n * 7)) for n in range(1, 5)]
    hits = [Hit(item, 1.0 - n / 10) for n, item in enumerate(items)]
    blocks = [inject_block(item) for item in items]
    for upto in range(1, 5):
        exact = count_tokens("\n".join(blocks[:upto]))  # the budget the first `upto` blocks need
        text, ids, tokens = inject(hits, exact)
        assert ids == [i.id for i in items[:upto]] and tokens == count_tokens(text) == exact
        assert inject(hits, exact - 1)[1] != ids  # one token less: the last one no longer fits
