"""bench.bot, tiny: it plays whole matches through the real core and referee and ends
with the machine-readable line. Behaviour, not strength (the figures are in docs/bot.md)."""

from __future__ import annotations

import pytest

from bench import bot


def test_a_tiny_bench_plays_and_ends_with_its_figures(capsys: pytest.CaptureFixture[str]):
    args = ["--matches", "1", "--sets", "1", "--levels", "1,2", "--max-strokes", "8"]
    assert bot.main([*args, "--no-scripted"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out[0].startswith("L2 vs L1: wins ")
    figures = dict(kv.split("=") for kv in out[-1].split())
    assert set(figures) == {"top_vs_l1", "step_min", "top_p99_s", "top_pucks_per_stroke"}
    assert 0.0 <= float(figures["step_min"]) <= 1.0
    assert float(figures["top_p99_s"]) > 0.0


def test_the_gil_probe_reports_a_speedup(capsys: pytest.CaptureFixture[str]):
    assert bot.main(["--gil", "200"]) == 0
    assert capsys.readouterr().out.startswith("gil_speedup=")


def test_matches_in_worker_processes_play_out_as_in_one(capsys: pytest.CaptureFixture[str]):
    args = ["--matches", "2", "--sets", "1", "--levels", "1,2", "--max-strokes", "12"]
    assert bot.main([*args, "--no-scripted"]) == 0
    alone = capsys.readouterr().out.strip().splitlines()
    assert bot.main([*args, "--no-scripted", "--procs", "2"]) == 0
    pooled = capsys.readouterr().out.strip().splitlines()
    # each match is seeded: the same results and counts, whichever process played it
    assert alone[0].split(" (")[0] == pooled[0].split(" (")[0]
    assert [r.split()[:3] + r.split()[-2:] for r in alone[2:4]] == [
        r.split()[:3] + r.split()[-2:] for r in pooled[2:4]
    ]
