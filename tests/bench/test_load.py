"""bench.load end to end, small: it seats real matches and spectators on a server of its own,
plays for a few seconds and reports. Behaviour, not speed: the report's last line is there,
every table was seated, strokes were played, and nobody missed a ruling."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from bench.load import default_ramp

ROOT = Path(__file__).resolve().parents[2]


def test_a_short_load_run_reports_and_drops_no_ruling() -> None:
    command = [
        sys.executable, "-m", "bench.load", "--matches", "3", "--spectators", "6",
        "--seconds", "6", "--ramp", "1", "--think", "0.5", "--speed-factor", "3",
        "--drain", "4", "--procs", "2",
    ]  # fmt: skip
    run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=180)
    assert run.returncode == 0, run.stdout + run.stderr
    last = run.stdout.strip().splitlines()[-1]
    figures = dict(item.split("=", 1) for item in last.split())
    assert figures["rooms"] == "3" and figures["spectators"] == "6", last
    assert int(figures["strokes"]) > 0, last
    assert figures["dropped_rulings"] == "0", run.stdout
    assert figures["frames_lost"] == "0", run.stdout  # three tables: nobody falls behind
    assert float(figures["bytes_per_spectator_s"]) > 0, last
    assert float(figures["json_baseline_bytes_s"]) > 0, last
    for key in ("p50_ms", "p99_ms", "cpu", "msgs_s", "rss_mb"):
        assert key in figures, last
    if len(os.sched_getaffinity(0)) >= 2:
        assert "server and redis pinned to core" in run.stdout, run.stdout


def test_the_ramp_gives_each_connection_time_to_be_made() -> None:
    def ramp(matches: int, spectators: int, seconds: float, doubles: float = 0.0) -> float:
        args = argparse.Namespace(
            matches=matches, spectators=spectators, seconds=seconds, doubles=doubles
        )
        return default_ramp(args)

    assert ramp(3, 6, 6) == 2.0  # a third of a short window
    assert ramp(100, 400, 60) == 20.0  # 600 connections fit in 20 s
    assert abs(ramp(500, 2000, 60) - 3000 / 70) < 1e-9  # 1,000 players and 2,000 spectators
    assert abs(ramp(500, 2000, 60, doubles=1.0) - 4000 / 70) < 1e-9  # four players a table
