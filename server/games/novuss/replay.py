"""Novuss's replay (server/games/seam.py `Replay`): a match recomputed from its log
(docs/protocol.md, `GET /api/matches/{id}`: the `start` entry's referee state, then every
`stroke` with its shot, and the rulings without a stroke: `clock`, `pass`, `resign`,
`absent`). Each stroke is simulated again from the state
the replay has reached, with the same core, and judged again; its final state's hash and its
ruling are compared with the stored ones. A mismatch is reported, never smoothed over: the
replay goes on from the recomputed state, so every later check says whether the record still
agrees with what the core makes of it, until the record asks for what the recomputed match
refuses (a stroke out of turn, say): that entry is reported and the replay ends there. The
`end` entry's result is compared with the recomputed match's; a record without rulings (one
read from the notation, server/games/novuss/notation.py) has its hashes and result compared.

The replay viewer's steps (`/m/{id}`, docs/notation.md "The replay viewer") are the table after
every entry of those checks, and any stroke's motion is simulated again from the recomputed
state before it, as the exact piecewise paths of the core
(server/games/novuss/sim/result.py `Trajectory.to_compact`), for the browser to sample at any
instant. Pure: the record comes in, plain data goes out.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from server.games.core.replaying import (
    Check,
    NoSuchStroke,
    Replayed,
    ReplayError,
    UnacceptedShot,
    build_steps,
    same_hash,
    same_result,
    same_ruling,
    stroke_step,
)
from server.games.novuss.rules import (
    MatchState,
    Ruling,
    StrokeRefused,
    judge,
    judge_absent,
    judge_clock_expired,
    judge_pass,
    judge_resign,
    sim_discs,
)
from server.games.novuss.rules.check import require_turn
from server.games.novuss.rules.state import team_of
from server.games.novuss.sim import COMPETITION, Shot, SimInputError, Table, simulate

NO_STROKE = {"pass": judge_pass, "resign": judge_resign, "absent": judge_absent}


def _start(entry: dict[str, Any]) -> MatchState:
    try:
        return MatchState.from_dict(entry["state"])
    except (KeyError, TypeError, ValueError) as e:
        raise ReplayError(f"The start entry holds no Novuss match's state ({e!r}).") from None


def _taken_back(entry: dict[str, Any], passed: list[MatchState]) -> tuple[MatchState, bool]:
    """A practice take-back: the position it restores, and whether the replay passed
    through it before a stroke (else the record restores a position never played)."""
    try:
        restored = MatchState.from_dict(entry["state"])
    except (KeyError, TypeError, ValueError) as e:
        raise ReplayError(f"A take-back holds no position ({e!r}).") from None
    return restored, restored in passed


def replay(record: dict[str, Any], table: Table = COMPETITION) -> Iterator[Check]:
    """Recompute a match entry by entry (see the module's docstring)."""
    log = record.get("log") or []
    if not log or log[0].get("kind") != "start":
        raise ReplayError("The log does not begin with the match's start.")
    state = _start(log[0])
    ended = False
    passed: list[MatchState] = []  # the positions before each stroke, for take-backs
    for i, entry in enumerate(log[1:], start=1):
        kind = entry.get("kind")
        line = entry.get("line")
        if kind == "takeback":
            state, known = _taken_back(entry, passed)
            back = ("takeback: back to the position before an earlier stroke",)
            yield Check(i, kind, None, None, known, back, line, state)
            continue
        if kind == "stroke":
            passed.append(state)
        if kind == "end":
            ended = True
            agrees = same_result(state.match_result, entry.get("result"))
            yield Check(i, kind, None, None, agrees, (_result_words(state),), line, state)
            continue
        hash_ok: bool | None = None
        restored: dict[str, Any] | None = None
        try:
            if kind == "stroke":
                shot = Shot(**entry["shot"])
                result = simulate(table, sim_discs(state), shot)
                hash_ok = same_hash(result.state_hash(), entry.get("hash"))
                ruling = judge(state, entry["seat"], shot, result)
                own = sum(
                    team_of(state.puck(pid).owner) == team_of(entry["seat"])
                    for pid in ruling.pocketed
                )
                # the whole hash, for an archived stroke that keeps the start of it
                restored = {"duration": result.duration, "own": own, "hash": result.state_hash()}
            elif kind == "clock":
                if entry.get("seat", state.turn_seat) != state.turn_seat:
                    # 004 § 26 (4): the clock runs for the player holding the strike right
                    require_turn(state, entry["seat"])
                ruling = judge_clock_expired(state)
            elif kind in NO_STROKE:
                ruling = NO_STROKE[kind](state, entry["seat"])
            else:
                raise ReplayError(f"Entry {i} is of no known kind ({kind!r}).")
        except (StrokeRefused, SimInputError) as e:
            # the record went where the recomputed match cannot follow: said, and the end
            why = f"the recomputed match refuses this entry: {e}"
            yield Check(i, kind, entry.get("stroke"), hash_ok, False, (why,), line)
            return
        state = ruling.state
        same = same_ruling(ruling.to_dict(), entry)
        words = tuple(_words(ruling))
        yield Check(
            i,
            kind,
            entry.get("stroke"),
            hash_ok,
            same,
            words,
            line,
            state,
            ruling.to_dict(),
            restored,
        )
    if state.finished and not ended:
        why = "the recomputed match is over, and the record does not say so"
        yield Check(len(log), "end", None, None, False, (why, _result_words(state)), None, state)


def _result_words(state: MatchState) -> str:
    result = state.match_result
    if result is None:
        return "the recomputed match is not over"
    a, b = result.get("sets_won", state.sets_won)
    winner = result.get("winner")
    who = "a draw" if winner is None else f"team {winner} won"
    return f"Result: {who}, {a}-{b} in sets ({result.get('reason')}, {result.get('rule')})"


def _words(ruling: Ruling) -> list[str]:
    return [f"{ln.text} ({ln.cite})" if ln.cite else ln.text for ln in ruling.lines]


def table_at(state: MatchState) -> dict[str, Any]:
    """The table as the viewer shows it: pucks at rest (protocol's disc view, exact floats),
    each seat's side, sets won, the set in play, whose turn, the result once there is one,
    and the team ahead on the table (server/replay/turning.py): the one with fewer pucks
    still to pocket, on the table or owed (004 § 27 (3): a set is won with all of a side's
    pucks in the holes; § 24: a penalty puck owed goes back on), None when level."""
    left = [len(state.team_pucks(t, "table")) + state.team_debt(t) for t in (0, 1)]
    return {
        "ahead": None if left[0] == left[1] else int(left[1] < left[0]),
        "discs": [{"id": p.id, "owner": p.owner, "x": p.x, "y": p.y} for p in state.on_table()],
        "sides": [state.side_of(s) for s in state.seats],
        "score": list(state.sets_won),
        "set": min(state.sets_played + 1, state.config.sets),
        "turn": state.turn_seat,
        "result": state.match_result,
    }


def recompute(record: dict[str, Any], table: Table = COMPETITION) -> Replayed:
    """Every entry of a Novuss record replayed for the viewer (raises ReplayError for one
    that cannot be: no start)."""
    checks = list(replay(record, table))  # raises for a record it cannot replay at all
    start = MatchState.from_dict(record["log"][0]["state"])

    def before_of(state: MatchState, entry: dict[str, Any]) -> tuple[MatchState, int, Shot]:
        return state, entry["seat"], Shot(**entry["shot"])

    return build_steps(record, checks, start, table_at, before_of)


def stroke_motion(replayed: Replayed, stroke: int, table: Table = COMPETITION) -> dict[str, Any]:
    """Stroke `stroke`'s motion, simulated again from the recomputed state before it: the
    core's exact paths (`paths`: per disc [id, kind, owner, where, t_end, x_end, y_end, then
    segments t0, x0, y0, vx, vy ...], as a live `stroke` carries them: `Trajectory.track`),
    its deceleration and duration, the striker shown as the striking seat's."""
    step = stroke_step(replayed, stroke)
    state, seat, shot = replayed.before[stroke]
    result = simulate(table, sim_discs(state), shot)
    return {
        "stroke": stroke,
        "seat": seat,
        "shot": {"x": shot.x, "y": shot.y, "angle": shot.angle, "speed": shot.speed},
        **result.trajectory.track(seat),
        "hash": result.state_hash(),
        "hash_ok": step["hash_ok"],
    }


def position(replayed: Replayed, index: int) -> tuple[MatchState, int] | None:
    """The referee's state at step `index` and the seat holding the strike (None: over)."""
    state: MatchState = replayed.at[index]
    if state.finished or state.turn_seat is None:
        return None
    return state, state.turn_seat


def expect(state: MatchState, seat: int, shot: Shot, table: Table = COMPETITION) -> dict[str, Any]:
    """`shot` simulated from `state` and judged as a stroke of `seat` (004 § 21-24: the
    referee of a live match); UnacceptedShot for one it refuses (out of turn, a placement
    off the zone, 004 § 18)."""
    try:
        result = simulate(table, sim_discs(state), shot)
        ruling = judge(state, seat, shot, result)
    except (StrokeRefused, SimInputError) as e:
        raise UnacceptedShot(str(e)) from None
    return {"legal": ruling.legal, "ruling": ruling.to_dict()}


@dataclass(frozen=True, slots=True)
class NovussReplay:
    """Novuss's `Replay` (server/games/seam.py) on the competition table."""

    def checks(self, record: dict[str, Any]) -> Iterator[Check]:
        return replay(record)

    def steps(self, record: dict[str, Any]) -> Replayed:
        return recompute(record)

    def stroke(self, replayed: Replayed, n: int) -> dict[str, Any]:
        return stroke_motion(replayed, n)

    def position(self, replayed: Replayed, index: int) -> tuple[Any, int] | None:
        return position(replayed, index)

    def expect(self, position: Any, seat: int, shot: Shot) -> dict[str, Any]:
        return expect(position, seat, shot)


REPLAY = NovussReplay()
"""The replay the game's `Game` offers."""


__all__ = [
    "REPLAY", "Check", "NoSuchStroke", "NovussReplay", "ReplayError", "Replayed", "expect",
    "position", "recompute", "replay", "stroke_motion", "table_at",
]  # fmt: skip
