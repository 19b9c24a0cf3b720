"""Random tokens assigned with '=' (`key=…`), credential parameters inside URLs, and the `psw`
abbreviation are secrets; the code and URLs that look like them are not."""

from __future__ import annotations

import pytest

from ragixd.domain.policy import Policy

policy = Policy()
TOKEN = "QrDs0GPRZwwrPwV81Aw71l33SCx9vHjHkm1x72Es"

SECRETS = [
    f"key={TOKEN}",
    f"export KEY={TOKEN}",
    f"https://maps.example.com/api/geocode?address=Paris&key={TOKEN}",
    f"callback: https://example.org/cb?code=1&access_token={TOKEN}",
    "psw: qwerty123!",
    "psw=y0I9lO7F3v",
]

NOT_SECRETS = [
    "sorted(items, key=lambda x: x.name)",
    f"integrity=sha512-{TOKEN}",
    f"see https://example.org/docs?ref={TOKEN}",
    f"https://github.com/{TOKEN}",
    "x=aGVsbG8gd29ybGQgdGhpcyBpcyBiYXNlNjQ=",
    "PSW register bits",
    "psw: <your password>",
]


@pytest.mark.parametrize("text", SECRETS)
def test_secret_is_refused(text):
    verdict = policy.check_text(text)
    assert verdict.rejected, text
    assert all(TOKEN not in reason for reason in verdict.reasons)


@pytest.mark.parametrize("text", NOT_SECRETS)
def test_look_alike_is_accepted(text):
    verdict = policy.check_text(text)
    assert verdict.accepted, (text, verdict.rule_ids)
