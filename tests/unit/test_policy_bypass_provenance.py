"""Write-policy bypass (an invisible source_id is no provenance), as a QA pass reproduced it, and benign near-misses.

Every credential is fake and assembled at run time (concatenation or a seeded generator),
so that no real-looking secret is written in the repository. Each case goes through the
policy's public API (`check_text` / `evaluate`).
"""

from __future__ import annotations

import pytest
from support.policy_fakes import policy


@pytest.mark.parametrize("source_id", ["\u200b", "\u2060", " \u200b ", "\ufeff\u200d", "\u00ad", "\u200b\n\t"])
@pytest.mark.parametrize("tier", ["mtm", "ltm"])
def test_invisible_source_id_counts_as_missing_for_durable_tiers(source_id, tier):
    fields = {"content": "fact", "tier": tier, "why_store": "x", "provenance": {"source_id": source_id}}
    verdict = policy.evaluate(fields, trusted=True)
    assert verdict.rejected
    assert "provenance.missing_for_tier" in verdict.rule_ids


def test_invisible_source_id_is_quarantined_on_stm():
    fields = {"content": "fact", "tier": "stm", "why_store": "x", "provenance": {"source_id": "\u2060"}}
    assert "quarantine.missing_source" in policy.evaluate(fields).rule_ids


@pytest.mark.parametrize("source_id", ["doc:1", "\u200bdoc:1", "日本語のメモ", "é"])
def test_visible_source_id_satisfies_provenance(source_id):
    fields = {"content": "fact", "tier": "ltm", "why_store": "x", "provenance": {"source_id": source_id}}
    assert policy.evaluate(fields).accepted
