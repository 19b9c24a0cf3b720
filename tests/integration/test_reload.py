"""SIGHUP with a config file that cannot be applied: the daemon keeps serving with the settings
it had, all of them, and says why in its log; a file that can be applied is applied whole."""

from __future__ import annotations

import signal
import time

import pytest

# Each is a file that parses but cannot be applied; max_message_bytes rides along so that a
# partial reload shows in status.
BROKEN = {
    "embedder option of the wrong type": '[embedder]\nbackend = "ollama"\nurl = 5\n',
    "extra embedder option of the wrong type": '[[extra_embedders]]\nbackend = "ollama"\nurl = 5\n',
    "hash dimension too big to use": '[embedder]\nbackend = "hash"\ndimension = 100000000000\n',
    "a setting out of range": 'readers = 0\n',
}


def _hup(daemon, expect: str) -> dict:
    """Send SIGHUP and wait for the reload's outcome (`expect`) to be logged."""
    before = len(daemon.log_events(expect))
    daemon.proc.send_signal(signal.SIGHUP)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        found = daemon.log_events(expect)
        if len(found) > before:
            return found[-1]
        assert daemon.proc.poll() is None, f"ragixd died on SIGHUP: {daemon.log()}"
        time.sleep(0.05)
    raise AssertionError(f"no {expect} logged: {daemon.log()}")


@pytest.mark.parametrize("broken", BROKEN.values(), ids=BROKEN.keys())
def test_a_reload_that_fails_keeps_every_old_setting_and_the_daemon(daemon, broken):
    config = daemon.home / "config" / "ragix" / "ragixd.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    c = daemon.client()
    before = c.write(title="before the reload", content="written before the reload")
    config.write_text("max_message_bytes = 2048\n" + broken)
    failed = _hup(daemon, "daemon.reload_failed")
    assert failed["error"]
    assert not daemon.log_events("daemon.reloaded")
    assert daemon.proc.poll() is None
    assert c.status()["max_message_bytes"] == 4 * 1024 * 1024  # nothing of the file applied
    after = c.write(title="after the reload", content="written after the reload")
    assert c.search("reload", k=5, min_seq=after["seq"])["count"] == 2
    assert c.read(before["id"], after["id"])["count"] == 2
    # Fixed, the same file applies.
    config.write_text("max_message_bytes = 2048\n")
    _hup(daemon, "daemon.reloaded")
    assert c.status()["max_message_bytes"] == 2048
    c.close()


def test_an_embedder_option_of_the_wrong_type_stops_a_start_with_one_line(tmp_path):
    import os
    import subprocess
    import sys
    config = tmp_path / "ragixd.toml"
    config.write_text('[embedder]\nbackend = "ollama"\nurl = 5\n')
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAGIX_")}
    env.update(XDG_CACHE_HOME=str(tmp_path / "cache"))
    proc = subprocess.run([sys.executable, "-m", "ragixd", "--home", str(tmp_path / "h"), "--endpoint",
                           f"ipc://{tmp_path}/s.sock", "--config", str(config)],
                          env=env, capture_output=True, text=True, timeout=60)
    messages = [line for line in proc.stderr.splitlines() if line.startswith("ragixd: ")]
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and len(messages) == 1, proc.stderr
    assert "ollama" in messages[0]


def test_a_directory_where_the_config_file_should_be_fails_a_reload_and_the_old_settings_stay(daemon):
    """At the default path too: not read as 'no file', which would put every setting back to
    its default without a word."""
    config = daemon.home / "config" / "ragix" / "ragixd.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text("max_message_bytes = 2048\n")
    _hup(daemon, "daemon.reloaded")
    c = daemon.client()
    assert c.status()["max_message_bytes"] == 2048
    config.unlink()
    config.mkdir()
    failed = _hup(daemon, "daemon.reload_failed")
    assert failed["error"] == f"cannot read config file {config}: it is a directory"
    assert daemon.proc.poll() is None and c.status()["max_message_bytes"] == 2048
    written = c.write(title="after the failed reload", content="still served")
    assert c.read(written["id"])["count"] == 1
    config.rmdir()  # no file at all: the defaults, as before
    _hup(daemon, "daemon.reloaded")
    assert c.status()["max_message_bytes"] == 4 * 1024 * 1024
    c.close()


def test_a_directory_where_the_config_file_should_be_stops_a_start_with_one_line(tmp_path):
    import os
    import subprocess
    import sys
    config = tmp_path / "xdg" / "ragix" / "ragixd.toml"
    config.mkdir(parents=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAGIX_")}
    env.update(XDG_CACHE_HOME=str(tmp_path / "cache"), XDG_CONFIG_HOME=str(tmp_path / "xdg"))
    proc = subprocess.run([sys.executable, "-m", "ragixd", "--home", str(tmp_path / "h"), "--endpoint",
                           f"ipc://{tmp_path}/s.sock"], env=env, capture_output=True, text=True, timeout=60)
    messages = [line for line in proc.stderr.splitlines() if line.startswith("ragixd: ")]
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert messages == [f"ragixd: cannot read config file {config}: it is a directory"]


def test_a_key_removed_from_the_trust_table_by_a_reload_is_no_longer_admitted(tmp_path):
    import zmq

    from ragix_client import Client
    from ragixd.curve import make_keys
    from ragixd.errors import Timeout
    from support.daemon import Daemon, free_port
    public_file, secret_file = make_keys(tmp_path / "keys", "server")
    server_public = zmq.auth.load_certificate(str(public_file))[0]
    laptop, other = zmq.curve_keypair(), zmq.curve_keypair()
    port = free_port()
    config = tmp_path / "ragixd.toml"
    head = f'tcp_endpoint = "tcp://127.0.0.1:{port}"\ncurve_secret_key_file = "{secret_file}"\n\n[trust]\n'
    config.write_text(head + f'"{laptop[0].decode()}" = "inner"\n')
    daemon = Daemon(tmp_path / "home", extra_env={"RAGIX_CONFIG": str(config)}).start()

    def client(keys, timeout=10.0):
        return Client(f"tcp://127.0.0.1:{port}", timeout=timeout, server_public_key=server_public,
                      public_key=keys[0], secret_key=keys[1])
    try:
        before = client(laptop)
        assert before.search("anything")["items"] == []
        before.close()
        config.write_text(head + f'"{other[0].decode()}" = "inner"\n')
        _hup(daemon, "daemon.reloaded")
        revoked = client(laptop, timeout=1.5)
        with pytest.raises(Timeout):
            revoked.call("search", {"query": "anything"})
        revoked.close()
        admitted = client(other)
        assert admitted.search("anything")["items"] == []
        admitted.close()
    finally:
        daemon.stop()


def test_a_reload_says_which_changed_settings_need_a_restart(tmp_path):
    from support.daemon import Daemon
    daemon = Daemon(tmp_path / "home").start()
    try:
        config = daemon.home / "config" / "ragix" / "ragixd.toml"
        config.parent.mkdir(parents=True, exist_ok=True)
        config.write_text('readers = 2\nsynchronous = "NORMAL"\nmin_seq_timeout_s = 3\n')
        _hup(daemon, "daemon.reloaded")
        (warning,) = daemon.log_events("daemon.reload_needs_restart")
        assert warning["settings"] == ["readers", "synchronous"]
        assert daemon.client().status()["head_seq"] == 0  # still serving
    finally:
        daemon.stop()
