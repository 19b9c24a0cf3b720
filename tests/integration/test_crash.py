"""kill -9 at random moments loses no acknowledged write, and the store comes back verified.

The loop itself lives in bench/crash_loop.py (which also runs long on its own); here it runs in
a short form: 20 crashes during writes from several clients.
"""

from __future__ import annotations

import importlib.util
import random
import threading
import time
from pathlib import Path

import pytest

from ragixd.errors import RagixError

BENCH = Path(__file__).resolve().parents[2] / "bench"


def load_crash_loop():
    spec = importlib.util.spec_from_file_location("crash_loop", BENCH / "crash_loop.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_twenty_crashes_during_writes_lose_no_acknowledged_write(tmp_path):
    crash_loop = load_crash_loop()
    result = crash_loop.run(rounds=20, clients=4, max_delay=0.3, home=tmp_path / "home", seed=20,
                            timeout=0.25)
    assert result["lost"] == 0, result["lost_ids"]
    assert result["checks"] == 21 and result["all_verify_ok"], result
    assert result["refused_writes"] == 0, result["refusals"]
    # The crashes happened under load: writes were acknowledged, and some were cut off.
    assert result["acknowledged_writes"] >= 100
    assert result["unanswered_writes"] >= 1
    assert result["items_after"] >= result["acknowledged_writes"]


def populate(home: Path, count: int) -> dict[str, str]:
    """Items written in process (fast, grouped), before the daemon opens the home."""
    from ragixd.domain import commands as cmds
    from ragixd.store.store import Store
    store = Store(home / "ragix.db", synchronous="NORMAL")
    ids = {}
    for start in range(0, count, 500):
        titles = [f"rebuild crash {n}" for n in range(start, min(count, start + 500))]
        group = store.execute([cmds.CreateItem({"title": t, "content": f"body of {t}"}) for t in titles])
        ids.update({r["id"]: t for r, t in zip(group.results, titles)})
    store.close()
    return ids


def wait_for(predicate, timeout_s: float = 30.0) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if predicate():
            return True
    return False


@pytest.mark.slow
def test_a_crash_during_a_rebuild_is_repaired_on_restart(tmp_path):
    from support.daemon import Daemon
    home = tmp_path / "home"
    home.mkdir()
    ids = populate(home, 4000)
    daemon = Daemon(home).start(timeout=60)  # as its restarts below: a 4000-item home, a busy machine
    rng = random.Random(3)
    try:
        for _ in range(2):
            def rebuild() -> None:
                try:
                    daemon.client(timeout=3).rebuild()
                except RagixError:
                    pass  # killed under it
            thread = threading.Thread(target=rebuild)
            thread.start()
            watcher = daemon.client(timeout=10)
            # status answers during a rebuild, and says so: kill only once it is under way.
            assert wait_for(lambda w=watcher: w.status()["rebuilding"]), "rebuild never seen"
            time.sleep(rng.uniform(0.0, 0.4))
            daemon.kill()
            thread.join()
            watcher.close()
            daemon.start(timeout=60)
            c = daemon.client(timeout=60)
            keys = sorted(ids)
            found = {}
            for start in range(0, len(keys), 1000):
                found.update({i["id"]: i["title"] for i in c.read(*keys[start:start + 1000])["items"]})
            assert found == ids
            report = c.verify()
            assert report["ok"], report
            c.close()
    finally:
        daemon.stop()
