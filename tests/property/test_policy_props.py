"""Policy invariants: no known secret shape gets through, plain prose does, and a verdict
never repeats what it refused. Secrets are generated from a seed, never written literally."""

from __future__ import annotations

import base64
import collections
import json
import math
import random
import re
import string

from hypothesis import given, settings
from hypothesis import strategies as st

from ragixd.domain.policy import Policy, injection_rules, normalize
from ragixd.domain.policy.decode import (
    _B64_RUN,
    _ESCAPED_HEX,
    _HEX_RUN,
    _tokens,
    decoded_views,
)
from ragixd.domain.policy.engine import iter_text_fields
from ragixd.domain.policy.literals import LiteralScanner
from ragixd.domain.policy.normalize import normalize_unicode
from ragixd.domain.policy.scan import LONG_TOKEN, Views, long_tokens
from ragixd.domain.policy.secret_rules import (
    _URL_CREDENTIALS,
    _accept_url_credentials,
    has_url_credentials,
    strip_public_blocks,
)
from ragixd.domain.policy.values import class_transitions, shannon

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


# -- fast paths: each must give exactly what the plain formulation gives ------------------

GATE_LITERALS = sorted({lit for r in policy.rules for lit in (r.needles or r.anchors)})
# Texts made of pieces of the policy's own literals, so that literals overlap and nearly match.
PIECES = sorted({lit[i:j] for lit in GATE_LITERALS for i in range(len(lit)) for j in (i + 2, i + 4, len(lit))
                 if lit[i:j]} | set(" \n.:-_'\"<>[]#!aeiou"))
fragments = st.lists(st.sampled_from(PIECES), max_size=30).map("".join)
ascii_text = st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=127), max_size=300)


@settings(max_examples=300, deadline=None)
@given(literals=st.lists(st.text(alphabet="abcxyz _:", min_size=1, max_size=6), min_size=1, max_size=12),
       text=st.text(alphabet="abcxyz _:", max_size=80))
def test_literal_scanner_finds_exactly_the_literals_in_the_text(literals, text):
    scanner = LiteralScanner(literals)
    expected = {lit for lit in literals if lit in text}
    assert scanner.present(text) == expected
    assert scanner.any_present(text) == bool(expected)


GATE_SCANNER = LiteralScanner(GATE_LITERALS)  # built once: it holds no state between scans


@settings(max_examples=300, deadline=None)
@given(text=fragments)
def test_policy_gates_see_exactly_the_literals_in_the_text(text):
    assert GATE_SCANNER.present(text) == {lit for lit in GATE_LITERALS if lit in text}


@settings(max_examples=300, deadline=None)
@given(text=ascii_text)
def test_ascii_fast_path_normalises_like_the_general_path(text):
    assert normalize(text) == normalize_unicode(text)


def _fired_ids(views: Views) -> list[str]:
    return [rule.id for rule in policy._index.fired(views, frozenset(), False)]


@settings(max_examples=200, deadline=None)
@given(text=st.one_of(ascii_text, fragments.map(str.title), fragments))
def test_ascii_fast_path_fires_the_same_rules_as_the_general_path(text):
    """ASCII text is gated by one scan serving both the lower-case and the prose view; the
    general path (non-ASCII text) scans each view on its own. Same rules either way."""
    fast = Views(normalize(text))
    general = Views(normalize(text))
    general.prose = "".join(list(general.lower))  # equal text, other object: general path
    if len(general.lower) > 1:
        assert general.prose is not general.lower
    assert _fired_ids(fast) == _fired_ids(general)


@settings(max_examples=300, deadline=None)
@given(text=st.lists(st.sampled_from(["ftp", "https", "s3", "postgres", "jdbc:mysql", "git+ssh", "://", "@",
                                      ":", "/", " ", "u", "Xk29!pq", "s3cr3tPw", "8080", "$x", "+", "h"]),
                     max_size=25).map("".join))
def test_url_credentials_only_around_scheme_separators(text):
    expected = any(_accept_url_credentials(m) for m in _URL_CREDENTIALS.finditer(text))
    assert has_url_credentials(text) == expected


@settings(max_examples=300, deadline=None)
@given(text=st.lists(st.sampled_from(["QUJD" * 4, "ab" * 8, "Zz", "=", "==", " ", "-", "\\x4f", "é", "0f", "xyz"]),
                     max_size=12).map("".join))
def test_encoded_runs_are_the_look_behind_regex_matches(text):
    for kind, regex in (("base64", _B64_RUN), ("hex", _HEX_RUN), ("escaped", _ESCAPED_HEX)):
        assert list(_tokens(kind, text)) == [m.group() for m in regex.finditer(text)]


@settings(max_examples=300, deadline=None)
@given(text=st.lists(st.sampled_from(["a" * 15, "b" * 16, "x", " ", "\n", "\t", "\x0b", "ssh-rsa AAAA", "q" * 9]),
                     max_size=10).map("".join))
def test_long_tokens_quick_test_agrees_with_splitting(text):
    words = strip_public_blocks(text).split()
    assert long_tokens(text) == "\n".join(w for w in words if len(w) >= LONG_TOKEN)


_SWITCH = re.compile(r"[a-z](?=[A-Z0-9])|[A-Z](?=[a-z0-9])|[0-9](?=[A-Za-z])")


@settings(max_examples=300, deadline=None)
@given(value=st.text(alphabet="aZ9_-é.", max_size=40))
def test_value_statistics_match_their_definitions(value):
    counts = collections.Counter(value).values()
    n = len(value)
    assert shannon(value) == (-sum(c / n * math.log2(c / n) for c in counts) if value else 0.0)
    alnum = re.sub(r"[^A-Za-z0-9]+", "", value)
    expected = len(_SWITCH.findall(alnum)) / (len(alnum) - 1) if len(alnum) >= 2 else 0.0
    assert class_transitions(value) == expected


# -- the quiet path, the jailbreak shortcut and the field walk: same answers as the plain forms --

def _every_rule_on_text_and_decodings(text: str) -> list[str]:
    """scan() without its quiet shortcut, every rule evaluated."""
    normalized = normalize(text)
    views = Views(normalized)
    ids = [rule.id for rule in policy._index.fired(views, frozenset(), False)]
    encoded = views.long + ("\n" + normalized if "%" in normalized or "&" in normalized else "")
    for decoded in decoded_views(encoded) if encoded else ():
        ids += [rule.id for rule in policy._index.fired(Views(normalize(decoded)), frozenset(), False)]
    return ids


unicode_text = st.text(alphabet=st.sampled_from("aeiouxyz ignore1!0@ ._-:\n\u00e9\u0430\u200b%&"), max_size=120)


@settings(max_examples=300, deadline=None)
@given(text=st.one_of(ascii_text, fragments, fragments.map(str.title), unicode_text))
def test_quiet_texts_fire_no_rule_even_when_every_rule_runs(text):
    normalized = normalize(text)
    if policy._index.quiet(Views(normalized), normalized):
        assert _every_rule_on_text_and_decodings(text) == []


def _jailbreak_reference(prose: str) -> bool:
    flat = " ".join(prose.split())
    signals = [search(flat) is not None for search in injection_rules._SIGNAL_SEARCHES]
    return (signals[0] and signals[1]) or sum(signals) >= 4


JAILBREAK_PIECES = sorted({lit for lits in injection_rules._SIGNAL_LITERALS if lits for lit in lits}
                          | set(injection_rules._OVERRIDE_LITERALS)
                          | {"you are now ", "act as a ", "pretend to be ", "no restrictions", "do anything now",
                             "developer mode", "dan ", "two responses ", "tokens deducted", "openai ", "harmful ",
                             "stay in character!", " ", ". ", "x"})


@settings(max_examples=400, deadline=None)
@given(text=st.lists(st.sampled_from(JAILBREAK_PIECES), max_size=14).map(" ".join))
def test_jailbreak_shortcuts_decide_like_counting_every_signal(text):
    assert injection_rules._jailbreak(text) == _jailbreak_reference(text)


def _fields_reference(value, path="", depth=0):
    """The field walk written as a plain recursive generator."""
    if depth > 12:
        return
    if isinstance(value, str):
        yield path or "content", value
    elif isinstance(value, dict):
        for key, item in value.items():
            sub = f"{path}.{key}" if path else str(key)
            if isinstance(key, str) and not re.match(r"^[A-Za-z_][\w.\-]{0,63}$", key):
                yield f"{sub}<key>", key
            yield from _fields_reference(item, sub, depth + 1)
    elif isinstance(value, (list, tuple)):
        items = list(value)
        if items and all(isinstance(i, str) for i in items):
            yield path, "\n".join(items)
        else:
            for i, item in enumerate(items):
                yield from _fields_reference(item, f"{path}[{i}]", depth + 1)


field_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=8)),
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.sampled_from(["a", "b.c", "bad key", "x-y", "", "1z"]), inner,
                                            max_size=4)),
    max_leaves=30)


@settings(max_examples=300, deadline=None)
@given(value=field_values)
def test_field_walk_yields_what_the_plain_generator_yields(value):
    assert list(iter_text_fields(value)) == list(_fields_reference(value))


def test_field_walk_stops_at_the_same_depth():
    deep: object = "text"
    for _ in range(20):
        deep = {"k": deep}
    assert list(iter_text_fields(deep)) == list(_fields_reference(deep)) == []



# -- native prefilter: the looser expression never misses a match -----------------------

_NATIVE_ALPHABET = string.ascii_letters + string.digits + " \n-_.:/+=<>|[]{}\"'#!?,é\u212a\u017f"


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=_NATIVE_ALPHABET, max_size=120), st.integers(0, 60), st.integers(0, 60))
def test_native_superset_never_misses_a_window_match(text, start, span):
    from ragixd.domain.policy import native

    if not native.available():
        return
    prefilter = policy._index.native
    end = min(len(text), start + span)
    for target in ("text", "lower", "prose", "long"):
        scan = prefilter.scan(target, text)
        assert scan is not None
        for i in scan.ruled_out:
            rule = policy.rules[i]
            assert rule.pattern.search(text, start, end) is None, rule.id
            assert rule.pattern.search(text) is None, rule.id
    if text.isascii():  # one caseless scan of the text stands for it and its lower case
        scan = prefilter.scan("ascii", text)
        for i in scan.ruled_out:
            rule = policy.rules[i]
            view = text if rule.reads == "text" else text.lower()
            assert rule.pattern.search(view, start, end) is None, rule.id
