"""bench.abuse, small: two attacks for a few seconds each against a real server with its
default limits, with the honest match measured throughout. Behaviour, not speed: the honest
clients were measured and lost nothing, and the attacks' limits held (a session flood from
one address is throttled to its burst). An attack lasts until the honest side under it was
measured (bench/abuse_attacks.py, `Context`), and a seated player's connection cut before its
hello is tried again as docs/protocol.md asks: on a machine loaded by the parallel runs, a
window of seconds held no login of the owner (0/0), or a return's one connection was cut."""

from __future__ import annotations


def test_a_short_abuse_run_measures_the_honest_match_under_two_attacks(run_bench) -> None:
    out, figures = run_bench(
        "abuse", "--seconds", "4", "--settle", "1", "--only", "session_flood", "ping_flood"
    )
    assert figures["attacks"] == "2", figures
    assert float(figures["worst_honest_p99_ms"]) > 0, "the honest players' pings were measured"
    assert figures["honest_lost"] == "0" and figures["honest_refused"] == "0", out
    flood = next(line for line in out.splitlines() if line.startswith("session_flood"))
    welcomed = int(flood.rsplit("sessions welcomed: ", 1)[1].rstrip(")"))
    assert welcomed <= 20 + 2, "one address gets its burst of new sessions, then 1 per 5 s"


def test_the_owner_logs_in_throughout_a_short_lockout_attack(run_bench) -> None:
    # issue 37: a stranger's wrong passwords locked the owner out for 888 s
    out, figures = run_bench(
        "abuse", "--seconds", "4", "--settle", "1", "--addresses", "4",
        "--only", "login_lockout_many",
    )  # fmt: skip
    assert figures["attacks"] == "1", figures
    row = next(line for line in out.splitlines() if line.startswith("login_lockout_many"))
    got, tried = row.split("owner logged in ", 1)[1].split(" ", 1)[0].split("/")
    assert int(tried) > 0 and got == tried, row
    assert "401" in row.split("attempts: ", 1)[1], "the strangers' guesses were answered"


def test_a_seated_player_returns_and_the_owner_logs_in_while_websockets_hold_the_total(
    run_bench,
) -> None:
    # issue 37: whole websockets from many addresses held the TCP total
    out, figures = run_bench(
        "abuse", "--seconds", "6", "--settle", "1", "--addresses", "4",
        "--max-connections", "80", "--only", "ws_holders_many",
    )  # fmt: skip
    assert figures["honest_lost"] == "0", out
    row = next(line for line in out.splitlines() if line.startswith("ws_holders_many"))
    assert "server_full" in row.split("holders: ", 1)[1], "newcomers were kept to their part"
    got, tried = row.split("seated returns ", 1)[1].split(" ", 1)[0].split("/")
    assert int(tried) > 0 and got == tried, row
    got, tried = row.split("owner logged in ", 1)[1].split(" ", 1)[0].split("/")
    assert int(tried) > 0 and got == tried, row
