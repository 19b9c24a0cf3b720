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


def test_a_header_never_joins_what_a_hidden_character_or_a_bar_split_into_a_secret():
    """Rendering a tag or a source id drops format characters and turns bars into a separator:
    neither may join the pieces of a key back into a whole one in the prompt."""
    from ragixd.domain.item import build_item, validate_create
    from ragixd.retrieval.recall import inject_block

    token = "ghp_R8x2Kq9ZtLm4Vb7NcW1pYd6Hs3Jf0Ge5Ua2T"
    aws = "wJalrXUtnFEMIK7MDENGbPxRfiCYzq8R4mWkT"
    fields = validate_create({"title": "t", "content": "c",
                              "tags": [f"aws_secret_access_key={aws[:13]}|{aws[13:20]}\uff5c{aws[20:]}"],
                              "provenance": {"source_kind": "doc", "source_id": token[:12] + "\U000e0040" + token[12:]}})
    item = build_item("MEM-00000000000000c1", fields, "2026-01-01T00:00:00.000000Z")
    block = inject_block(item)
    assert token not in block and token.lower() not in block
    assert all(joined not in block.lower() for joined in (
        f"{aws[:13]}/{aws[13:20]}/{aws[20:]}".lower(), aws.lower()))


def test_the_guard_reads_the_header_as_rendered():
    """A tag and a source id that pass apart can make a secret side by side in the header
    (`tags=… | provenance=…`): the guard reads that line as recall writes it."""
    from ragixd.domain.item import build_item, validate_create

    fields = validate_create({"title": "t", "content": "c", "tags": ["ZEBRA"],
                              "provenance": {"source_kind": "doc", "source_id": "4411"}})
    item = build_item("MEM-00000000000000c2", fields, "2026-01-01T00:00:00.000000Z")
    joined = {"id": "config.joined", "kind": "secret", "pattern": r"zebra \| provenance=doc:4411",
              "description": "a code said across the header's fields"}
    assert not RecallGuard(Policy(PolicyConfig(extra_rules=(joined,)))).admits(item)
    assert RecallGuard(Policy()).admits(item)
