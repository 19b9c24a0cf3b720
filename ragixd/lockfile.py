"""An exclusive lock on a file, so two daemons never open the same home or endpoint."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from .errors import ConfigError


class LockFile:
    def __init__(self, path: Path, what: str) -> None:
        self.path = path
        self.what = what
        self.fd: int | None = None

    def acquire(self) -> "LockFile":
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as e:
            # A read-only or missing place (`ipc:///proc/x.sock`): one line, not a traceback.
            raise ConfigError(f"{self.what}: cannot create the lock file {self.path}: {e.strerror or e}",
                              path=str(self.path)) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 32).decode(errors="replace").strip() or "?"
            os.close(fd)
            raise ConfigError(f"another ragixd (pid {holder}) is already using {self.what}",
                              path=str(self.path)) from None
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
        self.fd = fd
        return self

    def release(self) -> None:
        if self.fd is not None:
            fcntl.flock(self.fd, fcntl.LOCK_UN)
            os.close(self.fd)
            self.fd = None
