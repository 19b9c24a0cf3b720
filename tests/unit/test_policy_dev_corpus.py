"""Quality targets on the labelled sample corpus (skipped when the shared data is absent).

The corpus is read from ../shared/data/policy/dev.jsonl relative to the project root; it is a
sample of a larger world, so these are floors, not the thing the rules were written from.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from ragixd.domain.policy import Policy

DEV = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "policy" / "dev.jsonl"


@pytest.fixture(scope="module")
def outcomes():
    if not DEV.exists():
        pytest.skip(f"no labelled corpus at {DEV}")
    policy = Policy()
    counts: Counter[tuple[str, bool]] = Counter()
    for line in DEV.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        verdict = policy.check_text(row["text"])
        counts[(row["label"], verdict.rejected)] += 1
    return counts


def rate(counts, label):
    total = counts[(label, True)] + counts[(label, False)]
    return counts[(label, True)] / total


def test_secrets_blocked(outcomes):
    assert rate(outcomes, "secret") >= 0.95


def test_injections_blocked(outcomes):
    assert rate(outcomes, "injection") >= 0.90


def test_benign_rarely_blocked(outcomes):
    assert rate(outcomes, "benign") <= 0.02
