"""bench.expiry, small: rooms expiring together over a real Redis. Behaviour, not speed:
every room closes in both runs, all in one tick before and spread after (issue 37)."""

from __future__ import annotations


def test_a_short_expiry_bench_closes_every_room_spread_over_ticks(run_bench) -> None:
    _, figures = run_bench("expiry", "--rooms", "40", "--per-tick", "16")
    assert figures["before_ticks"] == "1", figures
    assert figures["after_ticks"] == "3", "40 rooms, 16 a tick"
    assert float(figures["after_tick_ms"]) > 0, figures
