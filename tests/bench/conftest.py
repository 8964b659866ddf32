"""The benchmarks run as their commands do, in a process of their own; a test reads the
figures of their machine-readable last line (`key=value` pairs)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

Report = tuple[str, dict[str, str]]  # all it printed, and its last line's figures


@pytest.fixture
def run_bench() -> Callable[..., Report]:
    """run_bench("tick", "--rooms", "3"): `python -m bench.tick --rooms 3`, which must exit 0."""

    def run(module: str, *args: str, timeout: float = 180) -> Report:
        command = [sys.executable, "-m", f"bench.{module}", *args]
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
        assert done.returncode == 0, done.stdout + done.stderr
        last = done.stdout.strip().splitlines()[-1]
        return done.stdout, dict(item.split("=", 1) for item in last.split())

    return run
