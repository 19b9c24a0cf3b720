"""Proposals in LLM answers: delimiter blocks, tool calls, per-item errors, caps, and
robustness against any text or JSON (hypothesis)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragixd.domain.item import validate_create
from ragixd.domain.proposals import (
    MAX_PROPOSALS,
    Proposal,
    parse_answer,
    validate_proposal,
)
from ragixd.errors import InvalidInput

OPEN, CLOSE = "<MEMORY_PROPOSALS_JSON>", "</MEMORY_PROPOSALS_JSON>"


def prop(title="Use SQLite", **extra):
    return {"type": "decision", "title": title, "content": "We chose SQLite for the store.",
            "tags": ["db"], "why_store": "architecture", **extra}


def block(payload) -> str:
    return OPEN + (payload if isinstance(payload, str) else json.dumps(payload)) + CLOSE


def titles(result) -> list[str]:
    return [p.fields["title"] for p in result.proposals]


def test_a_block_is_parsed_and_stripped_from_the_answer():
    text = "The answer is 42.\n\n" + block([prop(provenance={"source_kind": "chat", "source_id": "t1"})])
    result = parse_answer(text)
    assert result.cleaned_text == "The answer is 42."
    assert result.errors == []
    [p] = result.proposals
    assert (p.source, p.index, p.item, p.why_store) == ("block", 0, 0, "architecture")
    assert p.fields == {"type": "decision", "title": "Use SQLite",
                        "content": "We chose SQLite for the store.", "tags": ["db"],
                        "provenance": {"source_kind": "chat", "source_id": "t1"}}
    assert validate_create(p.fields)["type"] == "decision"


def test_several_blocks_any_case_and_the_items_object_form():
    lower = f"<memory_proposals_json>{json.dumps(prop('three'))}</Memory_Proposals_Json>"
    text = f"A {block([prop('one')])} B\n{block({'items': [prop('two')]})}\nC " + lower
    result = parse_answer(text)
    assert titles(result) == ["one", "two", "three"]
    assert [p.index for p in result.proposals] == [0, 1, 2]
    assert result.cleaned_text == "A B\nC"


def test_an_unclosed_block_is_removed_to_the_end_and_reported():
    result = parse_answer("Answer.\n" + OPEN + '[{"title": "t", "content": "c"}]\nmore words')
    assert result.cleaned_text == "Answer."
    assert any("never closed" in e["error"] for e in result.errors)
    assert titles(result) == ["t"]  # the array before the trailing words still counts
    assert result.errors[1]["error"].startswith("malformed JSON at line 2 column 1")
    truncated = parse_answer("Answer. " + OPEN + json.dumps([prop("kept")]))
    assert titles(truncated) == ["kept"] and truncated.cleaned_text == "Answer."


def test_nested_tags_count_as_one_block_and_inner_tags_are_ignored():
    text = f"x {OPEN}{json.dumps([prop('a')])} {OPEN}{json.dumps([prop('b')])}{CLOSE}{CLOSE} y"
    result = parse_answer(text)
    assert titles(result) == ["a", "b"]
    assert result.cleaned_text == "x y"
    assert [e["error"] for e in result.errors] == ["nested opening tag inside a proposals block"]


def test_a_stray_closing_tag_is_removed_and_reported():
    result = parse_answer(f"left {CLOSE} right")
    assert result.cleaned_text == "left right"
    assert "without an opening tag" in result.errors[0]["error"]


def test_code_fences_around_the_json_are_ignored_and_line_numbers_kept():
    body = "\n```json\n" + json.dumps([prop()]) + "\n```\n"
    assert titles(parse_answer(block(body))) == ["Use SQLite"]
    bad = parse_answer(block("\n```json\n[\n  {\"title\": \"a\",\n   \"content\": oops}\n]\n```\n"))
    assert bad.errors == [{"source": "block", "index": 0,
                           "error": "malformed JSON at line 5 column 15: Expecting value"}]


def test_malformed_json_is_reported_and_other_blocks_still_processed():
    text = block("[{not json}]") + " middle " + block([prop("fine")]) + block("")
    result = parse_answer(text)
    assert titles(result) == ["fine"]
    assert result.cleaned_text == "middle"
    assert result.errors[0]["index"] == 0
    assert result.errors[0]["error"].startswith("malformed JSON at line 1")
    assert result.errors[1] == {"source": "block", "index": 2, "error": "empty proposals block"}


def test_tool_calls_in_both_shapes_and_other_tools_ignored():
    calls = [
        {"action": "memory.propose", "items": [prop("a")]},
        {"name": "memory.propose", "arguments": json.dumps({"items": [prop("b")]})},
        {"name": "memory.propose", "arguments": {"items": [prop("c")]}},
        {"type": "function",
         "function": {"name": "memory_propose", "arguments": json.dumps({"items": [prop("d")]})}},
        {"name": "web.search", "arguments": {"q": "x"}},
    ]
    result = parse_answer("plain answer", calls)
    assert titles(result) == ["a", "b", "c", "d"]
    assert [(p.source, p.index) for p in result.proposals] == [("tool", i) for i in range(4)]
    assert result.errors == [] and result.cleaned_text == "plain answer"


def test_tool_calls_in_anthropic_and_gemini_shapes():
    # Anthropic's tool_use blocks carry the arguments in `input`, Gemini's in functionCall.args:
    # both were "memory.propose call without items".
    calls = [
        {"type": "tool_use", "id": "toolu_1", "name": "memory.propose", "input": {"items": [prop("a")]}},
        {"functionCall": {"name": "memory_propose", "args": {"items": [prop("b")]}}},
        {"function_call": {"name": "memory.propose", "args": {"items": [prop("c")]}}},
        {"type": "tool_use", "name": "web.search", "input": {"q": "x"}},
    ]
    result = parse_answer("plain answer", calls)
    assert titles(result) == ["a", "b", "c"] and result.errors == []


def test_bad_tool_calls_are_reported_not_raised():
    calls = [{"name": "memory.propose", "arguments": "{broken"}, "not a call",
             {"action": "memory.propose"}, {"action": "memory.propose", "items": "x"}]
    result = parse_answer("", calls)
    assert result.proposals == []
    errors = [e["error"] for e in result.errors]
    assert errors[0].startswith("arguments: malformed JSON at line 1 column 2")
    assert errors[1:] == ["tool call must be an object, got str", "memory.propose call without items",
                          "'items' must be a list"]
    assert parse_answer("", "nonsense").errors[0]["error"] == "tool_calls must be a list, got str"


@pytest.mark.parametrize("item, field", [
    ({"why_store": "w"}, "content"),  # neither title nor content
    ({"title": 3, "content": "c"}, "title"),
    ({"title": "t", "content": ["c"]}, "content"),
    ({"title": "t", "content": "c", "tags": [1, 2]}, "tags"),
    ({"title": "t", "content": "c", "tags": {"a": 1}}, "tags"),
    ({"title": "t", "content": "c", "entities": "Alice"}, "entities"),
    ({"title": "t", "content": "c", "confidence": "high"}, "confidence"),
    ({"title": "t", "content": "c", "confidence": True}, "confidence"),
    ({"title": "t", "content": "c", "provenance": "turn_1"}, "provenance"),
    ({"title": "t", "content": "c", "provenance": {"chunk_ids": [[["deep"]]]}}, "provenance.chunk_ids"),
    ({"title": "t", "content": "c", "links": [{"rel": "supports", "to": 5}]}, "links.to"),
    ({"title": "t", "content": "c", "why_store": {"x": 1}}, "why_store"),
    ({"title": "t\ud800", "content": "c"}, "title"),
    ({"title": "t", "content": "c", "tags": ["ok", "bad\udfff"]}, "tags"),
    ("just a string", "item"),
])
def test_validate_proposal_names_the_bad_field(item, field):
    with pytest.raises(InvalidInput) as err:
        validate_proposal(item)
    assert err.value.field == field


@pytest.mark.parametrize("item", [{"content": "c"}, {"title": "t"}, {"title": "  ", "content": "c"},
                                  {"title": "t", "content": None}])
def test_a_proposal_may_leave_out_its_title_or_its_content_as_a_write_may(item):
    fields = validate_proposal(item).fields
    assert {fields["title"].strip(), fields["content"].strip()} - {""}


def test_per_item_errors_keep_the_valid_items_of_the_same_batch():
    batch = [prop("good1"), {"title": 7, "content": "c"}, "junk", prop("good2"), [[[]]], None]
    result = parse_answer(block(batch))
    assert titles(result) == ["good1", "good2"]
    assert [p.item for p in result.proposals] == [0, 3]
    assert [(e["item"], e["field"]) for e in result.errors] == \
        [(1, "title"), (2, "item"), (4, "item"), (5, "item")]


def test_lenient_normalisation_and_refused_keys():
    p = validate_proposal({"title": "t", "content": "c", "tags": "a, b,", "confidence": "0.8",
                           "provenance_hint": {"source_id": "turn_9", "turn": 3}, "store": "social",
                           "validation": "verified", "id": "MEM-xxxx", "importance": 5, "rule_id": None})
    assert p.fields == {"title": "t", "content": "c", "tags": ["a", "b"], "confidence": 0.8,
                        "provenance": {"source_id": "turn_9"}}
    assert set(p.ignored) == {"provenance.turn", "store", "validation", "id", "importance"}
    assert validate_create(p.fields)["provenance"].source_id == "turn_9"


def test_provenance_wins_over_provenance_hint():
    p = validate_proposal({"title": "t", "content": "c", "provenance": {"source_id": "a"},
                           "provenance_hint": {"source_id": "b"}})
    assert p.fields["provenance"] == {"source_id": "a"} and "provenance_hint" in p.ignored


def test_a_megabyte_of_content_passes_the_shape_check_and_fails_validate_create():
    big = "x" * 1_000_000
    result = parse_answer(block([prop(content=big), prop("small")]))
    assert titles(result) == ["Use SQLite", "small"]
    with pytest.raises(InvalidInput) as err:
        validate_create(result.proposals[0].fields)
    assert err.value.field == "content"


def test_invalid_surrogates_from_json_escapes_are_per_item_errors():
    raw = '[{"title": "bad \\ud800", "content": "c"}, {"title": "ok", "content": "c"}]'
    result = parse_answer(block(raw))
    assert titles(result) == ["ok"]
    assert result.errors[0]["field"] == "title" and "surrogate" in result.errors[0]["error"]


def test_at_most_100_proposals_per_answer():
    calls = [{"action": "memory.propose", "items": [prop(f"t{i}") for i in range(60)]}]
    result = parse_answer(block([prop(f"b{i}") for i in range(60)]), calls)
    assert len(result.proposals) == MAX_PROPOSALS
    assert result.proposals[-1].fields["title"] == "b39"
    [err] = result.errors
    assert (err["source"], err["item"]) == ("block", 40) and "20 items dropped" in err["error"]


def test_errors_are_capped_too():
    result = parse_answer(CLOSE * 1000)
    assert result.cleaned_text == ""
    assert len(result.errors) == 201 and result.errors[-1]["error"] == "800 further errors not shown"


def test_deep_nesting_and_huge_numbers_are_reported():
    deep = parse_answer(block("[" * 100_000 + "]" * 100_000))
    assert deep.proposals == [] and "nested too deeply" in deep.errors[0]["error"]
    huge = parse_answer(block('[{"title": "t", "content": "c", "confidence": ' + "9" * 5000 + "}]"))
    assert huge.proposals == [] and huge.errors[0]["error"].startswith("malformed JSON")


def test_non_string_answer_is_reported():
    result = parse_answer(None)
    assert result.cleaned_text == "" and result.errors[0]["source"] == "block"


def test_answers_without_blocks_are_returned_unchanged():
    text = "  An answer\n\n\nwith   spacing.  "
    assert parse_answer(text).cleaned_text == text


def test_validate_proposal_is_a_proposal_with_direct_source():
    p = validate_proposal(prop())
    assert isinstance(p, Proposal) and p.source == "direct" and p.why_store == "architecture"


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(
        st.sampled_from(["title", "content", "tags", "type", "items", "provenance", "confidence",
                         "entities", "links", "why_store", "x"]), inner, max_size=6),
    max_leaves=30,
)
fragments = st.one_of(st.text(max_size=30), json_values.map(json.dumps),
                      st.sampled_from([OPEN, CLOSE, OPEN.lower(), "```", "\n", "["]))


@given(st.lists(fragments, max_size=12).map("".join), st.lists(json_values, max_size=3))
def test_any_text_and_any_tool_calls_never_raise(text, raw_calls):
    calls = [{"action": "memory.propose", "items": v} if i % 2 else
             {"name": "memory.propose", "arguments": json.dumps(v)} for i, v in enumerate(raw_calls)]
    result = parse_answer(text, calls)
    assert OPEN.lower() not in result.cleaned_text.lower()
    assert CLOSE.lower() not in result.cleaned_text.lower()
    assert len(result.proposals) <= MAX_PROPOSALS
    for p in result.proposals:
        # either may be empty, as in a write (the create command refuses both blank)
        assert isinstance(p.fields["title"], str) and isinstance(p.fields["content"], str)
    for e in result.errors:
        assert e["source"] in ("block", "tool", "answer") and isinstance(e["error"], str)


def _expected_outcomes(value) -> int:
    """How many proposals plus errors one JSON value should yield: one per item, else one."""
    if isinstance(value, dict) and isinstance(value.get("items"), list):
        value = value["items"]
    return len(value) if isinstance(value, list) else 1


@given(json_values)
def test_any_json_value_as_a_block_yields_one_outcome_per_item(value):
    result = parse_answer(block(json.dumps(value)))
    assert result.cleaned_text == ""
    assert len(result.proposals) + len(result.errors) == _expected_outcomes(value)
