"""An ipc endpoint never replaces a file that is not a socket, a stopping daemon removes only
the socket it bound, and a failure to listen is one line and exit 2 (session 27's durability
review: an endpoint mistyped as the home's database deleted every memory)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys

from ragixd.curve import make_keys
from support.daemon import Daemon


def _start(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ragixd", *args], env=env, capture_output=True, text=True,
                          timeout=120)


def _one_line(proc: subprocess.CompletedProcess) -> str:
    lines = [line for line in proc.stderr.splitlines() if line.startswith("ragixd: ")]
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and len(lines) == 1, proc.stderr
    return lines[0]


def test_an_endpoint_naming_the_homes_database_is_refused_and_the_memory_is_kept(tmp_path):
    d = Daemon(tmp_path / "home").start()
    kept = d.client().write(title="precious", content="my only copy")["id"]
    d.stop()
    env = {**d.env, "RAGIX_ENDPOINT": f"ipc://{d.home / 'ragix.db'}"}
    line = _one_line(_start(env))
    assert "ragix.db is a file that is not a socket" in line
    assert (d.home / "ragix.db").is_file()
    again = Daemon(d.home).start()
    assert [i["id"] for i in again.client().read(kept)["items"]] == [kept]
    again.stop()


def test_a_plain_file_or_directory_at_the_socket_path_is_left_alone(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    (tmp_path / "notes.txt").write_text("hello")
    (tmp_path / "adir").mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAGIX_")}
    env.update(XDG_CONFIG_HOME=str(tmp_path / "config"), RAGIX_HOME=str(home))
    assert "not a socket" in _one_line(_start({**env, "RAGIX_ENDPOINT": f"ipc://{tmp_path / 'notes.txt'}"}))
    assert (tmp_path / "notes.txt").read_text() == "hello"
    assert "is a directory" in _one_line(_start({**env, "RAGIX_ENDPOINT": f"ipc://{tmp_path / 'adir'}"}))
    assert (tmp_path / "adir").is_dir()


def test_a_stopping_daemon_leaves_another_daemons_socket_at_the_same_path(tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    endpoint = f"ipc://{run / 'd.sock'}"
    first = Daemon(tmp_path / "a", extra_env={"RAGIX_ENDPOINT": endpoint})
    first.endpoint = endpoint
    first.start()
    shutil.rmtree(run)  # the runtime directory wiped under a running daemon
    run.mkdir()
    second = Daemon(tmp_path / "b", extra_env={"RAGIX_ENDPOINT": endpoint})
    second.endpoint = endpoint
    second.start()
    first.stop()
    assert (run / "d.sock").exists()
    assert second.client().status()["head_seq"] == 0
    second.stop()
    assert not (run / "d.sock").exists()  # its own socket it does remove


def _start_on_a_taken_port(tmp_path) -> tuple[str, int, Daemon]:
    """Start a daemon whose tcp_endpoint is a port another socket holds: its one line, the
    port, and the daemon (not started)."""
    home = tmp_path / "home"
    home.mkdir()
    _, secret_file = make_keys(home / "keys", "server")
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    config = tmp_path / "ragixd.toml"
    config.write_text(f'tcp_endpoint = "tcp://127.0.0.1:{port}"\ncurve_secret_key_file = "{secret_file}"\n')
    d = Daemon(home, extra_env={"RAGIX_CONFIG": str(config)})
    try:
        return _one_line(_start(d.env)), port, d
    finally:
        taken.close()


def test_a_tcp_port_already_taken_is_one_line_and_exit_2(tmp_path):
    line, port, _ = _start_on_a_taken_port(tmp_path)
    assert f"cannot listen on tcp://127.0.0.1:{port}" in line and "in use" in line


def test_a_failed_start_leaves_no_socket_file(tmp_path):
    _, _, d = _start_on_a_taken_port(tmp_path)
    assert not (d.home / "ragixd.sock").exists()


def test_an_event_stream_path_too_long_to_bind_is_one_line_and_exit_2(tmp_path):
    """The event stream's socket (`…-events.sock`) is bound on the writer's thread: its failure
    once left a daemon serving without a stream."""
    deep = tmp_path / ("d" * max(1, 100 - len(str(tmp_path)) - len("/x.sock")))
    deep.mkdir()
    main = deep / "x.sock"
    assert len(str(main)) <= 104 and len(str(main)) + len("-events") > 107
    home = tmp_path / "home"
    env = {**Daemon(home).env, "RAGIX_ENDPOINT": f"ipc://{main}"}
    line = _one_line(_start(env))
    assert "cannot listen on ipc://" in line and "-events" in line
    assert not main.exists()
