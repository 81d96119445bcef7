"""The native module's stubs match it (mypy's stubtest); `mypy --strict` itself is a step of `.ci/run`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, check=False)


def test_stubs_match_the_native_module() -> None:
    r = run("mypy.stubtest", "blokus._blokus")
    assert r.returncode == 0, r.stdout + r.stderr
