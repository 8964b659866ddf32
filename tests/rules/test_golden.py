"""Every output of the referee pinned, bit for bit: thousands of seeded strokes' rulings,
lines (and their English), states after, state hashes, match log entries and wire
messages, compared with digests stored in tests/rules/golden.txt.

Two sources of strokes:
- whole matches through server.games.novuss.match.Match (singles and doubles, one to two
  sets, both three-miss options and both blind-hit rules): strokes aimed like the load
  clients (bench/load_aim.py) with a seeded jitter, like the scripted players
  (tools/novuss_play.py) and at random, with the odd pass, clock run out and resignation;
  each stroke's messages, log entries and the referee's state after;
- positions made up from tools/scenarios.py's `mixed_strokes` (breaks and scattered
  pucks), turned to every side, in states of every kind (debts, answering sides, misses,
  the last set of a match) judged directly: the Ruling as it is in memory, its plain data,
  its lines' English, the state after and the physics' state hash (and a pass and a clock
  run out on some of them).

The digests are of the code before the referee was restructured (issue 35): a ruling
that changes here changes what players were told. Regenerate them only for a change of
the rules that is meant, saying why in the commit:

    python -m tests.rules.test_golden --write
"""

from __future__ import annotations

import functools
import hashlib
import random
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import msgpack
import pytest

from bench.load_aim import choose
from server.games.core.play import Out, Settings, Step
from server.games.novuss.game import NOVUSS
from server.games.novuss.match import Match
from server.games.novuss.rules import (
    MatchConfig,
    MatchState,
    Ruling,
    StrokeRefused,
    check_stroke,
    judge,
    judge_clock_expired,
    judge_pass,
    new_match,
    sim_discs,
)
from server.games.novuss.rules.geometry import (
    angle_to_world,
    cue_limits_local,
    striking_field,
    to_world,
)
from server.games.novuss.rules.state import EDITION, Mode, Puck, home_rail, puck_ids, team_of
from server.games.novuss.sim import COMPETITION, Shot, SimInputError, StrokeResult, simulate
from server.games.novuss.sim.types import SIDES
from tools.novuss_play import scripted_shot
from tools.scenarios import mixed_strokes

from .helpers import FakeResult

GOLDEN = {
    EDITION: Path(__file__).with_name("golden.txt"),
    1: Path(__file__).with_name("golden-edition-1.txt"),
}
"""Each edition of the referee's digests: the earlier ones' are its records' replays."""
SETTINGS = Settings(speed_factor=10.0)
MATCHES = 110
"""Whole matches (about 2,000 strokes): the size keeps the test to a few seconds."""
MAX_STROKES = 40
"""Strokes at most per match (a match of bots can stall on blind pucks)."""
POSITIONS = 1000
"""Made-up positions, judged in groups of GROUP under one digest."""
GROUP = 50


class Digest:
    """A sha256 over the exact bytes of what the referee produced, and the codes of the
    lines it said."""

    def __init__(self) -> None:
        self.h = hashlib.sha256()
        self.strokes = 0
        self.codes: set[str] = set()

    def plain(self, data: Any) -> None:
        """Plain data as the wire and the store take it (msgpack keeps the keys' order
        and the floats' bits)."""
        self.h.update(msgpack.packb(data))

    def text(self, s: str) -> None:
        self.h.update(s.encode())
        self.h.update(b"\0")

    def step(self, step: Step) -> None:
        for out in step.out:
            self.out(out)
        for entry in step.log:
            self.plain(entry)
            if "ruling" in entry:
                self.codes.update(ln["code"] for ln in entry["ruling"]["lines"])

    def out(self, out: Out) -> None:
        self.plain([out.kind, out.data, out.sequenced, out.audience, list(out.readers)])

    def ruling(self, ruling: Ruling) -> None:
        # repr: the ruling and its state as they are in memory, every field's type and bits
        self.text(repr(ruling))
        self.plain(ruling.to_dict())
        self.plain(ruling.state.to_dict())
        self.text(ruling.text())
        self.codes.update(ln.code for ln in ruling.lines)

    def hexdigest(self) -> str:
        return self.h.hexdigest()[:32]


# -- whole matches ---------------------------------------------------------------------
def _config(k: int, edition: int) -> MatchConfig:
    mode: Mode = "singles" if k % 2 == 0 else "doubles"
    return MatchConfig(
        mode=mode,
        sets=1 if k % 3 else 2,
        stroke_clock=30.0,
        three_miss="blind" if k % 4 == 3 else "circle",
        blind_hit_moves=1 if k % 5 == 4 else 2,
        edition=edition,
    )


def _random_legal(state: MatchState, seat: int, rng: random.Random) -> Shot | None:
    """Any placement in the striking field, any angle the cue allows, any speed."""
    t = state.table
    u0, u1, v0, v1 = striking_field(t)
    side = state.side_of(seat)
    for _ in range(50):
        x, y = to_world(side, rng.uniform(u0, u1), rng.uniform(v0, v1), t.size)
        lo, hi = cue_limits_local(t, side, x, y)
        shot = Shot(x, y, angle_to_world(side, rng.uniform(lo, hi)), rng.uniform(50, 7000))
        if _legal(state, seat, shot):
            return shot
    return None


def _legal(state: MatchState, seat: int, shot: Shot) -> bool:
    try:
        check_stroke(state, seat, shot)
    except StrokeRefused:
        return False
    return True


def _shot(match: Match, rng: random.Random, table: dict[str, Any]) -> Shot | None:
    """A stroke as a load client, a scripted player or anybody might play it; None: pass."""
    state = match.state
    seat = match.turn
    assert seat is not None
    roll = rng.random()
    if roll < 0.4:
        doubles = state.config.mode == "doubles"
        aim = choose(match.rest_discs(), seat, match.sides()[seat], table, doubles)
        if aim is None:
            return None
        x, y, angle, speed = aim
        shot = Shot(x, y, angle + rng.gauss(0.0, 0.08), rng.uniform(600.0, 7000.0))
        return shot if _legal(state, seat, shot) else Shot(x, y, angle, speed)
    if roll < 0.8:
        return scripted_shot(state, seat, rng, skill=rng.uniform(0.0, 0.1))
    return _random_legal(state, seat, rng)


def play_match(k: int, edition: int) -> Digest:
    """Match k played to its end (or MAX_STROKES), every step digested."""
    rng = random.Random(1000 + k)
    table = NOVUSS.table_view()
    digest = Digest()
    match, step = Match.new(f"g{k}", _config(k, edition), (k // 2) % 2, 0.0, SETTINGS)
    digest.step(step)
    now = 0.0
    for n in range(MAX_STROKES):
        if match.phase == "over":
            break
        seat = match.turn
        assert seat is not None
        roll = rng.random()
        if k % 10 == 9 and n == 12:
            step = match.resign(seat, now)
        elif roll < 0.02:
            step = match.pass_turn(seat, now)
        elif roll < 0.04 and match.clock_deadline is not None:
            step = match.tick(match.clock_deadline)
        else:
            shot = _shot(match, rng, table)
            if shot is None:
                step = match.pass_turn(seat, now)
            else:
                digest.strokes += 1
                digest.step(match.strike(seat, shot, now))
                digest.text(repr(match.state))
                assert match.motion is not None
                now = match.motion.ends(SETTINGS)
                step = match.finish_motion(now)
        digest.step(step)
        digest.text(repr(match.state))
        now += 1.0
    return digest


# -- made-up positions -------------------------------------------------------------------
def made_up(rng: random.Random, k: int, edition: int) -> tuple[MatchState, int, Shot]:
    """mixed_strokes' k-th position and stroke (its striker in the south zone) turned to
    the side of a seat in a state drawn at random: the striker's pucks in the far row of a
    break, the near row the opponent's; scattered pucks given random ids."""
    pucks, shot = mixed_strokes(77 + k, 1 + k % 2)[-1]
    mode: Mode = "singles" if rng.random() < 0.6 else "doubles"
    config = MatchConfig(
        mode=mode,
        sets=rng.choice([1, 2, 4]),
        three_miss=rng.choice(["circle", "blind"]),
        blind_hit_moves=rng.choice([1, 2]),
        edition=edition,
    )
    state = new_match(config, rng.randrange(2))
    state = replace(state, rotation=rng.randrange(4))
    seat = rng.randrange(config.seats)
    side = state.side_of(seat)
    size = state.table.size
    opponent = state.next_seat(seat)
    if k % 2 == 0:  # a break: pucks 1-8 along the striker's rail, 9-16 along the far one
        ids = [*puck_ids(opponent), *puck_ids(seat)]
        rows = (home_rail(state, seat), home_rail(state, opponent))
        intact = rows if mode == "singles" and rng.random() < 0.7 else ()
    else:
        every = [p.id for p in state.pucks]
        if rng.random() < 0.5:  # the striker's side down to its last puck or two
            ours = [pid for pid in every if team_of((pid - 1) // 8) == team_of(seat)]
            theirs = [pid for pid in every if pid not in ours]
            n = min(len(pucks) - 1, rng.choice([1, 1, 2]))
            pucks = pucks[: n + min(len(pucks) - n, len(theirs))]
            ids = sorted(rng.sample(ours, n) + rng.sample(theirs, len(pucks) - n))
        else:
            ids = sorted(rng.sample(every, len(pucks)))
        intact = ()
    spots = {pid: to_world(side, d.x, d.y, size) for pid, d in zip(ids, pucks, strict=True)}
    new = []
    for p in state.pucks:
        if p.id in spots:
            new.append(Puck(p.id, p.owner, *spots[p.id]))
        else:
            new.append(p.at(p.x, p.y, "pocket"))
    played = rng.randrange(config.sets)
    won_a = rng.randint(0, played)
    struck = tuple(sorted({seat, *rng.sample(state.seats, rng.randrange(len(state.seats)))}))
    state = replace(
        state,
        pucks=tuple(new),
        turn_seat=seat,
        debt=tuple(rng.choice([0, 0, 0, 1, 2]) for _ in state.seats),
        answering=rng.choice([None, None, None, None, 0, 1]),
        misses=rng.randrange(8),
        struck=struck,
        intact_rows=intact,
        set_strokes=rng.randrange(40),
        sets_played=played,
        sets_won=(won_a, played - won_a),
        first_side=rng.choice(SIDES) if mode == "doubles" else rng.choice(("S", "N")),
    )
    if k % 4 == 3:  # a scripted player's pot instead
        return state, seat, scripted_shot(state, seat, rng, skill=rng.uniform(0.0, 0.03))
    x, y = to_world(side, shot.x, shot.y, size)
    turned = Shot(x, y, angle_to_world(side, shot.angle), shot.speed)
    return state, seat, turned


def judge_position(rng: random.Random, k: int, digest: Digest, edition: int) -> None:
    """One made-up position's stroke checked, simulated and judged; every tenth also
    passed and clocked out."""
    state, seat, shot = made_up(rng, k, edition)
    digest.text(repr(state))
    try:
        check_stroke(state, seat, shot)
        result = simulate(COMPETITION, sim_discs(state), shot)
    except StrokeRefused as e:
        digest.text(f"refused {e.code} {e.rule}")
    except SimInputError as e:
        digest.text(f"no simulation {e}")
    else:
        digest.strokes += 1
        digest.ruling(judge(state, seat, shot, result))
        digest.text(result.state_hash())
        if k % 5 == 2:
            digest.ruling(judge(state, seat, shot, _overlapping(result, k)))
    if k % 10 == 0:
        digest.ruling(judge_pass(state, seat))
        digest.ruling(judge_clock_expired(state))


def _overlapping(result: StrokeResult, k: int) -> FakeResult:
    """The stroke's events with pucks left where no real stroke leaves them: the last
    puck on the table lying on the first (004 § 20 (10)); every other time also one puck
    off the surface and one gone over a rail the log does not name."""
    final = list(result.final)
    on = [i for i, d in enumerate(final) if d.kind == "puck" and d.where == "table"]
    if len(on) >= 2:
        a, b = final[on[0]], final[on[-1]]
        final[on[-1]] = replace(b, x=a.x + 0.6 * COMPETITION.puck_radius, y=a.y + 1.0)
    if k % 2 == 1 and len(on) >= 4:
        final[on[1]] = replace(final[on[1]], x=-5.0)
        final[on[2]] = replace(final[on[2]], where="off")
    return FakeResult(result.events, tuple(final))


def positions(edition: int) -> Iterator[tuple[str, Digest]]:
    rng = random.Random(35)
    for g in range(POSITIONS // GROUP):
        digest = Digest()
        for k in range(g * GROUP, (g + 1) * GROUP):
            judge_position(rng, k, digest, edition)
        yield f"positions {g * GROUP}-{(g + 1) * GROUP - 1}", digest


# -- the digests ---------------------------------------------------------------------
@functools.cache
def digests(edition: int = EDITION) -> tuple[tuple[str, ...], frozenset[str]]:
    """One row per match and per group of positions (its name, its strokes, its digest),
    and every line code said, by the referee's `edition`."""
    rows = [(f"match {k}", play_match(k, edition)) for k in range(MATCHES)]
    rows.extend(positions(edition))
    codes = frozenset().union(*(d.codes for _, d in rows))
    return tuple(f"{name}: {d.strokes} {d.hexdigest()}" for name, d in rows), codes


@pytest.mark.parametrize("edition", sorted(GOLDEN))
def test_every_ruling_line_state_hash_log_entry_and_message_is_as_before(edition: int) -> None:
    # an earlier edition's too: the matches played under it replay as they were played
    stored = GOLDEN[edition].read_text().splitlines()
    got, _ = digests(edition)
    strokes = sum(int(row.split(": ")[1].split()[0]) for row in got)
    assert strokes >= 2000, f"only {strokes} strokes pinned"
    differ = [f"{a}  (stored: {b})" for a, b in zip(got, stored, strict=False) if a != b]
    assert len(got) == len(stored) and not differ, "\n".join(differ[:20])


def test_the_golden_strokes_reach_the_referees_rarer_rulings() -> None:
    _, codes = digests()
    for code in (
        "pucks.respotted",
        "pucks.restored",
        "pucks.separated",
        "penalty.opponent_over_rail",
        "penalty.direct_own_blind",
        "penalty.striker_off",
        "debt.placed",
        "debt.placed_owed",
        "debt.owed",
        "set.won.cleared",
        "set.lost.blind_knocked_out",
        "set.lost.last_with_penalty",
        "set.lost.last_with_crossing",
        "set.won.no_answer",
        "set.replayed.both_cleared",
        "series.answer",
        "turn.again",
        "turn.debt_placed",
        "caution.delay",
        "forfeit.resign",
        "match.won",
    ):
        assert code in codes, code


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python -m tests.rules.test_golden --write")
    GOLDEN[EDITION].write_text("\n".join(digests()[0]) + "\n")  # earlier editions never change
