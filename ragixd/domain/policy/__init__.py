"""The write policy: what may enter memory, what is quarantined, what is refused.

Pure domain code (standard library only, no I/O). Public interface:

    policy = Policy(PolicyConfig())
    policy.check_text(text)              # secret + injection rules only
    policy.evaluate(fields, trusted=False)  # every rule on a proposal / item dict

Importing the package compiles nothing: the rule modules (hundreds of regular expressions,
about 0.4 s) load when a name of the engine or the rules is first used. A module that needs
only the normaliser (the item model, and through it ragixctl, whose every command would
otherwise pay for rules it never runs) imports `normalize` alone.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# Loaded now, and cheap (no rule): the name `normalize` must be the function, not the submodule
# of the same name that importing it binds here first.
from .normalize import normalize, prose_view

# Each public name, and the module of this package that defines it.
_EXPORTS = {
    **dict.fromkeys(("ACCEPT", "QUARANTINE", "REJECT", "Policy", "PolicyConfig", "Verdict"), "engine"),
    **dict.fromkeys(("HARD", "INJECTION", "SECRET", "SOFT", "Rule", "RuleHit", "rule_from_dict"), "rules"),
}

__all__ = [
    "ACCEPT", "HARD", "INJECTION", "Policy", "PolicyConfig", "QUARANTINE", "REJECT", "Rule",
    "RuleHit", "SECRET", "SOFT", "Verdict", "normalize", "prose_view", "rule_from_dict",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value  # found once; later lookups do not come here
    return value


if TYPE_CHECKING:
    from .engine import ACCEPT, QUARANTINE, REJECT, Policy, PolicyConfig, Verdict
    from .rules import HARD, INJECTION, SECRET, SOFT, Rule, RuleHit, rule_from_dict
