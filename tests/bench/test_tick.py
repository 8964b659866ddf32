"""bench.tick, small: it times the clock loop's visits and reports. Behaviour, not speed:
the figures are there, and every room repeated its running clock every 5 s (004 § 26 (4)
is enforced on that clock; the repeat is how clients keep theirs in step)."""

from __future__ import annotations


def test_a_short_tick_bench_reports_a_visit_and_the_clock_repeats(run_bench) -> None:
    _, figures = run_bench("tick", "--rooms", "3", "--passes", "1")
    assert figures["rooms"] == "3", figures
    assert float(figures["visit_us"]) > 0, figures
    assert figures["clock_messages"] == str(3 * 6), "30 s of play: a repeat every 5 s a room"
    assert figures["deadline_clock_messages"] == figures["clock_messages"], figures
    assert float(figures["deadline_tick_ms"]) >= 0, figures
