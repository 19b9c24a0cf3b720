"""Installing the systemd user unit: write it, reload systemd, report what happened."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

UNIT_NAME = "ragixd.service"
TEMPLATE = Path(__file__).resolve().parents[2] / "systemd" / UNIT_NAME


def default_unit_dir() -> Path:
    return Path.home() / ".config" / "systemd" / "user"


def render_unit(ragixd_path: str | None = None) -> str:
    """The unit text with ExecStart pointing at this installation's ragixd."""
    exe = ragixd_path or shutil.which("ragixd") or str(Path(sys.executable).with_name("ragixd"))
    return TEMPLATE.read_text().replace("@RAGIXD@", exe)


def _systemctl(*args: str) -> tuple[bool, str]:
    if shutil.which("systemctl") is None:
        return False, "systemctl not found"
    try:
        proc = subprocess.run(["systemctl", "--user", *args], capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired) as e:
        return False, str(e)
    return proc.returncode == 0, (proc.stdout + proc.stderr).strip()


def install(unit_dir: Path | None = None) -> dict[str, Any]:
    target = (unit_dir or default_unit_dir()) / UNIT_NAME
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(render_unit())
    reloaded, message = _systemctl("daemon-reload")
    return {"ok": True, "unit": str(target), "daemon_reload": reloaded,
            "next": "systemctl --user enable --now ragixd" if reloaded else message}


def uninstall(unit_dir: Path | None = None) -> dict[str, Any]:
    target = (unit_dir or default_unit_dir()) / UNIT_NAME
    existed = target.exists()
    if existed:
        _systemctl("disable", "--now", UNIT_NAME)
        target.unlink()
        _systemctl("daemon-reload")
    return {"ok": True, "unit": str(target), "removed": existed}


def status(unit_dir: Path | None = None) -> dict[str, Any]:
    target = (unit_dir or default_unit_dir()) / UNIT_NAME
    active, text = _systemctl("is-active", UNIT_NAME)
    return {"ok": True, "unit": str(target), "installed": target.exists(), "active": active,
            "systemctl": text}
