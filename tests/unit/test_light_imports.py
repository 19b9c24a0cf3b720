"""What a process loads that it does not use: ragixctl, started for every command, must not
compile the write policy's rules (about 0.4 s) nor export's redaction patterns, which only the
daemon runs; the daemon loads redaction only when something is exported."""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = ("ragixd.domain.policy.engine", "ragixd.domain.policy.injection_rules",
         "ragixd.domain.policy.secret_rules", "ragixd.domain.redact", "ragixd.domain.redact_patterns")


def _loaded_after(statement: str) -> set[str]:
    code = f"import json, sys; {statement}; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    return set(json.loads(out.stdout))


def test_ragixctl_loads_no_policy_rule_and_no_redaction():
    loaded = _loaded_after("import ragix_client.ctl, ragix_client.ctl_parser")
    assert "ragixd.domain.policy.normalize" in loaded  # what it does use (the item model's)
    assert not loaded & set(HEAVY)


def test_the_daemon_loads_redaction_only_when_it_exports():
    loaded = _loaded_after("import ragixd.daemon")
    assert not loaded & {"ragixd.domain.redact", "ragixd.domain.redact_patterns"}


def test_the_policys_names_are_there_when_asked_for():
    from ragixd.domain import policy
    assert callable(policy.normalize) and policy.Policy.__name__ == "Policy"
    assert {name for name in policy.__all__ if not hasattr(policy, name)} == set()
