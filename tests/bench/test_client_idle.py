"""bench.client_idle, short: it reaches the lobby and a table and reports Chromium's share of
a core at each. Behaviour, not speed: the figures are there and are shares of a core."""

from __future__ import annotations


def test_a_short_client_idle_run_reports_the_blank_page_the_lobby_and_the_table(run_bench):
    printed, figures = run_bench("client_idle", "--seconds", "1")
    assert set(figures) == {"blank_cpu_pct", "lobby_cpu_pct", "table_cpu_pct"}, figures
    for what, share in figures.items():
        assert 0.0 <= float(share) <= 200.0, (what, share)  # one process may use both cores
    assert "table: Chromium" in printed, printed
