"""Checks shared by the tests that hold policy shapes: a text refused, by the rule written for
its shape (read with every rule evaluated, so an older rule firing first does not hide it), and
a look-alike accepted, with the rules that fired in the message when it is not."""

from __future__ import annotations

from ragixd.domain.policy import Policy, PolicyConfig

policy = Policy()
every_rule = Policy(PolicyConfig(exhaustive=True))


def assert_refused_by(rule: str, text: str) -> None:
    assert policy.check_text(text).rejected, text
    assert rule in every_rule.check_text(text).rule_ids, text


def assert_accepted(text: str) -> None:
    verdict = policy.check_text(text)
    assert not verdict.rejected, (text, verdict.rule_ids)
