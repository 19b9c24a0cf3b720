"""TCP with CURVE: keys, the ZAP handler that admits known client keys, and their trust level."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Callable, Mapping

import zmq
import zmq.auth
from zmq.auth.thread import ThreadAuthenticator

from .config import Settings
from .domain.trust import Caller
from .errors import ConfigError, Conflict, InvalidInput

if TYPE_CHECKING:
    from .server import Server


def make_keys(directory: Path, name: str, force: bool = False) -> tuple[Path, Path]:
    """Write a CURVE key pair (name.key public, name.key_secret) into `directory` (mode 0700).
    An existing pair is kept unless `force`: its secret key may be the only copy."""
    if not name or name != Path(name).name or name.startswith("."):
        raise InvalidInput("name", f"{name!r} must be a plain file name (no '/', not starting with '.')")
    if not force and ((directory / f"{name}.key").exists() or (directory / f"{name}.key_secret").exists()):
        raise Conflict(f"a key pair named {name!r} already exists in {directory}; "
                       "keep it, pick another --name, or pass --force to replace it", name=name)
    directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    public, secret = zmq.auth.create_certificates(str(directory), name)
    Path(secret).chmod(0o600)
    return Path(public), Path(secret)


def load_keys(path: Path) -> tuple[bytes, bytes | None]:
    try:
        return zmq.auth.load_certificate(str(path))
    except (OSError, ValueError) as e:
        raise ConfigError(f"cannot load CURVE key file {path}: {e}", path=str(path)) from e


class _TrustMap:
    """Admits the client keys of the trust map in force: read at each handshake from the
    server's current settings, so that a SIGHUP that removes a key stops admitting it."""

    def __init__(self, trust: Callable[[], Mapping[str, str]]) -> None:
        self.trust = trust

    def callback(self, domain: str, key: bytes | str) -> bool:
        text = key.decode() if isinstance(key, bytes) else key
        return text in self.trust()


def curve_router(server: "Server", settings: Settings) -> zmq.Socket:
    if settings.curve_secret_key_file is None:
        raise ConfigError("tcp_endpoint needs curve_secret_key_file (make one with `ragixctl keys`)")
    if not settings.tcp_endpoint.startswith("tcp://127.") and not settings.tcp_endpoint.startswith("tcp://localhost"):
        pass  # binding beyond loopback is the operator's explicit choice; CURVE still applies
    public, secret = load_keys(settings.curve_secret_key_file)
    if secret is None:
        raise ConfigError(f"{settings.curve_secret_key_file} holds no secret key")
    auth = ThreadAuthenticator(server.ctx)
    auth.start()
    auth.configure_curve_callback("ragix", credentials_provider=_TrustMap(lambda: server.settings.trust))
    server.authenticator = auth

    def configure(sock: zmq.Socket) -> None:
        sock.curve_server = True
        sock.curve_publickey = public
        sock.curve_secretkey = secret
        sock.zap_domain = b"ragix"

    return server._router(settings.tcp_endpoint, configure)


def caller_for_frame(frame: zmq.Frame, settings: Settings) -> Caller:
    try:
        user = frame.get("User-Id")
    except zmq.ZMQError:
        user = ""
    return Caller(settings.trust.get(user, "public"), f"curve:{user[:12]}")
