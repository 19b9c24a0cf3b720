"""Session 28's review of the client library and ragixctl against real daemons: a Client used
in a child after fork(), a closed output pipe that must not turn a failure into success nor
keep `tail` running, closed standard streams, an endpoint that is no socket at all, and a
Client's own arguments refused as the documented ConfigError."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from ragix_client import Client
from ragixd.errors import ConfigError

CTL = [sys.executable, "-m", "ragix_client.ctl"]


def ctl_shell(daemon, command: str, timeout: float = 60) -> subprocess.CompletedProcess:
    """`ragixctl --endpoint … COMMAND` through a shell (pipes, closed descriptors); the exit
    code is ragixctl's own (PIPESTATUS), not the last command of a pipeline's."""
    script = f"{sys.executable} -m ragix_client.ctl --endpoint {daemon.endpoint} {command}; exit ${{PIPESTATUS[0]}}"
    return subprocess.run(["bash", "-c", script], capture_output=True, timeout=timeout)


# -- the client library -------------------------------------------------------------------------

def test_a_client_used_in_a_child_after_fork_works_there_and_in_the_parent(daemon):
    """ZeroMQ sockets and contexts do not survive a fork: the child's first call hung for ever
    (past its time-out) on the parent's socket. It now opens sockets of its own."""
    c = daemon.client(timeout=20)
    written = c.write(title="before the fork", content="made by the parent")
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: report on the pipe, never return into pytest
        code = 1
        try:
            os.close(read)
            signal.alarm(60)  # a hang guard: a child that hangs is killed, and the test fails
            got = c.read(written["id"])["items"][0]["title"]
            mine = c.write(title="after the fork", content="made by the child")
            os.write(write, f"{got}|{mine['id']}".encode())
            code = 0
        finally:
            os._exit(code)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        report = pipe.read().decode()
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, f"the child failed or hung: {status}"
    title, child_id = report.split("|")
    assert title == "before the fork"
    assert c.read(child_id)["items"][0]["title"] == "after the fork"  # the parent carries on
    c.close()


KEY = b"k" * 32


@pytest.mark.parametrize("kwargs", [
    {"timeout": "5"}, {"timeout": True}, {"timeout": None}, {"endpoint": 5},
    {"endpoint": "tcp://127.0.0.1:5710", "server_public_key": b"short", "public_key": KEY, "secret_key": KEY},
    {"endpoint": "tcp://127.0.0.1:5710", "server_public_key": "z" * 40, "public_key": KEY, "secret_key": KEY},
    {"endpoint": "tcp://127.0.0.1:5710", "server_public_key": KEY, "public_key": KEY},
])
def test_a_clients_own_arguments_of_the_wrong_kind_are_config_errors(kwargs):
    """As README says of a per-call time-out: not a positive number is a ConfigError (a string
    was a TypeError, True a time-out of one second, an endpoint that is not text an
    AttributeError); so is a CURVE key that is no key (a ZMQError or a TypeError at the
    first call)."""
    with pytest.raises(ConfigError):
        Client(**{"endpoint": "ipc:///tmp/nowhere.sock", **kwargs}).status(timeout=5)


def test_an_endpoint_that_is_a_directory_or_a_plain_file_is_said_to_be_no_socket(tmp_path):
    """Not "a socket file left from a daemon that stopped": no daemon ever listened there."""
    plain = tmp_path / "notes.txt"
    plain.write_text("not a socket")
    for path, what in ((tmp_path, "a directory"), (plain, "a regular file")):
        with pytest.raises(ConfigError) as err:
            Client(f"ipc://{path}", timeout=5).status()
        assert "not a socket" in err.value.message and what in err.value.message
        assert "left from a daemon" not in err.value.message


def test_ragixctl_with_an_endpoint_that_is_no_socket_is_a_usage_error(tmp_path):
    proc = subprocess.run([*CTL, "--endpoint", f"ipc://{tmp_path}", "--json", "status"], capture_output=True,
                          timeout=60)
    assert proc.returncode == 2 and b"not a socket" in proc.stderr and b"Traceback" not in proc.stderr
    assert b'"config_error"' in proc.stdout
