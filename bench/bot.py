"""The computer's strength and speed: whole matches between its levels and against the
scripted club player of tools.novuss_play, through the real core and referee.

    python -m bench.bot [--matches N] [--sets S] [--levels 1,2,3,4,5] [--seed S] [--procs P]
                        [--no-scripted | --only-scripted]

Each pairing plays N singles matches of S sets (4 by default: the rules' shorter match,
004 § 27 (2), in which each side opens two sets), the first strike drawn by the match's
seed, the seats swapped every other match. A drawn match counts half a win. The matches
run in P processes (one by default); each decision is timed in the process that plays it:
CPU seconds of that process (one core, whatever else the machine runs), with the
wall-clock p99 beside it. Prints per pairing the win rate, per
level own pucks pocketed per stroke, penalty pucks per set, decision time p50/p99 and
strokes simulated per decision; the last line is machine-readable:

    top_vs_l1=0.98 step_min=0.78 top_p99_s=1.1 top_pucks_per_stroke=0.62
"""

from __future__ import annotations

import argparse
import random
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field

from server.games.novuss.bot import LEVELS, choose
from server.games.novuss.rules.check import sim_discs
from server.games.novuss.rules.judge import judge
from server.games.novuss.rules.state import MatchConfig, MatchState, new_match, team_of
from server.games.novuss.sim import simulate
from server.games.novuss.sim.types import Shot
from tools.novuss_play import scripted_shot

SCRIPTED = 0
"""The scripted club player's number among the players (levels are 1..5)."""
MAX_STROKES = 600
"""By default a match stopped after this many strokes counts as drawn (never seen)."""


@dataclass
class Stats:
    """What one player did over the bench."""

    strokes: int = 0
    own_pocketed: int = 0
    penalties: int = 0
    sets: int = 0
    times: list[float] = field(default_factory=list)  # CPU seconds of this process
    walls: list[float] = field(default_factory=list)  # wall-clock seconds
    sims: list[int] = field(default_factory=list)

    def add(self, other: Stats) -> None:
        """Count what `other` recorded too."""
        self.strokes += other.strokes
        self.own_pocketed += other.own_pocketed
        self.penalties += other.penalties
        self.sets += other.sets
        self.times += other.times
        self.walls += other.walls
        self.sims += other.sims


Player = Callable[[MatchState, int, int], Shot]


def player(number: int, stats: Stats) -> Player:
    """A player: the scripted one (0) or a computer level, recording into `stats`."""
    if number == SCRIPTED:

        def scripted(state: MatchState, seat: int, seed: int) -> Shot:
            return scripted_shot(state, seat, random.Random(seed))

        return scripted

    def computer(state: MatchState, seat: int, seed: int) -> Shot:
        t0, w0 = time.process_time(), time.perf_counter()
        c = choose(state, seat, number, seed)
        stats.times.append(time.process_time() - t0)
        stats.walls.append(time.perf_counter() - w0)
        stats.sims.append(c.candidates)
        return c.shot

    return computer


def match(
    a: int, b: int, sets: int, seed: int, cap: int = MAX_STROKES
) -> tuple[float, int, int, dict[int, Stats]]:
    """One singles match, player `a` at seat 0 and `b` at seat 1: a's score (1, ½, 0),
    the sets each won and what each player did."""
    stats = {a: Stats(), b: Stats()}
    rng = random.Random(seed)
    state = new_match(MatchConfig(sets=sets), first_team=rng.randrange(2))
    who = {0: a, 1: b}
    players = {s: player(who[s], stats[who[s]]) for s in (0, 1)}
    while not state.finished and state.strokes < cap:
        seat = state.turn_seat
        assert seat is not None
        shot = players[seat](state, seat, rng.randrange(2**32))
        ruling = judge(state, seat, shot, simulate(state.table, sim_discs(state), shot))
        st = stats[who[seat]]
        st.strokes += 1
        st.own_pocketed += sum(
            1 for pid in ruling.pocketed if team_of(state.puck(pid).owner) == team_of(seat)
        )
        st.penalties += int(ruling.penalty)
        if ruling.set_result is not None and ruling.set_result["outcome"] in ("won", "lost"):
            stats[a].sets += 1
            stats[b].sets += 1
        state = ruling.state
    won_a, won_b = state.sets_won
    if state.match_result is None or state.match_result["winner"] is None:
        return 0.5, won_a, won_b, stats
    return (1.0 if state.match_result["winner"] == 0 else 0.0), won_a, won_b, stats


def seated(
    a: int, b: int, k: int, sets: int, seed: int, cap: int
) -> tuple[float, int, int, dict[int, Stats]]:
    """Match k of a pairing, from a's side: a at seat 0 in even matches, at seat 1 in odd."""
    if k % 2 == 0:
        return match(a, b, sets, seed, cap)
    score, y, x, stats = match(b, a, sets, seed, cap)
    return 1.0 - score, x, y, stats


def pairing(
    a: int,
    b: int,
    matches: int,
    sets: int,
    seed: int,
    stats: dict[int, Stats],
    cap: int,
    pool: Executor | None = None,
) -> tuple[float, float]:
    """a's win rate over `matches` matches against b, seats alternating, and a's share
    of the sets won (the matches in `pool` if given)."""
    jobs = [(a, b, k, sets, seed * 1000 + k, cap) for k in range(matches)]
    results = pool.map(seated, *zip(*jobs, strict=True)) if pool else [seated(*j) for j in jobs]
    won = 0.0
    sets_a = sets_b = 0
    for score, x, y, played in results:
        won += score
        sets_a += x
        sets_b += y
        for n, st in played.items():
            stats[n].add(st)
    return won / matches, sets_a / max(1, sets_a + sets_b)


def gil_speedup(strokes: int) -> float:
    """Wall time of `strokes` simulations of a break in one thread over the same work
    split between two threads: about 2 if the core released the GIL (on two idle
    cores), about 1 if it holds it."""
    state = new_match(MatchConfig(), first_team=0)
    shot = scripted_shot(state, 0, random.Random(1))
    discs = sim_discs(state)

    def work(n: int) -> None:
        for _ in range(n):
            simulate(state.table, discs, shot)

    t0 = time.perf_counter()
    work(strokes)
    serial = time.perf_counter() - t0
    threads = [threading.Thread(target=work, args=(strokes // 2,)) for _ in range(2)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return serial / (time.perf_counter() - t0)


def quantile(xs: list[float], q: float) -> float:
    """The q-quantile (nearest rank) of xs; 0 for none."""
    if not xs:
        return 0.0
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, round(q * len(s) + 0.5) - 1))]


def name(n: int) -> str:
    """A player's name in the report."""
    return "scripted" if n == SCRIPTED else f"L{n}"


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=20, help="matches per pairing")
    ap.add_argument("--sets", type=int, default=4, help="sets per match (004 § 27 (2): 4 or 6)")
    ap.add_argument("--procs", type=int, default=1, help="processes the matches run in")
    ap.add_argument("--levels", default=",".join(map(str, LEVELS)), help="levels to play")
    ap.add_argument("--no-scripted", action="store_true", help="skip the scripted pairings")
    ap.add_argument("--only-scripted", action="store_true", help="only the scripted pairings")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--max-strokes", type=int, default=MAX_STROKES, help="a match stopped here is drawn"
    )
    ap.add_argument(
        "--gil", type=int, default=0, metavar="N", help="only time N strokes in 1 vs 2 threads"
    )
    args = ap.parse_args(argv)
    if args.gil:
        print(f"gil_speedup={gil_speedup(args.gil):.2f} (2 threads over 1; ~1 = the GIL is held)")
        return 0
    levels = sorted(int(x) for x in args.levels.split(","))
    stats = {n: Stats() for n in (SCRIPTED, *levels)}
    rates: dict[tuple[int, int], float] = {}
    pairs = [(levels[i], levels[i - 1]) for i in range(1, len(levels))]
    if len(levels) > 2:
        pairs.append((levels[-1], levels[0]))
    if args.only_scripted:
        pairs = []
    if not args.no_scripted:
        pairs += [(lv, SCRIPTED) for lv in levels]
    pool = ProcessPoolExecutor(args.procs) if args.procs > 1 else None
    for k, (a, b) in enumerate(pairs):
        t0 = time.perf_counter()
        rates[(a, b)], set_share = pairing(
            a, b, args.matches, args.sets, args.seed + k, stats, args.max_strokes, pool
        )
        print(
            f"{name(a)} vs {name(b)}: wins {rates[(a, b)]:.2f}, sets {set_share:.2f} "
            f"({args.matches} matches of {args.sets} sets, {time.perf_counter() - t0:.0f} s)",
            flush=True,
        )
    if pool:
        pool.shutdown()
    print("level  pucks/stroke  penalties/set  p50_s  p99_s  wall_p99_s  sims/decision  decisions")
    for n in (*levels, SCRIPTED):
        st = stats[n]
        if not st.strokes:
            continue
        sims = sum(st.sims) / len(st.sims) if st.sims else 0.0
        print(
            f"{name(n):8} {st.own_pocketed / st.strokes:8.2f} "
            f"{st.penalties / max(1, st.sets):12.2f} {quantile(st.times, 0.5):8.3f} "
            f"{quantile(st.times, 0.99):6.3f} {quantile(st.walls, 0.99):10.3f} "
            f"{sims:12.0f} {len(st.times):10}"
        )
    top, low = levels[-1], levels[0]
    steps = [rates[p] for p in zip(levels[1:], levels, strict=False) if p in rates]
    top_st = stats[top]
    print(
        f"top_vs_l{low}={rates.get((top, low), float('nan')):.2f} "
        f"step_min={min(steps) if steps else float('nan'):.2f} "
        f"top_p99_s={quantile(top_st.times, 0.99):.2f} "
        f"top_pucks_per_stroke={top_st.own_pocketed / max(1, top_st.strokes):.2f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
