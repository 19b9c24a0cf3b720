"""A directory of compiled policy databases shared by daemon starts (the I/O side of
ragixd.domain.policy.native.DatabaseCache). Best effort: any error means compile instead.

Each rule set's databases take tens of megabytes, and a new rule set (an upgrade, other
configured rules) writes new ones; so an entry is touched when read, and `prune` removes the
entries no start has read for a month (and temporary files a crash left behind)."""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

UNUSED_DAYS = 30


class DirectoryCache:
    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def get(self, key: str) -> bytes | None:
        path = self.directory / f"{key}.hsdb"
        try:
            data = path.read_bytes()
        except OSError:
            return None
        try:
            os.utime(path)  # in use: kept by `prune`
        except OSError:
            pass
        return data

    def put(self, key: str, data: bytes) -> None:
        try:
            self.directory.mkdir(parents=True, exist_ok=True, mode=0o700)
            fd, tmp = tempfile.mkstemp(dir=self.directory, prefix=".tmp-")
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, self.directory / f"{key}.hsdb")  # readers see all of it or none
        except OSError:
            return

    def prune(self, unused_days: float = UNUSED_DAYS, now: float | None = None) -> int:
        """Remove entries not read or written for `unused_days`, and temporary files older
        than a day; returns how many files went."""
        now = time.time() if now is None else now
        removed = 0
        try:
            paths = list(self.directory.iterdir())
        except OSError:
            return 0
        for path in paths:
            if path.suffix == ".hsdb":
                limit = unused_days * 86400
            elif path.name.startswith(".tmp-"):
                limit = 86400
            else:
                continue  # not ours
            try:
                if now - path.stat().st_mtime > limit:
                    path.unlink()
                    removed += 1
            except OSError:
                continue
        return removed
