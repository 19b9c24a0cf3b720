"""Following the log across a restart of the daemon: the follower waits for it and goes on
where it was, with every event once and in order (`ragixctl tail` is often left running)."""

import threading

from support.daemon import Daemon


def test_follow_waits_out_a_restart_and_misses_nothing(tmp_path):
    daemon = Daemon(tmp_path / "home").start()
    writer = daemon.client()
    follower = daemon.client(timeout=5)
    pauses: list[str | None] = []
    seen: list[dict] = []
    started = threading.Event()

    def follow():
        for event in follower.follow(after=0, idle=60, check_every=0.2,
                                     on_pause=lambda err: pauses.append(None if err is None else err.code)):
            seen.append(event)
            started.set()
            if sum(e["type"] == "item.created" for e in seen) == 6:
                return

    thread = threading.Thread(target=follow, daemon=True)
    try:
        thread.start()
        for n in range(3):
            writer.write(title=f"before {n}", content="written before the restart")
        assert started.wait(30)
        assert daemon.stop() == 0
        daemon = Daemon(tmp_path / "home").start()
        writer.close()
        writer = daemon.client()
        for n in range(3):
            writer.write(title=f"after {n}", content="written after the restart")
        thread.join(60)
        assert not thread.is_alive()
    finally:
        writer.close()
        daemon.stop()
    seqs = [e["seq"] for e in seen]
    assert seqs == sorted(set(seqs)) and seqs[0] == 1
    titles = [e["payload"]["item"]["title"] for e in seen if e["type"] == "item.created"]
    assert titles == [f"before {n}" for n in range(3)] + [f"after {n}" for n in range(3)]
    assert pauses and pauses[0] in ("unavailable", "timeout", "busy") and pauses[-1] is None
    follower.close()


def test_follow_that_waits_longer_than_idle_stops(tmp_path):
    daemon = Daemon(tmp_path / "home").start()
    follower = daemon.client(timeout=2)
    events = follower.follow(after=0, idle=1.5, check_every=0.2)
    daemon.client().write(title="one", content="before the daemon stops")
    first = next(events)
    assert first["type"] == "item.created"
    owner = daemon.client()
    head = owner.status()["head_seq"]
    owner.close()
    daemon.stop()
    rest = list(events)  # no daemon, no events for 1.5 s: the follow ends, no error
    assert [e["seq"] for e in rest] == list(range(2, head + 1))
    follower.close()
