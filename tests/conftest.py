"""Shared fixtures: a store on a temporary directory, and hypothesis profiles."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

from ragixd.store.store import Store

settings.register_profile("default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", deadline=None, max_examples=40,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else "default")


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
