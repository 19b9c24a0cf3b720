"""Policy invariants: no known secret shape gets through, plain prose does, and a verdict
never repeats what it refused. Secrets are generated from a seed, never written literally."""

from __future__ import annotations

import base64
import json
import random
import string

from hypothesis import given, settings
from hypothesis import strategies as st

from ragixd.domain.policy import Policy, normalize

ALNUM = string.ascii_letters + string.digits
B64 = ALNUM + "+/"
policy = Policy()


def _rand(rng: random.Random, n: int, alphabet: str = ALNUM) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def _b64url(obj: dict) -> str:
    return base64.urlsafe_b64encode(json.dumps(obj).encode()).decode().rstrip("=")


def aws_key(r):
    return "AKIA" + _rand(r, 14, string.ascii_uppercase + "234567") + _rand(r, 2, "234567")


def github(r):
    return r.choice(["ghp_", "gho_", "ghs_", "ghu_"]) + _rand(r, 36)


def slack(r):
    return f"xoxb-{_rand(r, 11, string.digits)}-{_rand(r, 12, string.digits)}-{_rand(r, 24)}"


def jwt(r):
    header = _b64url({"alg": r.choice(["HS256", "RS256"]), "typ": "JWT"})
    return f"{header}.{_b64url({'sub': _rand(r, 8), 'iat': r.randrange(10**9)})}.{_rand(r, 43, ALNUM + '_-')}"


def pem(r):
    label = r.choice(["RSA PRIVATE KEY", "PRIVATE KEY", "EC PRIVATE KEY", "OPENSSH PRIVATE KEY"])
    body = "\n".join(_rand(r, 64, B64) for _ in range(r.randrange(3, 8)))
    return f"-----BEGIN {label}-----\n{body}\n-----END {label}-----"


def connection_string(r):
    scheme = r.choice(["postgres", "postgresql", "mysql", "mongodb+srv", "redis", "amqp"])
    return f"{scheme}://svc_{_rand(r, 4, string.ascii_lowercase)}:{_rand(r, 16)}@db{r.randrange(9)}.internal:5432/app"


def openai(r):
    return "sk-proj-" + _rand(r, 40, ALNUM + "_-") + "T3BlbkFJ" + _rand(r, 40, ALNUM + "_-")


def stripe(r):
    return "sk_" + "live_" + _rand(r, 24)


def password_assignment(r):
    name = r.choice(["password", "DB_PASSWORD", "passwd", "pwd", "mot de passe"])
    return f"{name} = {_rand(r, 6, string.ascii_letters)}{r.randrange(10, 9999)}!"


def api_key_assignment(r):
    name = r.choice(["api_key", "API_TOKEN", "clientSecret", "access_token", "auth_token"])
    return f'{name}: "{_rand(r, 32)}"'


SHAPES = [aws_key, github, slack, jwt, pem, connection_string, openai, stripe, password_assignment,
          api_key_assignment]

WORDS = ("the team shipped a new build on friday and the garden looks green after rain while "
         "coffee with friends helps us plan trips to the river near the old mill tomorrow morning "
         "maria enjoys pottery class and john restores cars in his small garage every weekend").split()

prose = st.lists(st.sampled_from(WORDS), min_size=0, max_size=40).map(" ".join)
seeds = st.integers(min_value=0, max_value=2**32 - 1)


@settings(max_examples=120, deadline=None)
@given(shape=st.sampled_from(SHAPES), seed=seeds, before=prose, after=prose,
       sep=st.sampled_from([" ", "\n", "\n\n", " : ", "\t"]))
def test_known_secret_shapes_are_always_blocked(shape, seed, before, after, sep):
    secret = shape(random.Random(seed))
    verdict = policy.check_text(f"{before}{sep}{secret}{sep}{after}")
    assert verdict.rejected, shape.__name__


@settings(max_examples=60, deadline=None)
@given(shape=st.sampled_from(SHAPES), seed=seeds, where=st.integers(min_value=0, max_value=200))
def test_invisible_characters_do_not_hide_a_secret(shape, seed, where):
    secret = shape(random.Random(seed))
    cut = where % len(secret)
    assert policy.check_text(secret[:cut] + "\u200b" + secret[cut:]).rejected


@settings(max_examples=80, deadline=None)
@given(shape=st.sampled_from(SHAPES), seed=seeds, before=prose)
def test_verdict_never_contains_the_secret(shape, seed, before):
    secret = shape(random.Random(seed))
    verdict = policy.evaluate({"title": before, "content": secret, "why_store": "x", "tier": "stm",
                               "provenance": {"source_id": "s"}})
    dumped = json.dumps(verdict.to_dict()) + repr(verdict)
    assert verdict.rejected
    for piece in secret.split():
        if len(piece) >= 12:
            assert piece not in dumped


@settings(max_examples=150, deadline=None)
@given(text=prose, numbers=st.lists(st.integers(min_value=0, max_value=10**6), max_size=5))
def test_plain_prose_is_accepted(text, numbers):
    full = text + " " + " ".join(map(str, numbers))
    verdict = policy.check_text(full)
    assert verdict.accepted, verdict.rule_ids


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=200))
def test_normalize_is_idempotent(text):
    once = normalize(text)
    assert normalize(once) == once


@settings(max_examples=150, deadline=None)
@given(text=st.text(alphabet=st.characters(codec="utf-8"), max_size=300))
def test_policy_never_crashes_and_decides(text):
    verdict = policy.check_text(text)
    assert verdict.decision in ("accept", "quarantine", "reject")
