"""Default locations (XDG) for the data home, the config file and the IPC endpoints.

Standard library only: the client imports this to find the daemon the same way it binds.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

from .errors import ConfigError

APP = "ragix"
SOCKET_NAME = "ragixd.sock"
PUB_SOCKET_NAME = "ragixd-events.sock"


def data_home(env: os._Environ | dict = os.environ) -> Path:
    base = env.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / APP


def config_file(env: os._Environ | dict = os.environ) -> Path:
    base = env.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / APP / "ragixd.toml"


def cache_dir(env: os._Environ | dict = os.environ) -> Path:
    base = env.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / APP


def runtime_dir(env: os._Environ | dict = os.environ) -> Path:
    """$XDG_RUNTIME_DIR/ragix, or a private per-user directory under the temp dir."""
    base = env.get("XDG_RUNTIME_DIR")
    if base:
        return Path(base) / APP
    return Path(tempfile.gettempdir()) / f"{APP}-{os.getuid()}"


def ensure_private_dir(path: Path, ours: bool = False) -> Path:
    """Create `path` with mode 0700. An existing directory is made private only when it is
    `ours` (ragix's own default runtime directory); a directory the user named is left as it
    is (the socket inside is made private instead). One owned by someone else is refused
    when it is ours by name."""
    existed = path.is_dir()
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    if existed and not ours:
        return path
    info = path.stat()
    if info.st_uid != os.getuid():
        raise PermissionError(f"{path} is owned by another user")
    if stat.S_IMODE(info.st_mode) & 0o077:
        os.chmod(path, 0o700)
    return path


def check_home(home: Path) -> None:
    """A ConfigError if `home`, or the nearest of its parents that exists, is not a directory
    (checked before anything is written: a home under a file can never be made)."""
    if home.exists() and not home.is_dir():
        what = ": it is a file" if home.is_file() else ""
        raise ConfigError(f"home {home} exists and is not a directory{what}", path=str(home))
    for parent in home.parents:
        if parent.exists():
            if not parent.is_dir():
                raise ConfigError(f"home {home}: cannot create it: {parent} is not a directory", path=str(home))
            return


def make_home(home: Path) -> Path:
    """The data home, created private if missing, or a one-line ConfigError why it cannot be."""
    check_home(home)
    try:
        home.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as e:
        raise ConfigError(f"home {home}: cannot create it: {e.strerror or e}", path=str(home)) from None
    return home


def transport(endpoint: str) -> str | None:
    """"ipc" for ipc:///path, "tcp" for tcp://HOST:PORT, None for anything ragix cannot serve on."""
    if endpoint.startswith("ipc://") and len(endpoint) > len("ipc://"):
        return "ipc"
    host, _, port = endpoint[len("tcp://"):].rpartition(":")
    if endpoint.startswith("tcp://") and host and port.isdigit() and 0 < int(port) < 65536:
        return "tcp"
    return None


def default_endpoint(env: os._Environ | dict = os.environ) -> str:
    return f"ipc://{runtime_dir(env) / SOCKET_NAME}"


def pub_endpoint_for(endpoint: str) -> str | None:
    """The PUB endpoint beside a request endpoint: a sibling socket, or the next TCP port."""
    if endpoint.startswith("ipc://"):
        path = Path(endpoint[len("ipc://"):])
        return f"ipc://{path.with_name(path.stem + '-events' + path.suffix)}"
    if endpoint.startswith("tcp://"):
        host, _, port = endpoint[len("tcp://"):].rpartition(":")
        if port.isdigit():
            return f"tcp://{host}:{int(port) + 1}"
    return None
