"""Write-policy bypass (combining marks do not hide a secret), as a QA pass reproduced it, and benign near-misses.

Every credential is fake and assembled at run time (concatenation or a seeded generator),
so that no real-looking secret is written in the repository. Each case goes through the
policy's public API (`check_text` / `evaluate`).
"""

from __future__ import annotations

import pytest
from support.policy_fakes import AWS_ID, GITHUB, SECRETS, policy, refused


def every_char_marked(text: str) -> str:
    return "".join(c + "\u0301" for c in text)


@pytest.mark.parametrize("name", sorted(SECRETS))
def test_secret_with_a_combining_mark_after_each_character_is_refused(name):
    assert refused(every_char_marked(SECRETS[name]))


def test_combining_marks_on_the_prefix_only_are_refused():
    assert refused(AWS_ID.replace("AKIA", every_char_marked("AKIA")))
    assert refused(GITHUB.replace("ghp_", "g\u0300h\u0308p_"))


def test_accented_prose_stays_accepted():
    for text in ("Le café de la société a été fermé pour rénovation.",
                 "Ñandú, crème brûlée, São Paulo, Zürich, Ærøskøbing, naïve façade",
                 "Привет, как дела? Всё хорошо.", "नमस्ते दुनिया", "한국어 문장입니다", "ภาษาไทย"):
        assert policy.check_text(text).accepted, text
