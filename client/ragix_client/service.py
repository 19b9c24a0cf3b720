"""Installing the systemd user unit: write it, reload systemd, report what happened."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Mapping

from ragixd import config, paths
from ragixd.errors import RagixError

UNIT_NAME = "ragixd.service"
TEMPLATE = Path(__file__).resolve().parents[2] / "systemd" / UNIT_NAME


def default_unit_dir(env: Mapping[str, str] = os.environ) -> Path:
    return Path(env.get("XDG_CONFIG_HOME") or Path.home() / ".config") / "systemd" / "user"


def render_unit(ragixd_path: str | None = None, env: Mapping[str, str] = os.environ) -> str:
    """The unit text with ExecStart pointing at this installation's ragixd, and the data home
    and cache the daemon will use here ($RAGIX_HOME, $XDG_DATA_HOME, $XDG_CACHE_HOME) writable
    in the sandbox."""
    beside = Path(sys.executable).with_name("ragixd")  # this installation's, first: not another on PATH
    exe = ragixd_path or (str(beside) if beside.exists() else shutil.which("ragixd") or str(beside))
    home = _data_home(env)
    environment = _environment("RAGIX_HOME", str(home)) if env.get("RAGIX_HOME") else ""
    writable = _unit_path(home)
    socket_dir = _socket_dir(env)
    if socket_dir is not None:  # RAGIX_ENDPOINT as this shell has it: the service listens there too
        socket = socket_dir / Path(env["RAGIX_ENDPOINT"][len("ipc://"):]).name
        environment += _environment("RAGIX_ENDPOINT", f"ipc://{socket}")  # absolute: its cwd is not ours
        if not socket_dir.is_relative_to(home):
            # '-': a directory emptied since (a runtime dir at logout) must not fail the start;
            # ragixd makes it again
            writable += " -" + _unit_path(socket_dir)
    elif env.get("RAGIX_ENDPOINT", "").startswith("ipc://@"):  # abstract: a name, no directory
        environment += _environment("RAGIX_ENDPOINT", env["RAGIX_ENDPOINT"])
    unit = (TEMPLATE.read_text().replace("@RAGIXD@", exe).replace("@ENVIRONMENT@", environment)
            .replace("@DATA_HOME@", writable).replace("@CACHE_DIR@", _unit_path(paths.cache_dir(env))))
    if any(_temporary(p) for p in (home, socket_dir) if p is not None):
        # a private /tmp would hide the home or the socket from everyone but the service
        unit = unit.replace("PrivateTmp=yes", "PrivateTmp=no")
    return unit


def _unit_path(path: Path) -> str:
    """A path as a unit file takes it, the home directory as %h where it can be ('%' of its own
    doubled: it is systemd's specifier character; quoted if it holds a space)."""
    try:
        text = "%h/" + path.relative_to(Path.home()).as_posix().replace("%", "%%")
    except ValueError:
        text = str(path).replace("%", "%%")
    return f'"{text}"' if " " in text else text


def _environment(name: str, value: str) -> str:
    return f'Environment="{name}={value.replace("%", "%%")}"\n'


def _socket_dir(env: Mapping[str, str]) -> Path | None:
    """The directory of an ipc endpoint given in RAGIX_ENDPOINT (None: none given, or TCP)."""
    endpoint = env.get("RAGIX_ENDPOINT", "")
    if not endpoint.startswith("ipc://"):
        return None
    path = endpoint[len("ipc://"):]
    if not path or path.startswith("@"):  # an abstract socket has no directory
        return None
    return Path(path).expanduser().absolute().parent


def _temporary(path: Path) -> bool:
    return path.is_relative_to("/tmp") or path.is_relative_to("/var/tmp")


def _data_home(env: Mapping[str, str]) -> Path:
    """The home the daemon will use, read as it reads it: RAGIX_HOME, else the config file's
    `home` (as `ragixctl init --home` writes it), else the default."""
    if env.get("RAGIX_HOME"):
        return Path(env["RAGIX_HOME"]).expanduser().resolve()
    try:
        return Path(config.resolve({}, env).home).expanduser().resolve()
    except RagixError:  # a config the daemon would refuse: it says why at its start
        return paths.data_home(env)


def _systemctl(*args: str) -> tuple[bool, str]:
    if shutil.which("systemctl") is None:
        return False, "systemctl not found"
    try:
        proc = subprocess.run(["systemctl", "--user", *args], capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired) as e:
        return False, str(e)
    return proc.returncode == 0, (proc.stdout + proc.stderr).strip()


def _ours(unit_dir: Path | None) -> bool:
    """Whether the unit directory is the one systemd reads (else systemctl is left alone: a
    copy written elsewhere must not start, stop or report the user's real service)."""
    return unit_dir is None or Path(unit_dir).expanduser().resolve() == default_unit_dir().resolve()


def install(unit_dir: Path | None = None) -> dict[str, Any]:
    target = (unit_dir or default_unit_dir()) / UNIT_NAME
    # The unit makes the data home writable, which systemd can only do for a directory that
    # exists: a first start before any `ragixctl init` would fail with 226/NAMESPACE.
    paths.make_home(_data_home(os.environ))
    # The cache (compiled policy databases, the vector scan's compiled loops) likewise: a
    # missing one is skipped by the unit ('-'), and ragixd would then recompile at every start.
    paths.cache_dir().mkdir(parents=True, exist_ok=True)
    socket_dir = _socket_dir(os.environ)
    if socket_dir is not None:  # made writable by the unit, which needs it to exist
        socket_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    target.parent.mkdir(parents=True, exist_ok=True)
    unit = render_unit()
    target.write_text(unit)
    if not _ours(unit_dir):
        result = {"ok": True, "unit": str(target), "daemon_reload": False,
                  "next": f"not a directory systemd reads: copy {target} to {default_unit_dir()} to use it"}
    else:
        reloaded, message = _systemctl("daemon-reload")
        result = {"ok": True, "unit": str(target), "daemon_reload": reloaded,
                  "next": "systemctl --user enable --now ragixd" if reloaded else
                  "systemctl --user daemon-reload && systemctl --user enable --now ragixd"}
        if not reloaded:
            result["systemctl"] = message
    exe = next(line.split("=", 1)[1] for line in unit.splitlines() if line.startswith("ExecStart="))
    if exe.startswith(("/tmp/", "/var/tmp/")):
        result["warning"] = f"ragixd is under a temporary directory ({exe}), which PrivateTmp=yes hides from it"
    return result


def uninstall(unit_dir: Path | None = None) -> dict[str, Any]:
    target = (unit_dir or default_unit_dir()) / UNIT_NAME
    existed = target.exists()
    if existed:
        if _ours(unit_dir):
            _systemctl("disable", "--now", UNIT_NAME)
        target.unlink()
        if _ours(unit_dir):
            _systemctl("daemon-reload")
    return {"ok": True, "unit": str(target), "removed": existed}


def status(unit_dir: Path | None = None) -> dict[str, Any]:
    target = (unit_dir or default_unit_dir()) / UNIT_NAME
    if not _ours(unit_dir):  # systemd does not read it: no service of it to ask about
        return {"ok": True, "unit": str(target), "installed": target.exists(), "active": False,
                "systemctl": "not asked: not a directory systemd reads"}
    active, text = _systemctl("is-active", UNIT_NAME)
    # is-active fails for a unit that is not running: only an answer outside its states is an error.
    answered = text in ("active", "inactive", "failed", "activating", "deactivating", "reloading")
    return {"ok": answered, "unit": str(target), "installed": target.exists(), "active": active,
            "systemctl": text}
