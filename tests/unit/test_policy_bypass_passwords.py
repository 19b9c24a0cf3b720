"""Write-policy bypass (detection gap: a password word followed by its value in prose), as a QA pass reproduced it, and benign near-misses.

Every credential is fake and assembled at run time (concatenation or a seeded generator),
so that no real-looking secret is written in the repository. Each case goes through the
policy's public API (`check_text` / `evaluate`).
"""

from __future__ import annotations

import pytest
from support.policy_fakes import policy, refused


@pytest.mark.parametrize("text", [
    "Le mot de passe admin est Xk9#mPq2vL",
    "le mot de passe du serveur est : Tr0ub4dor&3x",
    "root pw: Xk9#mPq2vL",
    "passwd Xk9#mPq2vL",
    "admin password R7v!kq2Lmz",
    "the password for root is Xk9#mPq2vL",
])
def test_password_words_followed_by_a_value_are_refused(text):
    assert refused(text)


@pytest.mark.parametrize("text", [
    "Le mot de passe admin est dans le coffre-fort.",
    "Le mot de passe est trop court.",
    "le mot de passe du serveur est : voir le coffre",
    "the passwd file lists local users",
    "edit /etc/passwd and /etc/shadow",
    "pw: see vault",
    "root pw: ask the on-call engineer",
    "passwd command changes a password",
    "Run passwd username to reset it",
    "password reset emails are sent hourly",
    "Your password must be at least 12 characters long",
    "password for the admin account is required",
    "Password hashing uses bcrypt with a cost of 12.",
    "passwords are rotated every 90 days",
    "the upward trend in pwa installs",
])
def test_password_words_in_prose_without_a_value_stay_accepted(text):
    assert policy.check_text(text).accepted, policy.check_text(text).rule_ids
