"""bench.passes, small: matches of nothing but passes end, within the bound docs/rules.md
states ("Cautions": 2 S + 5 passes and clocks run out for S sets), and the figures are there."""

from __future__ import annotations


def test_matches_of_passes_end_within_the_bound_and_are_measured(run_bench) -> None:
    _, figures = run_bench("passes", "--matches", "2", "--sets", "2")
    assert figures["matches"] == "2", figures
    assert int(figures["max_passes_per_match"]) <= int(figures["bound"]) == 2 * 2 + 5
    assert float(figures["cpu_ms_per_pass"]) > 0 and int(figures["redis_bytes_per_pass"]) > 0
