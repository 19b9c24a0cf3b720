"""Random tokens assigned with "=" (`key=…`), credential parameters inside URLs, the `psw`
abbreviation, and a password told in prose ("was", "is now", "changed … to") are secrets;
the code, URLs and prose that look like them are not."""

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




PROSE_PASSWORDS = [
    "Her password was sunshine99",
    "my password was hunter2",
    "I changed my password to Marseille13!",
    "the admin password is now P@ssw0rd2024",
    "set the root password to 'Xk9#mPq2vL'",
]

PROSE_ABOUT_PASSWORDS = [
    "The password was changed yesterday",
    "I changed my password to something stronger",
    "the password was reset by IT",
    "Set the password to expire in 90 days",
    "password is now required for SSO",
    "Reset the password to the default from the vault",
    "The old password was too short.",
]




URL_LOGINS = [
    "//admin:Xk9mPq2vLr@db.internal:5432",
    "source: doc://user:Xk9mPq2vLr@host/x",
    "myproto://user:Xk9mPq2vLr@host",
    "custom-db://svc:hunter2pass@10.0.0.3/app",
]

URL_LOOK_ALIKES = [
    "//user:password@host",
    "doc://user:pass@host",
    "scheme://user:${PASS}@host",
    "https://example.com//path:8080@x",
    '"//%s:%s@%s" % (user, password, host)',
    "see //john:doe@host in the docs",
]


@pytest.mark.parametrize("text", SECRETS + PROSE_PASSWORDS + URL_LOGINS)
def test_secret_is_refused(text):
    verdict = policy.check_text(text)
    assert verdict.rejected, text
    assert any(h.kind == "secret" for h in verdict.hits), verdict.rule_ids
    assert all(TOKEN not in reason for reason in verdict.reasons)


@pytest.mark.parametrize("text", NOT_SECRETS + PROSE_ABOUT_PASSWORDS + URL_LOOK_ALIKES)
def test_look_alike_is_accepted(text):
    verdict = policy.check_text(text)
    assert verdict.accepted, (text, verdict.rule_ids)
