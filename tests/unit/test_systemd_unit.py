"""The systemd user unit: required keys, and systemd-analyze's verdict where it is available."""

import configparser
import shutil
import subprocess

import pytest

from ragix_client import service


def parsed_unit(env=None):
    parser = configparser.ConfigParser(strict=False, interpolation=None, delimiters=("=",))
    parser.optionxform = str
    parser.read_string(service.render_unit("/usr/local/bin/ragixd", env=env or {}))
    return parser


def test_unit_has_the_keys_we_rely_on():
    unit = parsed_unit()
    svc = unit["Service"]
    assert svc["Type"] == "notify"
    assert svc["Restart"] == "on-failure"
    assert int(svc["WatchdogSec"]) > 0
    assert svc["ExecStart"] == "/usr/local/bin/ragixd"
    for key in ("NoNewPrivileges", "PrivateTmp"):
        assert svc[key] == "yes"
    assert svc["ProtectSystem"] == "strict"
    assert "%h/.local/share/ragix" in svc["ReadWritePaths"]
    assert unit["Install"]["WantedBy"] == "default.target"


def test_unit_follows_the_data_home_the_daemon_will_use(tmp_path):
    svc = parsed_unit({"RAGIX_HOME": str(tmp_path / "mem"), "XDG_CACHE_HOME": str(tmp_path / "cache")})["Service"]
    assert svc["ReadWritePaths"].split() == [str(tmp_path / "mem"), f"-{tmp_path / 'cache' / 'ragix'}"]
    assert f"RAGIX_HOME={tmp_path / 'mem'}" in svc["Environment"]
    assert "@" not in service.render_unit("/usr/local/bin/ragixd", env={})


def test_the_socket_directory_is_made_by_systemd_at_each_start():
    """$XDG_RUNTIME_DIR is a fresh tmpfs at every login, and a ReadWritePaths= entry that does
    not exist fails the start (status 226/NAMESPACE): systemd makes the socket's directory."""
    svc = parsed_unit()["Service"]
    assert svc["RuntimeDirectory"] == "ragix"
    assert svc["RuntimeDirectoryMode"] == "0700"
    assert not any(path.startswith("%t") for path in svc["ReadWritePaths"].split())


def test_install_makes_the_data_home_and_cache_the_unit_needs(tmp_path, monkeypatch):
    """The data home is a ReadWritePaths= entry that must exist before the first start; the
    cache (where numba keeps the vector scan's compiled loops) is one too, skipped if missing."""
    monkeypatch.setenv("RAGIX_HOME", str(tmp_path / "mem"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    service.install(tmp_path / "units")
    unit = (tmp_path / "units" / "ragixd.service").read_text()
    assert (tmp_path / "mem").is_dir() and (tmp_path / "cache" / "ragix").is_dir()
    assert f"ReadWritePaths={tmp_path / 'mem'} -{tmp_path / 'cache' / 'ragix'}" in unit
    # the vector scan's loops are JIT-compiled, which MemoryDenyWriteExecute= forbids
    assert "MemoryDenyWriteExecute" not in parsed_unit()["Service"]


def test_systemd_analyze_accepts_the_unit(tmp_path):
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed; the key checks above still apply")
    fake = tmp_path / "ragixd"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(0o755)
    unit = tmp_path / "ragixd.service"
    unit.write_text(service.render_unit(str(fake)))
    # System mode: a user manager is not running in CI; the unit's syntax is checked the same.
    proc = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True)
    if "Failed to initialize manager" in proc.stderr:
        pytest.skip(f"systemd-analyze cannot run here: {proc.stderr.strip()}")
    assert proc.returncode == 0, proc.stderr
    complaints = [line for line in proc.stderr.splitlines() if "ragixd.service" in line]
    assert complaints == [], proc.stderr


def test_systemd_analyze_would_catch_a_bad_key(tmp_path):
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed")
    unit = tmp_path / "ragixd.service"
    unit.write_text(service.render_unit("/bin/true").replace("WatchdogSec=", "WatchdogSecs="))
    proc = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True)
    if "Failed to initialize manager" in proc.stderr:
        pytest.skip("systemd-analyze cannot run here")
    assert "WatchdogSecs" in proc.stderr


def test_install_and_uninstall_write_and_remove_the_unit(tmp_path, monkeypatch):
    monkeypatch.setenv("RAGIX_HOME", str(tmp_path / "home"))  # install makes it
    result = service.install(tmp_path)
    target = tmp_path / "ragixd.service"
    assert result["unit"] == str(target) and target.exists()
    assert "Type=notify" in target.read_text() and "@RAGIXD@" not in target.read_text()
    assert service.status(tmp_path)["installed"] is True
    assert service.uninstall(tmp_path)["removed"] is True and not target.exists()


def test_the_unit_follows_a_home_set_in_the_config_file(tmp_path, monkeypatch):
    """`ragixctl init --home D` writes the home into the config file: the unit makes that one
    writable, not the default the daemon would not use."""
    config = tmp_path / "ragixd.toml"
    config.write_text(f'home = "{tmp_path / "data"}"\n')
    monkeypatch.delenv("RAGIX_HOME", raising=False)
    monkeypatch.setenv("RAGIX_CONFIG", str(config))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    svc = configparser.ConfigParser(strict=False, interpolation=None)
    svc.read_string(service.render_unit("/usr/local/bin/ragixd"))
    assert svc["Service"]["ReadWritePaths"].split()[0] == str(tmp_path / "data")


def test_a_unit_written_outside_systemds_directory_leaves_systemctl_alone(tmp_path, monkeypatch):
    calls = []
    monkeypatch.setattr(service, "_systemctl", lambda *args: calls.append(args) or (True, "active"))
    monkeypatch.setenv("RAGIX_HOME", str(tmp_path / "home"))
    result = service.install(tmp_path / "copy")
    assert "not a directory systemd reads" in result["next"]
    assert service.status(tmp_path / "copy")["active"] is False
    assert service.uninstall(tmp_path / "copy")["removed"] is True
    assert calls == []  # the user's real ragixd.service was not reloaded, stopped or asked about


def test_the_unit_listens_where_this_shell_points_and_shares_tmp_when_it_lives_there(tmp_path, monkeypatch):
    """RAGIX_ENDPOINT set when the unit is installed is the service's too (else clients using it
    would find no daemon), its socket directory is writable in the sandbox; a home or socket
    under /tmp needs the real /tmp, not a private one."""
    home = tmp_path / "mem"
    sock_dir = tmp_path / "sockets"
    env = {"RAGIX_HOME": str(home), "RAGIX_ENDPOINT": f"ipc://{sock_dir}/ragixd.sock"}
    svc = parsed_unit(env)["Service"]
    assert f"RAGIX_ENDPOINT=ipc://{sock_dir}/ragixd.sock" in svc["Environment"]
    assert f"-{sock_dir}" in svc["ReadWritePaths"].split()  # "-": a dir emptied since is no failure
    assert svc["PrivateTmp"] == ("no" if str(tmp_path).startswith(("/tmp/", "/var/tmp/")) else "yes")
    inside = parsed_unit({"RAGIX_HOME": "/srv/mem", "RAGIX_ENDPOINT": "ipc:///srv/mem/d.sock"})["Service"]
    assert [p for p in inside["ReadWritePaths"].split() if not p.startswith("-")] == ["/srv/mem"]
    assert inside["PrivateTmp"] == "yes"
    assert parsed_unit({"RAGIX_HOME": "/tmp/ragix-try"})["Service"]["PrivateTmp"] == "no"
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    service.install(tmp_path / "units")
    assert sock_dir.is_dir() and home.is_dir()


def test_odd_endpoints_become_absolute_and_escaped_in_the_unit(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    svc = parsed_unit({"RAGIX_HOME": "/srv/mem", "RAGIX_ENDPOINT": "ipc://./rel.sock"})["Service"]
    assert f'"RAGIX_ENDPOINT=ipc://{tmp_path}/rel.sock"' in svc["Environment"]
    odd = parsed_unit({"RAGIX_HOME": "/srv/mem", "RAGIX_ENDPOINT": "ipc:///srv/my dir/r%d.sock"})["Service"]
    assert '"RAGIX_ENDPOINT=ipc:///srv/my dir/r%%d.sock"' in odd["Environment"]
    assert '-"/srv/my dir"' in odd["ReadWritePaths"]
    abstract = parsed_unit({"RAGIX_HOME": "/srv/mem", "RAGIX_ENDPOINT": "ipc://@ragix"})["Service"]
    assert "RAGIX_ENDPOINT=ipc://@ragix" in abstract["Environment"] and abstract["PrivateTmp"] == "yes"
    assert [p for p in abstract["ReadWritePaths"].split() if not p.startswith("-")] == ["/srv/mem"]
