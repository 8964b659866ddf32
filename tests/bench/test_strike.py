"""bench.strike end to end, small: it records a match's strokes, times every stage and
reports. Behaviour, not speed: the last line is there and every figure is a number."""

from __future__ import annotations


def test_a_short_strike_bench_reports_every_stage(run_bench) -> None:
    _, figures = run_bench("strike", "--matches", "1", "--min-time", "0", timeout=120)
    assert int(figures["strokes"]) > 0, figures
    for key in ("sim_us", "judge_us", "hash_us", "sim_judge_hash_us", "strike_us"):
        assert float(figures[key]) > 0, figures
