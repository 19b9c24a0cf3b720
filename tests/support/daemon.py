"""Start a real ragixd on a temporary home and a private ipc endpoint; poll until it answers.

The daemon runs through checked_ragixd.py: each answer and published event it sends is checked
against schemas/, and after each test conftest.py fails it on any mismatch (and on any event of
its log that does not match)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from ragix_client import Client
from ragixd.errors import RagixError

ROOT = Path(__file__).resolve().parents[2]
CHECKED = Path(__file__).resolve().parent / "checked_ragixd.py"


class Daemon:
    started: list["Daemon"] = []  # every daemon started since the current test began

    def __init__(self, home: Path, extra_env: dict[str, str] | None = None, args: list[str] | None = None,
                 checked: bool = True) -> None:
        self.home = Path(home)
        # Benchmarks run the daemon itself: the contract check costs time on every answer.
        self.program = [str(CHECKED)] if checked else ["-m", "ragixd.daemon"]
        self.home.mkdir(parents=True, exist_ok=True)
        self.endpoint = f"ipc://{self.home / 'ragixd.sock'}"
        self.env = {**os.environ, "RAGIX_HOME": str(self.home), "RAGIX_ENDPOINT": self.endpoint,
                    "XDG_CONFIG_HOME": str(self.home / "config"), **(extra_env or {})}
        self.args = args or []
        self.proc: subprocess.Popen | None = None
        self.log_path = self.home / "ragixd.log"
        # Beside the home, not in it: tests look at what a daemon leaves in its home.
        self.contract_log = self.home.parent / f"{self.home.name}.contract-problems"
        self.env["RAGIX_TEST_CONTRACT_LOG"] = str(self.contract_log)

    def start(self, timeout: float = 120.0) -> "Daemon":
        # A deadline, not a measure: a start on a loaded 2-core machine can take 20 s and more
        # (the policy's native databases are compiled by the test session first: conftest).
        log = open(self.log_path, "ab")
        self.proc = subprocess.Popen([sys.executable, *self.program, *self.args], env=self.env,
                                     stdout=log, stderr=log, cwd=ROOT)
        Daemon.started.append(self)
        log.close()
        try:
            self.wait_ready(timeout)
        except BaseException:
            self.kill()  # a daemon that did not become ready is not left running after the test
            raise
        return self

    def wait_ready(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        client = Client(self.endpoint, timeout=0.5)
        try:
            while time.monotonic() < deadline:
                if self.proc.poll() is not None:
                    raise RuntimeError(f"ragixd exited with {self.proc.returncode}: {self.log()}")
                try:
                    client.status()
                    return
                except RagixError:
                    # Not bound yet: the answer is at once, so without a pause this loop would
                    # take a whole core from the daemon it waits for (~80,000 tries a start).
                    time.sleep(0.005)
            raise RuntimeError(f"ragixd did not become ready: {self.log()}")
        finally:
            client.close()

    def client(self, timeout: float = 30.0) -> Client:
        return Client(self.endpoint, timeout=timeout)

    def contract_problems(self) -> list[str]:
        """Answers and events of this daemon that did not match schemas/: what it sent, and its log."""
        from .contract_check import log_problems, recorded
        return recorded(self.contract_log) + log_problems(self.home / "ragix.db")

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-4000:] if self.log_path.exists() else ""

    def log_events(self, name: str) -> list[dict]:
        """The JSON log lines of this daemon whose event is `name`, in order."""
        found = []
        for line in self.log_path.read_text(errors="replace").splitlines():
            try:
                event = json.loads(line)
            except ValueError:
                continue
            if isinstance(event, dict) and event.get("event") == name:
                found.append(event)
        return found

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 20.0) -> int:
        if self.proc is None or self.proc.poll() is not None:
            return self.proc.returncode if self.proc else 0
        self.proc.send_signal(sig)
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait()

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def ollama_daemon(home: Path, url: str) -> Daemon:
    """A started daemon whose serving embedder is the Ollama server at `url` (a fake one)."""
    config = Path(home) / "config" / "ragix"
    config.mkdir(parents=True, exist_ok=True)
    (config / "ragixd.toml").write_text(f'[embedder]\nbackend = "ollama"\nurl = "{url}"\ntimeout = 30\n')
    return Daemon(home).start()


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now (for a daemon's CURVE endpoint)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_ctl(daemon: Daemon, capsys, *args: str) -> tuple[int, str, str]:
    """ragixctl ARGS in process against `daemon`: (exit code, stdout, stderr)."""
    from ragix_client import ctl
    code = ctl.main(["--endpoint", daemon.endpoint, *args])
    out, err = capsys.readouterr()
    return code, out, err
