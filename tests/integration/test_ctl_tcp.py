"""ragixctl over TCP with CURVE, as a user meets it: the README's example, and the mistakes
(no server key, a wrong server key, a client key the daemon does not admit) said at once."""

import re
import shlex
from pathlib import Path

import pytest
import zmq

from ragix_client import ctl
from ragixd.curve import make_keys
from support.daemon import ROOT, Daemon, free_port


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


def tcp_run(capsys, endpoint, *args):
    code = ctl.main(["--endpoint", endpoint, "--timeout", "20", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_tcp_endpoint_without_a_server_key_is_refused_at_once(tcp, capsys, monkeypatch):
    endpoint, _keys, _daemon = tcp
    monkeypatch.delenv("RAGIX_SERVER_KEY", raising=False)
    monkeypatch.delenv("RAGIX_CLIENT_KEY", raising=False)
    code, _, err = tcp_run(capsys, endpoint, "search", "x")
    assert code == 2 and "--server-key" in err and "is the daemon running" not in err


def test_a_wrong_server_key_is_said_to_be_a_refused_handshake(tcp, capsys):
    endpoint, keys, _daemon = tcp
    code, _, err = tcp_run(capsys, endpoint, "--server-key", str(keys / "impostor.key"),
                           "--client-key", str(keys / "laptop.key_secret"), "search", "x")
    assert code == 3 and "handshake" in err and "--server-key" in err, err
    assert "is the daemon running" not in err


def test_a_client_key_the_daemon_does_not_admit_is_said_so(tcp, capsys):
    endpoint, keys, _daemon = tcp
    code, _, err = tcp_run(capsys, endpoint, "--server-key", str(keys / "server.key"),
                           "--client-key", str(keys / "stranger.key_secret"), "search", "x")
    assert code == 3 and "handshake" in err and "[trust]" in err, err


def test_the_client_library_raises_the_refused_handshake_as_a_timeout(tcp):
    from ragix_client import Client
    from ragixd.errors import Timeout
    endpoint, keys, _daemon = tcp
    server = zmq.auth.load_certificate(str(keys / "server.key"))[0]
    public, secret = zmq.auth.load_certificate(str(keys / "stranger.key_secret"))
    with Client(endpoint, timeout=20, server_public_key=server, public_key=public, secret_key=secret) as c:
        with pytest.raises(Timeout, match="handshake"):
            c.search("x")
        with pytest.raises(Timeout, match="handshake"):  # a fresh socket, refused again
            c.search("x")
    public, secret = zmq.auth.load_certificate(str(keys / "laptop.key_secret"))
    with Client(endpoint, timeout=20, server_public_key=server, public_key=public, secret_key=secret) as c:
        assert c.search("x")["items"] == []


def test_a_write_quarantined_for_a_caller_below_full_trust_says_so_on_stderr(tcp, capsys):
    endpoint, keys, _daemon = tcp
    code, out, err = tcp_run(capsys, endpoint, "--server-key", str(keys / "server.key"),
                             "--client-key", str(keys / "laptop.key_secret"),
                             "write", "--title", "Standup", "--content", "The standup moved to 9:30.")
    assert code == 0 and re.fullmatch(r"MEM-\w+\n", out)  # stdout keeps its bare id
    assert "was quarantined (tier stm, unverified, expires" in err and out.strip() in err


def test_a_port_where_nothing_listens_is_said_at_once_not_after_the_time_out(tcp, capsys):
    from ragixd.curve import load_keys
    from ragixd.errors import Unavailable
    _endpoint, keys, _daemon = tcp
    nobody = f"tcp://127.0.0.1:{free_port()}"
    code, out, err = tcp_run(capsys, nobody, "--server-key", str(keys / "server.key"),
                             "--client-key", str(keys / "laptop.key_secret"), "status")
    assert code == 3 and "not running" in err and "refuses connections" in err, err
    server_public = load_keys(keys / "server.key")[0]
    public, secret = load_keys(keys / "laptop.key_secret")
    from ragix_client import Client
    client = Client(nobody, timeout=120, server_public_key=server_public, public_key=public, secret_key=secret)
    try:
        with pytest.raises(Unavailable):  # long before its 120 s time-out: the refused connection says it
            client.search("anything")
    finally:
        client.close()
