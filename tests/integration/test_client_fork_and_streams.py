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


# -- ragixctl and a closed output pipe ----------------------------------------------------------

def test_a_failure_whose_output_pipe_is_closed_keeps_its_exit_code(daemon, tmp_path):
    """`| true` closes the pipe before ragixctl writes: the error must still exit 1 or 3 (it
    exited 0, as a success would) and still be said on stderr."""
    missing = ctl_shell(daemon, "--json read MEM-00000000 | true")
    assert missing.returncode == 1, missing.stderr
    assert b"not_found" in missing.stderr and b"Traceback" not in missing.stderr
    down = subprocess.run(["bash", "-c", f"{sys.executable} -m ragix_client.ctl --endpoint ipc://{tmp_path}/no.sock "
                           "--json status | true; exit ${PIPESTATUS[0]}"], capture_output=True, timeout=60)
    assert down.returncode == 3 and b"unavailable" in down.stderr and b"Traceback" not in down.stderr
    human = ctl_shell(daemon, "read MEM-00000000 | true")
    assert human.returncode == 1 and b"Traceback" not in human.stderr


def test_a_success_whose_output_pipe_is_closed_still_ends_quietly_with_0(daemon):
    daemon.client().write(title="deploy window", content="Fridays 14-16h")
    for command in ("--json search deploy | true", "status | true", "--json verify | true"):
        proc = ctl_shell(daemon, command)
        assert proc.returncode == 0 and proc.stderr == b"", (command, proc.stderr)


def test_tail_stops_when_its_reader_goes_away_even_while_no_event_comes(daemon):
    """`ragixctl tail | head -1`: head leaves after the first event; tail used to notice only
    when it wrote the next one, so on a quiet daemon it never ended."""
    c = daemon.client()
    c.write(title="the one event", content="head takes it and leaves")
    proc = subprocess.Popen(["bash", "-c", f"{sys.executable} -m ragix_client.ctl --endpoint {daemon.endpoint} "
                             "tail --from 0 | head -1; exit ${PIPESTATUS[0]}"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        out, err = proc.communicate(timeout=60)  # a hang guard, not a measure
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    assert b"item.created" in out and b"Traceback" not in err


# -- ragixctl and closed standard streams -------------------------------------------------------

@pytest.mark.parametrize("command", ["write --title T --content -", "pull", "propose", "parse", "import"])
def test_a_closed_standard_input_is_a_usage_error_not_a_traceback(daemon, command):
    proc = ctl_shell(daemon, f"{command} <&-")
    assert proc.returncode == 2, proc.stderr
    assert b"Traceback" not in proc.stderr and b"standard input is closed" in proc.stderr


def test_a_closed_standard_output_is_no_traceback_and_keeps_the_exit_code(daemon):
    ok = ctl_shell(daemon, "status >&-")
    assert ok.returncode == 0 and b"Traceback" not in ok.stderr, ok.stderr
    missing = ctl_shell(daemon, "read MEM-00000000 >&-")
    assert missing.returncode == 1 and b"Traceback" not in missing.stderr


def test_a_closed_standard_error_never_sends_messages_to_standard_output(daemon):
    """print(file=None) writes to stdout: with stderr closed, the error line landed after the
    --json document, which was then no longer valid JSON."""
    import json
    proc = ctl_shell(daemon, "--json read MEM-00000000 2>&-")
    assert proc.returncode == 1
    assert json.loads(proc.stdout)["error"]["code"] == "not_found"
    written = ctl_shell(daemon, "write --title T --content 'kept as is' --type nosuchtype 2>&-")
    assert written.returncode == 0 and written.stdout.decode().strip().startswith("MEM-")
    assert len(written.stdout.decode().split()) == 1, written.stdout  # the bare id, no note


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
def test_output_in_a_locale_that_cannot_hold_the_text_is_escaped_not_a_traceback(daemon, encoding):
    """A stdout whose encoding cannot hold a stored title (PYTHONIOENCODING, a latin-1 locale):
    a UnicodeEncodeError traceback before. --json stays valid JSON holding the exact text (JSON's
    own \\u escapes); human output shows the characters as escapes."""
    import json
    written = daemon.client().write(title="snow \u2603 \U0001f600 caf\u00e9", content="winter")
    env = {**os.environ, "PYTHONIOENCODING": encoding}
    as_json = subprocess.run([*CTL, "--endpoint", daemon.endpoint, "--json", "read", written["id"]],
                             capture_output=True, timeout=60, env=env)
    assert as_json.returncode == 0 and b"Traceback" not in as_json.stderr, as_json.stderr
    assert json.loads(as_json.stdout.decode(encoding))["items"][0]["title"] == "snow \u2603 \U0001f600 caf\u00e9"
    human = subprocess.run([*CTL, "--endpoint", daemon.endpoint, "read", written["id"]],
                           capture_output=True, timeout=60, env=env)
    assert human.returncode == 0 and b"Traceback" not in human.stderr, human.stderr
    assert b"\\u2603" in human.stdout


def test_output_that_cannot_be_written_is_one_line_and_leaves_no_partial_export(daemon, tmp_path):
    """A full disk or a file size limit (here `ulimit -f 1`: 1 KiB) under stdout or `export -o`:
    an OSError traceback before, and `export -o` left its `.partial` file behind."""
    c = daemon.client()
    for n in range(8):
        c.write(title=f"note {n}", content=f"a memory long enough to fill a line of the export, number {n}")
    backup = tmp_path / "backup.jsonl"
    backup.write_text("the earlier backup\n")
    ctl = f"{sys.executable} -m ragix_client.ctl --endpoint {daemon.endpoint}"
    for command in (f"{ctl} export > {tmp_path / 'out.jsonl'}", f"{ctl} export -o {backup}",
                    f"{ctl} --json search note > {tmp_path / 'hits.json'}"):
        proc = subprocess.run(["bash", "-c", f"ulimit -f 1; {command}"], capture_output=True, timeout=60)
        assert proc.returncode == 1, (command, proc.stderr)
        assert b"Traceback" not in proc.stderr and b"File too large" in proc.stderr, (command, proc.stderr)
        assert len(proc.stderr.decode().strip().splitlines()) == 1, proc.stderr
    assert backup.read_text() == "the earlier backup\n"
    assert not [p.name for p in tmp_path.iterdir() if p.name.endswith(".partial")]


def test_json_output_stays_utf8_when_an_argument_was_not(tmp_path):
    """A path given in bytes that are not UTF-8 (here the endpoint's) is repeated in the error:
    --json wrote its raw byte, so stdout was not UTF-8 and not JSON to a strict reader."""
    import json
    endpoint = b"ipc://" + bytes(tmp_path) + b"/\xff.sock"
    proc = subprocess.run([*CTL, "--endpoint", endpoint, "--json", "status"], capture_output=True, timeout=60)
    assert proc.returncode == 3 and b"Traceback" not in proc.stderr
    assert json.loads(proc.stdout.decode("utf-8"))["error"]["code"] == "unavailable"


def test_json_without_a_command_is_the_error_shape_not_the_help_text(capsys):
    """README: with --json an error is printed on stdout as {"ok": false, "error": …}; a missing
    command (exit 2, a usage error) printed the help text there instead."""
    import json
    from ragix_client import ctl
    assert ctl.main(["--json"]) == 2
    out, err = capsys.readouterr()
    assert json.loads(out)["error"]["code"] == "invalid_input" and "--help" in err
    assert ctl.main([]) == 2  # without --json: the help, as before
    assert "usage: ragixctl" in capsys.readouterr().out
