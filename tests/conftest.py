"""Shared fixtures: a store on a temporary directory, hypothesis profiles, and the contract check
of every daemon a test starts."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

from ragixd import paths
from ragixd.domain.policy import native
from ragixd.native_cache import DirectoryCache
from ragixd.store.store import Store

settings.register_profile("default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", deadline=None, max_examples=40,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else "default")

# The policy's native databases, compiled once per rule set (15-20 s), are shared with the
# daemons the tests start, through the cache directory they use too (as the daemon does).
native.use_cache(DirectoryCache(paths.cache_dir() / "policy"))


@pytest.fixture(scope="session", autouse=True)
def policy_databases_compiled():
    """Compile the default policy's native databases once, before any test starts a daemon: on
    a machine that has none cached, the first daemon would otherwise compile them inside its
    start's deadline (18 s and more on a loaded 2-core machine)."""
    from ragixd.domain.policy import Policy
    Policy().warm()


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "memory.db", synchronous="NORMAL")
    yield s
    s.close()


@pytest.fixture
def daemon(tmp_path):
    from support.daemon import Daemon
    d = Daemon(tmp_path / "home").start()
    yield d
    d.stop()


@pytest.fixture(autouse=True)
def daemons_keep_the_contract():
    """After each test, every daemon it started must have sent only answers and events that
    match schemas/, and its log must hold only such events (support/contract_check.py)."""
    from support.daemon import Daemon
    Daemon.started.clear()
    yield
    # A daemon restarted in the test (crash rounds) is listed once per start: its log once.
    started = list({d.home: d for d in Daemon.started}.values())
    Daemon.started[:] = []
    problems = [f"{d.home}: {p}" for d in started for p in d.contract_problems()]
    assert not problems, "the daemon broke its contract (schemas/):\n" + "\n".join(problems[:20])
