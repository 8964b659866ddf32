"""A match as the replay viewer steps through it (`/m/{id}`, docs/notation.md "The replay
viewer"): the table after every entry of its log, recomputed from the stroke log with the same
core and referee as `python -m server.replay` (server/replay/verify.py), each entry marked with
whether its state hash and ruling agree with the stored ones; and any stroke's motion, simulated
again from the recomputed state before it, as the exact piecewise paths of the core
(server/games/novuss/sim/result.py `Trajectory.to_compact`), for the browser to sample at any
instant.

Pure: the record comes in, plain data goes out. A record the core cannot follow (an entry it
refuses) ends the steps there, marked, and says so: a wrong replay is never shown as right.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from server.games.novuss.rules import MatchState, sim_discs
from server.games.novuss.sim import COMPETITION, Shot, Table, simulate
from server.replay.verify import ReplayError, replay


class NoSuchStroke(Exception):
    """The match has no stroke of that number (or the replay stopped before it)."""


@dataclass(frozen=True)
class Replayed:
    """One match recomputed: the steps as served, and the state before each stroke (by its
    number) to simulate its motion again on demand."""

    start: dict[str, Any]
    steps: tuple[dict[str, Any], ...]
    before: dict[int, tuple[MatchState, int, Shot]]  # stroke -> (state before, seat, shot)
    stopped: str | None  # why the replay ended early (None: it reached the log's end)

    @property
    def mismatches(self) -> int:
        """Entries whose hash or ruling disagree with the stored ones."""
        return sum(1 for s in self.steps if s["hash_ok"] is False or s["ruling_ok"] is False)


def table_at(state: MatchState) -> dict[str, Any]:
    """The table as the viewer shows it: pucks at rest (protocol's disc view, exact floats),
    each seat's side, sets won, the set in play, whose turn, the result once there is one."""
    return {
        "discs": [{"id": p.id, "owner": p.owner, "x": p.x, "y": p.y} for p in state.on_table()],
        "sides": [state.side_of(s) for s in state.seats],
        "score": list(state.sets_won),
        "set": min(state.sets_played + 1, state.config.sets),
        "turn": state.turn_seat,
        "result": state.match_result,
    }


def recompute(record: dict[str, Any], table: Table = COMPETITION) -> Replayed:
    """Every entry of a Novuss record replayed (raises ReplayError for one that cannot be:
    Crokinole, no start)."""
    checks = list(replay(record, table))  # raises for a record it cannot replay at all
    first = record["log"][0]
    log = record["log"]
    state = MatchState.from_dict(first["state"])
    start = table_at(state)
    steps: list[dict[str, Any]] = []
    before: dict[int, tuple[MatchState, int, Shot]] = {}
    stopped = None
    for check in checks:
        entry = log[check.index] if check.index < len(log) else {}
        if check.kind == "stroke" and check.stroke is not None:
            before[check.stroke] = (state, entry["seat"], Shot(**entry["shot"]))
        step: dict[str, Any] = {
            "index": check.index,
            "kind": check.kind,
            "seat": entry.get("seat"),
            "stroke": check.stroke,
            "hash_ok": check.hash_ok,
            "ruling_ok": check.ruling_ok,
            "ruling": entry.get("ruling"),  # the stored one, whose agreement ruling_ok says
            "recomputed": list(check.lines),
        }
        if check.state is None:
            stopped = check.lines[0] if check.lines else "the replay stopped"
            before.pop(check.stroke or 0, None)
            steps.append({**step, **table_at(state), "stopped": stopped})
            break
        state = check.state
        steps.append({**step, **table_at(state)})
    return Replayed(start, tuple(steps), before, stopped)


def stroke_motion(replayed: Replayed, stroke: int, table: Table = COMPETITION) -> dict[str, Any]:
    """Stroke `stroke`'s motion, simulated again from the recomputed state before it: the
    core's exact paths (`paths`: per disc [id, kind, owner, where, t_end, x_end, y_end, then
    segments t0, x0, y0, vx, vy ...], as `Trajectory.to_compact`), its deceleration and
    duration, the striker shown as the striking seat's (the physics owns it to nobody)."""
    if stroke not in replayed.before:
        raise NoSuchStroke(f"This match has no stroke {stroke} to replay.")
    state, seat, shot = replayed.before[stroke]
    result = simulate(table, sim_discs(state), shot)
    compact = result.trajectory.to_compact()
    paths = [[d[0], d[1], seat if d[0] == 0 else d[2], *d[3:]] for d in compact["discs"]]
    step = next(s for s in replayed.steps if s["stroke"] == stroke and s["kind"] == "stroke")
    return {
        "stroke": stroke,
        "seat": seat,
        "shot": {"x": shot.x, "y": shot.y, "angle": shot.angle, "speed": shot.speed},
        "decel": compact["decel"],
        "duration": compact["duration"],
        "paths": paths,
        "hash": result.state_hash(),
        "hash_ok": step["hash_ok"],
    }


__all__ = ["NoSuchStroke", "ReplayError", "Replayed", "recompute", "stroke_motion", "table_at"]
