"""The client's foul preview agrees with the referee: on a few hundred random positions
and aims, what web/js/geometry.js firstTouch says the striker touches first (a puck, a
rail, a hole) and whether that first touch is legal is what server/games/novuss/rules judges after
the real physics ran the stroke (004 § 21, § 24 (1) 2), 4), 8), 11)); and the pucks the
client marks blind are those server/games/novuss/rules/facts.py blind_for finds."""

from __future__ import annotations

import json
import math
import random
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from server.games.novuss.rules import MatchConfig, judge, new_match, sim_discs
from server.games.novuss.rules.facts import blind_for
from server.games.novuss.rules.geometry import (
    angle_to_local,
    angle_to_world,
    cue_limits_local,
    striking_field,
    to_world,
)
from server.games.novuss.rules.state import MatchState, Mode, Puck, team_of
from server.games.novuss.sim import COMPETITION, Shot, simulate
from server.games.novuss.sim.types import Side

T = COMPETITION
L = T.size
SCRIPT = Path(__file__).with_name("preview.mjs")
SPEED = 3000.0  # mm/s: reaches anything on the table, never jumps a rail
FIRST_TOUCH_FOULS = ("004 § 24 (1) 2)", "004 § 24 (1) 8)", "004 § 24 (1) 11)")
MODES: tuple[Mode, ...] = ("singles", "doubles")
MARGIN = 0.05  # mm: grazes closer than this to a tie are left out (either answer is fair)


def random_state(rng: random.Random, mode: Mode) -> tuple[MatchState, int, Side, list[Puck]]:
    """A position of the given mode: up to 14 pucks spread at random, seat to strike."""
    state = new_match(MatchConfig(mode=mode), 0)
    seat = rng.choice(state.seats)
    state = replace(state, turn_seat=seat, set_strokes=5, intact_rows=(), struck=state.seats)
    side = state.side_of(seat)
    spots: list[tuple[float, float]] = []

    def free(x: float, y: float) -> bool:
        r = T.puck_radius
        if not (r < x < L - r and r < y < L - r):
            return False
        if any(
            math.hypot(x - px, y - py) < T.pocket_radius + r for _, px, py in T.pocket_centres()
        ):
            return False
        return all(math.hypot(x - ox, y - oy) > 2 * r + 0.5 for ox, oy in spots)

    pucks: list[Puck] = []
    n = rng.randint(1, 14)
    ids = [p.id for p in state.pucks]
    rng.shuffle(ids)
    for pid in ids[:n]:
        for _ in range(200):
            where = rng.random()
            if where < 0.25:  # in the centre circle
                a, d = rng.uniform(0, 2 * math.pi), rng.uniform(0, T.circle_radius)
                x, y = L / 2 + d * math.cos(a), L / 2 + d * math.sin(a)
            elif where < 0.45:  # in the striker's own edge zone, near its line too
                x, y = to_world(side, rng.uniform(0, L), rng.uniform(0, T.zone_depth + 10), L)
            else:
                x, y = rng.uniform(0, L), rng.uniform(0, L)
            if free(x, y):
                spots.append((x, y))
                break
        else:
            continue
        owner = state.puck(pid).owner
        pucks.append(Puck(pid, owner, x, y, "table"))
    on = {p.id: p for p in pucks}
    state = replace(
        state,
        pucks=tuple(on.get(p.id, replace(p, where="pocket")) for p in state.pucks),
    )
    return state, seat, side, pucks


def striker_spot(rng: random.Random, side: Side, pucks: list[Puck]) -> tuple[float, float] | None:
    """A free spot for the striker in the own striking field, if one is found."""
    u0, u1, v0, v1 = striking_field(T)
    reach = T.striker_radius + T.puck_radius + 0.05
    for _ in range(100):
        x, y = to_world(side, rng.uniform(u0, u1), rng.uniform(v0, v1), L)
        if all(math.hypot(p.x - x, p.y - y) > reach for p in pucks):
            return x, y
    return None


def near_tie(x: float, y: float, angle: float, pucks: list[Puck]) -> bool:
    """Does the straight path graze something within MARGIN, or meet two things at
    nearly the same distance? Then rounding may fairly decide either way."""
    dx, dy = math.cos(angle), math.sin(angle)
    hits: list[float] = []
    circles = [(p.x, p.y, T.striker_radius + T.puck_radius) for p in pucks]
    circles += [(px, py, T.pocket_radius) for _, px, py in T.pocket_centres()]
    for cx, cy, r in circles:
        ox, oy = cx - x, cy - y
        along = ox * dx + oy * dy
        across = abs(-ox * dy + oy * dx)
        if along > 0 and abs(across - r) < MARGIN:
            return True
        if along > 0 and across < r:
            hits.append(along - math.sqrt(r * r - across * across))
    lo, hi = T.striker_radius, L - T.striker_radius
    for s in (
        (hi - x) / dx if dx > 1e-12 else None,
        (lo - x) / dx if dx < -1e-12 else None,
        (hi - y) / dy if dy > 1e-12 else None,
        (lo - y) / dy if dy < -1e-12 else None,
    ):
        if s is not None:
            hits.append(s)
    hits.sort()
    return len(hits) > 1 and hits[1] - hits[0] < MARGIN


Verdict = tuple[str, int | None, bool | None]  # (kind, first puck, legal first touch)


def referee(state: MatchState, seat: int, shot: Shot) -> Verdict:
    """What the server's referee says: (kind, first puck or None, legal first touch)."""
    result = simulate(T, sim_discs(state), shot)
    ruling = judge(state, seat, shot, result)
    cites = " ".join(ln.cite for ln in ruling.lines)
    pocketed = "004 § 24 (1) 4)" in cites and not ruling.first_touch and not ruling.rails
    if ruling.kind == "rebound":
        return "rail", None, None
    if pocketed:
        return "pocket", None, False
    if not ruling.first_touch:
        return "none", None, None
    assert len(ruling.first_touch) == 1, ruling.first_touch
    legal = not any(f in cites for f in FIRST_TOUCH_FOULS)
    return "puck", ruling.first_touch[0], legal


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_preview_agrees_with_referee() -> None:
    rng = random.Random(23)
    cases: list[dict[str, Any]] = []
    expected: list[Verdict] = []
    blind: list[list[int]] = []
    while len(cases) < 400:
        state, seat, side, pucks = random_state(rng, rng.choice(MODES))
        spot = striker_spot(rng, side, pucks)
        if spot is None or not pucks:
            continue
        x, y = spot
        lo, hi = cue_limits_local(T, side, x, y)
        if rng.random() < 0.6:  # at a puck, as a click on it aims
            p = rng.choice(pucks)
            angle = math.atan2(p.y - y, p.x - x)
            local = angle_to_local(side, angle)
            if not lo + 1e-6 < local < hi - 1e-6:
                continue
        else:
            angle = angle_to_world(side, rng.uniform(lo + 1e-6, hi - 1e-6))
        if near_tie(x, y, angle, pucks):
            continue
        shot = Shot(x, y, angle, SPEED)
        expected.append(referee(state, seat, shot))
        blind.append(
            sorted(
                p.id
                for p in pucks
                if team_of(p.owner) == team_of(seat) and blind_for(state, side, p)
            )
        )
        cases.append(
            {
                "side": side,
                "seat": seat,
                "x": x,
                "y": y,
                "angle": angle,
                "pucks": [{"id": p.id, "owner": p.owner, "x": p.x, "y": p.y} for p in pucks],
            }
        )
    table = {
        "size": T.size,
        "pocket_radius": T.pocket_radius,
        "pocketInset": T.pocket_inset,
        "zone": T.zone_depth,
        "circle_radius": T.circle_radius,
        "puck_radius": T.puck_radius,
        "puck_hole_radius": T.puck_hole_radius,
        "striker_radius": T.striker_radius,
        "striker_hole_radius": T.striker_hole_radius,
    }
    out = subprocess.run(
        ["node", str(SCRIPT)],
        input=json.dumps({"table": table, "cases": cases}),
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    previews = json.loads(out.stdout)
    kinds: dict[tuple[str, bool | None], int] = {}
    mismatches: list[tuple[dict[str, Any], Verdict, dict[str, Any]]] = []
    for case, want, got in zip(cases, expected, previews, strict=True):
        kind, pid, legal = want
        kinds[(kind, legal)] = kinds.get((kind, legal), 0) + 1
        if (got["kind"], got["id"], got["legal"]) != (kind, pid, legal):
            mismatches.append((case, want, got))

    assert not mismatches, f"{len(mismatches)} disagreements, first: {mismatches[0]}"
    # The pucks the client marks blind are the referee's blind pucks (004 § 21 (1), (3)).
    assert [sorted(g["blind"]) for g in previews] == blind
    assert sum(len(b) for b in blind) > 100
    # The sample covers every verdict the preview can give.
    assert kinds.get(("puck", True), 0) > 20
    assert kinds.get(("puck", False), 0) > 20
    assert kinds.get(("rail", None), 0) > 20

    def own(case: dict[str, Any], pid: int | None) -> bool:
        owner = next(p["owner"] for p in case["pucks"] if p["id"] == pid)
        return team_of(owner) == team_of(case["seat"])

    seen_blind = [
        c
        for c, w in zip(cases, expected, strict=True)
        if w[0] == "puck" and not w[2] and own(c, w[1])
    ]
    assert len(seen_blind) > 5  # own blind pucks struck directly, not only opponents'
