"""bench.load end to end, small: it seats real matches and spectators on a server of its own,
plays for a few seconds and reports. Behaviour, not speed: the report's last line is there,
every table was seated, strokes were played, and nobody missed a ruling."""

from __future__ import annotations

import argparse
import os

from bench.load import default_ramp


def test_a_short_load_run_reports_and_drops_no_ruling(run_bench) -> None:
    out, figures = run_bench(
        "load", "--matches", "3", "--spectators", "6", "--seconds", "6", "--ramp", "1",
        "--think", "0.5", "--speed-factor", "3", "--drain", "4", "--procs", "2",
    )  # fmt: skip
    assert figures["rooms"] == "3" and figures["spectators"] == "6", figures
    assert int(figures["strokes"]) > 0, figures
    assert figures["dropped_rulings"] == "0", out
    assert float(figures["bytes_per_spectator_s"]) > 0, figures
    for key in ("p50_ms", "p99_ms", "cpu", "msgs_s", "rss_mb"):
        assert key in figures, figures
    # the server's own time for the same strokes (/healthz stroke_ms), to the last socket
    # no sooner than to the striker's
    assert 0 < float(figures["server_p50_ms"]) <= float(figures["server_p99_ms"]), figures
    assert float(figures["server_last_p99_ms"]) >= float(figures["server_p50_ms"]), figures
    if len(os.sched_getaffinity(0)) >= 2:
        assert "server and redis pinned to core" in out, out


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
