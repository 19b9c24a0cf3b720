"""The write policy: what may enter memory, what is quarantined, what is refused.

Pure domain code (standard library only, no I/O). Public interface:

    policy = Policy(PolicyConfig())
    policy.check_text(text)              # secret + injection rules only
    policy.evaluate(fields, trusted=False)  # every rule on a proposal / item dict
"""

from __future__ import annotations

from .engine import ACCEPT, QUARANTINE, REJECT, Policy, PolicyConfig, Verdict
from .normalize import normalize, prose_view
from .rules import HARD, INJECTION, SECRET, SOFT, Rule, RuleHit, rule_from_dict

__all__ = [
    "ACCEPT", "HARD", "INJECTION", "Policy", "PolicyConfig", "QUARANTINE", "REJECT", "Rule",
    "RuleHit", "SECRET", "SOFT", "Verdict", "normalize", "prose_view", "rule_from_dict",
]
