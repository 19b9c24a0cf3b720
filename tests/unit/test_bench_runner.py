"""bench/run_all.py: every benchmark it names exists, and a wrong name is refused at once."""

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"


def _runner():
    sys.path.insert(0, str(BENCH))
    try:
        import run_all
    finally:
        sys.path.remove(str(BENCH))
    return run_all


def test_every_benchmark_script_exists():
    for name, (script, _full, _quick) in _runner().BENCHES.items():
        assert (BENCH / script).is_file(), name


def test_an_unknown_benchmark_is_refused_before_anything_runs():
    proc = subprocess.run([sys.executable, str(BENCH / "run_all.py"), "--only", "store,nope"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert "unknown benchmark(s): nope" in proc.stderr
    assert proc.stdout == ""
