"""The default policy on both of its paths (the native prefilter and the pure-Python gates),
with first-verdict and every-rule variants, and the two checks the policy tests make with them:
a text refused by a named rule, and a text accepted, whichever path reads it."""

from __future__ import annotations

import threading

from ragixd.domain.policy import Policy, PolicyConfig
from ragixd.domain.policy.scan import RuleIndex


def pure(policy: Policy) -> Policy:
    """The policy on the pure-Python gates, as without hyperscan."""
    policy._index = RuleIndex(policy.rules, native=False)
    return policy


FAST, PURE = Policy(), pure(Policy())
# Every rule evaluated: a new rule must fire even where an older one decides first.
EVERY, EVERY_PURE = Policy(PolicyConfig(exhaustive=True)), pure(Policy(PolicyConfig(exhaustive=True)))


def refused_by(text: str, rule: str) -> None:
    for policy in (FAST, PURE):
        assert policy.check_text(text).rejected, (policy is PURE, text)
    for policy in (EVERY, EVERY_PURE):
        assert rule in policy.check_text(text).rule_ids, (policy is EVERY_PURE, text)


def accepted(text: str) -> None:
    for policy in (FAST, PURE):
        verdict = policy.check_text(text)
        assert verdict.accepted, (policy is PURE, verdict.rule_ids, text)


def checked_within_a_hang_guard(text: str) -> str:
    """The default policy's decision on `text`, failing if it has not come within 300 s: a guard
    against a scan that never ends (quadratic on a repeated trigger), not a speed figure."""
    box: list[str] = []
    worker = threading.Thread(target=lambda: box.append(FAST.check_text(text).decision), daemon=True)
    worker.start()
    worker.join(300)
    assert box, f"checking {text[:20]!r}… ({len(text)} characters) did not finish"
    return box[0]
