"""ragixctl over TCP with CURVE, as a user meets it: the README's example, and the mistakes
(no server key, a wrong server key, a client key the daemon does not admit) said at once."""

import re
import shlex
import socket
from pathlib import Path

import pytest
import zmq

from ragix_client import ctl
from ragixd.curve import make_keys
from support.daemon import ROOT, Daemon


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def tcp(tmp_path_factory):
    """A daemon on ipc and on tcp://127.0.0.1:PORT that admits laptop.key as inner; the key
    directory also holds an impostor server pair and a stranger pair it does not admit."""
    base = tmp_path_factory.mktemp("tcp")
    keys = base / "keys"
    for name in ("server", "laptop", "impostor", "stranger"):
        make_keys(keys, name)
    laptop = zmq.auth.load_certificate(str(keys / "laptop.key"))[0].decode()
    port = free_port()
    config = base / "ragixd.toml"
    config.write_text(f'tcp_endpoint = "tcp://127.0.0.1:{port}"\n'
                      f'curve_secret_key_file = "{keys / "server.key_secret"}"\n\n[trust]\n"{laptop}" = "inner"\n')
    daemon = Daemon(base / "home", extra_env={"RAGIX_CONFIG": str(config)}).start()
    yield f"tcp://127.0.0.1:{port}", keys, daemon
    daemon.stop()


def readme_tcp_example() -> list[str]:
    text = " ".join((ROOT / "README.md").read_text().split())
    found = re.search(r"`(ragixctl --endpoint tcp://[^`]*)`", text)
    assert found, "the README shows no ragixctl command over tcp://"
    return shlex.split(found.group(1))


def test_the_readmes_tcp_example_works(tcp, capsys):
    endpoint, keys, daemon = tcp
    args = readme_tcp_example()[1:]
    args[args.index("--endpoint") + 1] = endpoint
    for option in ("--server-key", "--client-key"):
        at = args.index(option) + 1
        args[at] = str(keys / Path(args[at]).name)
    code = ctl.main(args)
    out, err = capsys.readouterr()
    assert code == 0, err
