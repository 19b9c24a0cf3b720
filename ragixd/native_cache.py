"""A directory of compiled policy databases shared by daemon starts (the I/O side of
ragixd.domain.policy.native.DatabaseCache). Best effort: any error means compile instead."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


class DirectoryCache:
    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def get(self, key: str) -> bytes | None:
        try:
            return (self.directory / f"{key}.hsdb").read_bytes()
        except OSError:
            return None

    def put(self, key: str, data: bytes) -> None:
        try:
            self.directory.mkdir(parents=True, exist_ok=True, mode=0o700)
            fd, tmp = tempfile.mkstemp(dir=self.directory, prefix=".tmp-")
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, self.directory / f"{key}.hsdb")  # readers see all of it or none
        except OSError:
            return
