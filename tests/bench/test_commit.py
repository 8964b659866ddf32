"""bench.commit end to end, small: it replays a played match's commits into a redis-server of
its own and reports. Behaviour, not speed: the last line is JSON with every figure."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_a_short_commit_run_reports() -> None:
    command = [sys.executable, "-m", "bench.commit", "--commits", "100", "--repeat", "2",
               "--rooms", "10", "--strokes", "5", "--concurrency", "5"]  # fmt: skip
    run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    figures = json.loads(run.stdout.strip().splitlines()[-1])
    assert figures["match_commits"] >= 11 and figures["commits"] == 100, figures
    for mode in ("seq", "conc"):
        for key in ("cpu_us", "cpu_median_us", "wall_us", "redis_cpu_us"):
            assert figures[f"{mode}_{key}"] >= 0, figures
        assert figures[f"{mode}_cpu_us"] > 0, figures
