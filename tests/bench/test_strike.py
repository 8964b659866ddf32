"""bench.strike end to end, small: it records a match's strokes, times every stage and
reports. Behaviour, not speed: the last line is there and every figure is a number."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_a_short_strike_bench_reports_every_stage() -> None:
    command = [sys.executable, "-m", "bench.strike", "--matches", "1", "--min-time", "0"]
    run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    last = run.stdout.strip().splitlines()[-1]
    figures = dict(item.split("=", 1) for item in last.split())
    assert int(figures["strokes"]) > 0, last
    for key in ("sim_us", "judge_us", "hash_us", "sim_judge_hash_us", "strike_us"):
        assert float(figures[key]) > 0, last
