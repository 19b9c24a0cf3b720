"""The policy's regular expressions are compiled at their first use (domain/policy/lazy.py):
every one of them must compile, read its flags as re.compile would, and behave as the compiled
pattern does."""

from __future__ import annotations

import copy
import pickle
import re
import subprocess
import sys

import pytest

from ragixd.domain.policy import Policy
from ragixd.domain.policy.lazy import LazyPattern, lazy_compile, made


def test_every_pattern_the_policy_writes_compiles_and_knows_its_flags_without_compiling():
    policy = Policy()  # builds every rule, and with them every pattern the rules were written with
    patterns = made()
    assert len(patterns) > 300
    for lazy in patterns:
        flags = lazy.flags  # read before any compile the loop might cause
        assert flags == re.compile(lazy.pattern, lazy._given).flags, lazy
        assert lazy.compiled().pattern == lazy.pattern
    secret = policy.evaluate({"title": "t", "content": "key AKIA" + "Q3VZ7XW2MBK4TJ9P" + " here"})
    assert "secret.aws_access_key_id" in secret.rule_ids


def test_a_new_process_building_a_policy_compiles_almost_none_of_its_patterns():
    # In a fresh interpreter: this one's patterns were compiled by the tests before.
    code = ("from ragixd.domain.policy import Policy\n"
            "from ragixd.domain.policy.lazy import made\n"
            "policy = Policy()\n"
            "print(len(made()), sum(p._compiled is not None for p in made()), len(policy.rules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    alive, compiled, rules = map(int, out.stdout.split())
    assert alive > 300 and rules > 200
    assert compiled < 0.1 * alive, out.stdout


@pytest.mark.parametrize("pattern, flags", [
    (r"abc", 0), (r"(?i)abc", 0), (r"(?im)^abc", 0), (r"(?i)(?s)a.c", 0), (r"abc", re.IGNORECASE),
    (r"(?a)\w+", 0), (r"\w+", re.ASCII), (r"(?x) a b c", 0), (r"a(?i:b)c", 0),
    (r"(?x)  (?i) a b", 0),  # a verbose pattern's flag group after blanks: read by compiling
])
def test_flags_equal_the_compiled_flags(pattern, flags):
    assert lazy_compile(pattern, flags).flags == re.compile(pattern, flags).flags


def test_it_answers_as_the_compiled_pattern_does():
    text = "Alpha beta, GAMMA beta; delta"
    lazy, plain = lazy_compile(r"(?i)(?P<word>beta|gamma)"), re.compile(r"(?i)(?P<word>beta|gamma)")
    assert lazy._compiled is None
    assert lazy.search(text).span() == plain.search(text).span()
    assert lazy._compiled is not None
    assert lazy.match(text) is None and plain.match(text) is None
    assert lazy.fullmatch("beta").group("word") == "beta"
    assert [m.span() for m in lazy.finditer(text)] == [m.span() for m in plain.finditer(text)]
    assert lazy.findall(text) == plain.findall(text)
    assert lazy.sub("x", text) == plain.sub("x", text)
    assert lazy.subn("x", text) == plain.subn("x", text)
    assert lazy.split(text) == plain.split(text)
    assert lazy.groupindex == plain.groupindex and lazy.groups == plain.groups
    assert lazy.search(text, 8, 20).span() == plain.search(text, 8, 20).span()


def test_a_bad_pattern_fails_at_its_first_use_with_re_error():
    bad = lazy_compile(r"(unclosed")
    with pytest.raises(re.error):
        bad.search("text")


def test_equal_hashable_copied_and_pickled_as_the_pattern_it_stands_for():
    a, b, c = lazy_compile("a+", re.IGNORECASE), lazy_compile("a+", re.IGNORECASE), lazy_compile("a+")
    assert a == b and hash(a) == hash(b) and a != c
    for other in (copy.deepcopy(a), pickle.loads(pickle.dumps(a))):
        assert isinstance(other, LazyPattern) and other == a and other.search("xAA").group() == "AA"
