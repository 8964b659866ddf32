"""bench.tick, small: it times the clock loop's visits and reports. Behaviour, not speed:
the figures are there, and every room repeated its running clock every 5 s (004 § 26 (4)
is enforced on that clock; the repeat is how clients keep theirs in step)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_a_short_tick_bench_reports_a_visit_and_the_clock_repeats() -> None:
    command = [sys.executable, "-m", "bench.tick", "--rooms", "3", "--passes", "1"]
    run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    last = run.stdout.strip().splitlines()[-1]
    figures = dict(item.split("=", 1) for item in last.split())
    assert figures["rooms"] == "3", last
    assert float(figures["visit_us"]) > 0, last
    assert figures["clock_messages"] == str(3 * 6), "30 s of play: a repeat every 5 s a room"
