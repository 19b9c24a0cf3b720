"""Write-policy bypass (encoded runs are decoded past any number of skipped ones), as a QA pass reproduced it, and benign near-misses.

Every credential is fake and assembled at run time (concatenation or a seeded generator),
so that no real-looking secret is written in the repository. Each case goes through the
policy's public API (`check_text` / `evaluate`).
"""

from __future__ import annotations


import pytest
from support.policy_fakes import (
    AWS_ID,
    INJECTION,
    PASSWORD_LINE,
    PEM,
    SECRETS,
    b64,
    policy,
    rand,
    refused,
)


@pytest.mark.parametrize("name", sorted(SECRETS))
def test_the_repro_values_are_refused_as_they_are(name):
    assert refused(SECRETS[name])

PADDING = " ".join(["abcdefghijklmnop"] * 48)


@pytest.mark.parametrize("secret", [AWS_ID, PASSWORD_LINE, PEM, INJECTION], ids=["aws", "password", "pem", "injection"])
def test_encoded_secret_after_many_skipped_runs_is_refused(secret):
    assert refused(b64(secret))
    assert refused(f"{PADDING} {b64(secret)}")
    assert refused(f"{PADDING} {PADDING} {PADDING} {b64(secret)}")


def test_encoded_secret_after_many_undecodable_runs_is_refused():
    # Mixed-case runs that decode to binary: attempted, found unreadable, not a reason to stop.
    junk = " ".join(rand(24) for _ in range(200))
    assert refused(f"{junk} {b64(AWS_ID)}")


def test_encoded_secret_after_many_readable_encoded_runs_is_refused():
    notes = " ".join(b64(f"harmless note number {i}") for i in range(100))
    assert refused(f"{notes} {b64(PASSWORD_LINE)}")


def test_many_encoded_runs_are_decoded_within_the_budget():
    """Work is bounded by characters decoded, not runs found: what the decoded views hold stays
    within MAX_DECODED_CHARS however many runs the text has (timings are bench/'s)."""
    from ragixd.domain.policy.decode import MAX_DECODED_CHARS, decoded_views
    junk = " ".join(["abcdefghijklmnop"] * 20_000 + [rand(24) for _ in range(5_000)]
                    + [b64(f"harmless note number {i}") for i in range(2_000)])
    assert sum(map(len, decoded_views(junk))) <= MAX_DECODED_CHARS


def test_plain_encoded_notes_stay_accepted():
    notes = " ".join(b64(f"harmless note number {i}") for i in range(60))
    assert policy.check_text(f"{PADDING} {notes}").accepted
