"""Checks shared by the tests that hold policy shapes: a text refused, by the rule written for
its shape (read with every rule evaluated, so an older rule firing first does not hide it), and
a look-alike accepted, with the rules that fired in the message when it is not."""

from __future__ import annotations

from typing import Callable

import pytest

from ragixd.domain.policy import Policy, PolicyConfig

policy = Policy()
every_rule = Policy(PolicyConfig(exhaustive=True))


def assert_refused_by(rule: str, text: str) -> None:
    assert policy.check_text(text).rejected, text
    assert rule in every_rule.check_text(text).rule_ids, text


def assert_accepted(text: str) -> None:
    verdict = policy.check_text(text)
    assert not verdict.rejected, (text, verdict.rule_ids)


def shape_tests(shapes: dict[str, list[str]], benign: list[str],
                repeated: list[str]) -> tuple[Callable[..., None], ...]:
    """The tests a file of shapes runs, to be bound to module-level names: every text of
    `shapes` refused by the rule it is listed under, every look-alike in `benign` accepted,
    and every `repeated` text (long repetitions of a rule's words) decided."""

    @pytest.mark.parametrize("rule,text", [(rule, t) for rule, texts in shapes.items() for t in texts])
    def test_shape_refused_by_its_rule(rule: str, text: str) -> None:
        assert_refused_by(rule, text)

    @pytest.mark.parametrize("text", benign)
    def test_look_alike_accepted(text: str) -> None:
        assert_accepted(text)

    @pytest.mark.parametrize("text", repeated)
    def test_repetitive_input_is_decided(text: str) -> None:
        assert policy.check_text(text).decision in ("accept", "reject", "quarantine")

    return test_shape_refused_by_its_rule, test_look_alike_accepted, test_repetitive_input_is_decided
