"""One match: turn, stroke clock, presence, motion play-out. A state machine with no I/O.

Every method takes the current time `now` (seconds since the epoch) and returns a Step: the
messages to emit (sequenced ones are kept for resume), the entries to append to the match log
and, after an accepted strike, the Motion to play out. The caller (server/net/runtime.py) stores a
Step before it delivers it, so a stroke whose motion anybody saw is already in the log.

The referee is server.games.novuss.rules, the physics server.games.novuss.sim; this module only
decides *when* they are
asked and what the players are told.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from server.games.core.play import MatchRefused, Motion, Out, RulingView, Settings, Step
from server.games.novuss.rules import (
    MatchConfig,
    MatchState,
    Ruling,
    StrokeRefused,
    check_stroke,
    judge_absent,
    judge_checked,
    judge_clock_expired,
    judge_pass,
    judge_resign,
    new_match,
    sim_discs,
)
from server.games.novuss.rules.state import team_of
from server.games.novuss.sim import COMPETITION, Shot, SimInputError, simulate
from server.games.novuss.sim.types import Side

CLOCK_REPEAT = 5.0  # seconds between clock messages while it runs (clients count down between)
DUE_EARLY = 1e-6
"""next_due() names a waited-for time this much early (s): what tick() compares is a
difference, which rounds otherwise than the sum; a visit a hair early finds nothing and
the room is simply due again."""


class Match:
    """The match of one room: the rules state plus the clocks and the motion in flight.

    Why one class over ~350 lines: it is the one state machine a room drives (strike, pass,
    clock, absence, resignation, checkpoint), and its steps share the clocks and the motion
    in flight; its rules and physics are already apart (server/games/novuss/rules,
    server/games/novuss/sim).
    """

    def __init__(
        self,
        mid: str,
        state: MatchState,
        settings: Settings,
        started: float,
        first_team: int,
    ):
        self.id = mid
        self.state = state
        self.settings = settings
        self.started = started
        self.first_team = first_team
        self.strokes = 0
        self.motion: Motion | None = None
        self.away: set[int] = set()
        self.clock_left = state.config.stroke_clock
        self.clock_deadline: float | None = None
        self.clock_sent = 0.0
        self.last_aim = 0.0
        self.pending_aim: dict[str, Any] | None = None
        self.last_cause = ""
        self.last_ruling: dict[str, Any] | None = None
        self.ended: float | None = None

    # -- creation --------------------------------------------------------------------
    @classmethod
    def new(
        cls,
        mid: str,
        config: MatchConfig,
        first_team: int,
        now: float,
        settings: Settings,
        away: set[int] | None = None,
    ) -> tuple[Match, Step]:
        """A new match whose first strike went by lot to first_team; the clock starts."""
        match = cls(mid, new_match(config, first_team), settings, now, first_team)
        match.away = set(away or ())
        step = Step(
            log=[
                {
                    "kind": "start",
                    "at": now,
                    "first_team": first_team,
                    "config": config.to_dict(),
                    "state": match.state.to_dict(),
                }
            ]
        )
        step.out.extend(match._restart_clock(now))
        return match, step

    # -- views -----------------------------------------------------------------------
    @property
    def phase(self) -> str:
        """ "motion" while a stroke plays out, "over" after the match, else "play"."""
        if self.motion is not None:
            return "motion"
        return "over" if self.state.finished else "play"

    @property
    def turn(self) -> int | None:
        """The seat holding the strike right."""
        return self.state.turn_seat

    @property
    def position(self) -> MatchState:
        """What the computer searches from: the referee's state."""
        return self.state

    @property
    def shown(self) -> MatchState:
        """The state the room shows: during a motion, the one before the stroke (the wire
        says only what has already happened: the ruling, when delivered, says the rest)."""
        before: MatchState | None = None if self.motion is None else self.motion.before
        return self.state if before is None else before

    def sides(self) -> list[Side]:
        """Each seat's side in the set shown."""
        return [self.shown.side_of(s) for s in self.shown.seats]

    def score(self) -> list[int]:
        """Sets won by team 0 and team 1, as shown."""
        return list(self.shown.sets_won)

    def rest_discs(self) -> list[dict[str, Any]]:
        """The pucks on the table at rest."""
        # What sim_discs(state) holds, read off the pucks without making its Disc objects;
        # disc_view's dicts made in place (every ruling sends them).
        return [
            {"id": p.id, "owner": p.owner, "x": round(p.x, 2), "y": round(p.y, 2)}
            for p in self.state.pucks
            if p.where == "table"
        ]

    def discs(self, now: float) -> list[dict[str, Any]]:
        """The discs as a viewer should see them now (mid-motion: where the motion has them)."""
        if self.motion is not None and self.motion.track is not None:
            return self.motion.discs_at(self.motion.time_at(now, self.settings))
        return self.rest_discs()

    def clock_view(self, now: float) -> dict[str, Any]:
        """The stroke clock as the `clock` message shows it (during a motion: the striker's,
        stopped at what he had left when he struck)."""
        if self.motion is not None:
            left = round(max(0.0, self.clock_left), 2)
            return {"seat": self.motion.seat, "remaining": left, "running": False}
        deadline = self.clock_deadline
        left = self.clock_left if deadline is None else deadline - now
        running = deadline is not None
        return {"seat": self.turn, "remaining": round(max(0.0, left), 2), "running": running}

    def view(self, now: float) -> dict[str, Any]:
        """The `match` part of a `room` snapshot."""
        return {
            "id": self.id,
            "stroke": self.strokes,
            "turn": self.shown.turn_seat,
            "set": self.set_in_play(),
            "score": self.score(),
            "clock": self.clock_view(now),
            "phase": self.phase,
            # as the `result` message has it (docs/protocol.md): its reason and record too
            "result": self.result_view() if self.shown.match_result else None,
            "rules": self.shown.to_dict(),
            "last_ruling": self.last_ruling,
        }

    # -- actions ---------------------------------------------------------------------
    def _require_turn(self, seat: int) -> None:
        if self.state.finished:
            raise MatchRefused("not_now", "The match is over.")
        if self.motion is not None:
            raise MatchRefused("not_now", "Wait until the discs are at rest.")
        if seat != self.turn:
            raise MatchRefused("not_your_turn", f"It is seat {self.turn}'s turn to strike.")

    def aim(self, seat: int, x: float, y: float, angle: float, power: float, now: float) -> Step:
        """A live aim preview from the player to strike, at most aim_rate per second (a
        preview arriving too soon waits for tick() and is replaced by any newer one)."""
        if self.motion is not None or seat != self.turn or self.state.finished:
            return Step()  # previews from anybody else are dropped silently: they are cosmetic
        self.pending_aim = {"seat": seat, "x": x, "y": y, "angle": angle, "power": power}
        return self._flush_aim(now)

    def _flush_aim(self, now: float) -> Step:
        if self.pending_aim is None or now - self.last_aim < 1.0 / self.settings.aim_rate:
            return Step()
        data, self.pending_aim, self.last_aim = self.pending_aim, None, now
        return Step(out=[Out("aim", data, sequenced=False)])

    def strike(self, seat: int, shot: Shot, now: float) -> Step:
        """Validate, simulate to rest and judge a strike; return its stroke message, its log
        entry and the Motion to play out (the ruling is delivered when the motion ends)."""
        self._require_turn(seat)
        before = self.state
        try:
            check_stroke(before, seat, shot)
            result = simulate(COMPETITION, sim_discs(before), shot)
        except StrokeRefused as e:
            raise MatchRefused("bad_stroke", e.message, e.rule, e.code) from None
        except SimInputError as e:
            raise MatchRefused("bad_stroke", str(e)) from None
        ruling = judge_checked(before, seat, result)  # checked above
        self.strokes += 1
        self.state = ruling.state
        self._stop_clock(now)
        after = self._ruling_outs(ruling, "stroke", self.strokes)
        self.motion = Motion(
            stroke=self.strokes,
            seat=seat,
            shot=shot,
            duration=result.duration,
            started=now,
            after=after,
            track=result.track(seat),
            before=before,
        )
        self.pending_aim = None
        entry = {
            "kind": "stroke",
            "at": now,
            "stroke": self.strokes,
            "seat": seat,
            "shot": {"x": shot.x, "y": shot.y, "angle": shot.angle, "speed": shot.speed},
            "duration": result.duration,
            "hash": result.state_hash(),
            "ruling": ruling.to_dict(),
            # for the players' figures (server/history): the log holds no owners otherwise
            "own": sum(team_of(before.puck(pid).owner) == team_of(seat) for pid in ruling.pocketed),
        }
        return Step(
            out=[Out("stroke", dict(self.motion.start_view()))],
            log=[entry, *self._end_entry(now)],
            motion=self.motion,
        )

    def finish_motion(self, now: float) -> Step:
        """The play-out ended (or was skipped after a restart): deliver the ruling."""
        if self.motion is None:
            return Step()
        step = Step(out=list(self.motion.after))
        self._delivered(step.out)
        self.motion = None
        step.out.extend(self._restart_clock(now))
        return step

    def pass_turn(self, seat: int, now: float) -> Step:
        """The player to strike gives up the strike right (004 § 24 (1) 7))."""
        self._require_turn(seat)
        return self._judged(self._ask(judge_pass, seat), "pass", seat, now)

    def resign(self, seat: int, now: float) -> Step:
        """A side resigns: the match ends (allowed at rest, not during a motion)."""
        if self.state.finished:
            raise MatchRefused("not_now", "The match is over.")
        if self.motion is not None:
            raise MatchRefused("not_now", "Wait until the discs are at rest.")
        return self._judged(self._ask(judge_resign, seat), "resign", seat, now)

    def absent(self, seat: int, now: float) -> Step:
        """A dropped player did not return within the grace time: the side loses (004 § 22 (3))."""
        if self.state.finished or self.motion is not None:
            return Step()
        return self._judged(judge_absent(self.state, seat), "absent", seat, now)

    def set_away(self, seat: int, away: bool, now: float) -> Step:
        """A player dropped or came back: the stroke clock waits while the player to strike is
        away (the grace time is the limit then), and starts afresh on return."""
        if away:
            self.away.add(seat)
        else:
            self.away.discard(seat)
        if seat != self.turn or self.motion is not None or self.state.finished:
            return Step()
        if away:
            self._stop_clock(now)
            return Step(out=[Out("clock", self.clock_view(now), sequenced=False)])
        return Step(out=self._restart_clock(now))

    def tick(self, now: float) -> Step:
        """Time passes: deliver a delayed aim, repeat the clock, or run the clock out."""
        step = self._flush_aim(now)
        if self.clock_deadline is None:
            return step
        if now >= self.clock_deadline:
            seat = self.turn
            ruling = judge_clock_expired(self.state)
            return step.extend(self._judged(ruling, "clock", seat, now))
        if now - self.clock_sent >= CLOCK_REPEAT:
            self.clock_sent = now
            step.out.append(Out("clock", self.clock_view(now), sequenced=False))
        return step

    def next_due(self) -> float | None:
        """The earliest time at which tick() may find something to do: a delayed aim
        preview, the clock repeat or the clock running out; None if nothing waits."""
        due = math.inf
        if self.pending_aim is not None:
            due = self.last_aim + 1.0 / self.settings.aim_rate - DUE_EARLY
        if self.clock_deadline is not None:
            repeat = self.clock_sent + CLOCK_REPEAT - DUE_EARLY
            due = min(due, self.clock_deadline, repeat)
        return None if due == math.inf else due

    # -- internals -------------------------------------------------------------------
    def _ask(self, judge_fn: Callable[[MatchState, int], Ruling], seat: int) -> Ruling:
        try:
            return judge_fn(self.state, seat)
        except StrokeRefused as e:
            raise MatchRefused("not_now", e.message, e.rule) from None

    def _judged(self, ruling: Ruling, cause: str, seat: int | None, now: float) -> Step:
        """Apply a ruling that has no motion: it is delivered at once."""
        self.state = ruling.state
        entry = {"kind": cause, "at": now, "seat": seat, "ruling": ruling.to_dict()}
        step = Step(out=self._ruling_outs(ruling, cause, None, seat), log=[entry])
        self._delivered(step.out)
        step.log.extend(self._end_entry(now))
        step.out.extend(self._restart_clock(now))
        return step

    def _ruling_outs(
        self, ruling: Ruling, cause: str, stroke: int | None, seat: int | None = None
    ) -> list[Out]:
        self.last_cause = cause
        data: RulingView = {
            "stroke": stroke,
            "seat": ruling.seat if seat is None else seat,
            "cause": cause,
            "lines": [ln.to_dict() for ln in ruling.lines],
            "ruling": ruling.to_dict(),
            "discs": self.rest_discs(),
            "turn": self.turn,
            "set": self.set_in_play(),
            "score": self.score(),
            "sides": self.sides(),
        }
        outs = [Out("ruling", dict(data))]
        if self.state.finished:
            outs.append(Out("result", self.result_view()))
        return outs

    def _delivered(self, outs: list[Out]) -> None:
        """Keep the ruling being delivered, so that a full resync shows it too (a reloaded
        page would otherwise show no ruling until the next stroke)."""
        for out in outs:
            if out.kind == "ruling":
                self.last_ruling = out.data

    def take_back(self, before: MatchState, now: float) -> Step:
        """Practice: back to the position before a stroke, its player to strike again."""
        self.state = before
        self.pending_aim = None
        step = Step(out=[Out("takeback", {"stroke": self.strokes, "turn": self.turn})])
        step.log.append({"kind": "takeback", "at": now, "state": before.to_dict()})
        step.out.extend(self.resume_clock(now))
        return step

    def set_in_play(self) -> int:
        """The set being played (1-based); once the match is over, the set it ended in
        (never one past the sets of the match)."""
        state = self.shown
        result = state.match_result
        if result is not None and result.get("reason") == "sets" and state.set_results:
            return int(state.set_results[-1]["set"])
        return min(state.set_no, state.config.sets)

    def result_view(self) -> dict[str, Any]:
        """The `result` message's data."""
        result = self.state.match_result or {}
        winner = result.get("winner")
        return {
            "match": self.id,
            "winner": winner if winner in (0, 1) else None,
            "score": self.score(),
            "cause": self.last_cause,
            "result": result,
            "record": f"/api/matches/{self.id}",
        }

    def _end_entry(self, now: float) -> list[dict[str, Any]]:
        if not self.state.finished:
            return []
        self.ended = now
        return [
            {"kind": "end", "at": now, "result": self.state.match_result, "score": self.score()}
        ]

    def _stop_clock(self, now: float) -> None:
        if self.clock_deadline is not None:
            self.clock_left = max(0.0, self.clock_deadline - now)
        self.clock_deadline = None

    def _restart_clock(self, now: float) -> list[Out]:
        """A fresh stroke clock for the seat to strike (held while that player is away)."""
        self.clock_left = self.state.config.stroke_clock
        self.clock_deadline = None
        if self.state.finished:
            return []
        if self.turn not in self.away:
            self.clock_deadline = now + self.clock_left
        self.clock_sent = now
        return [Out("clock", self.clock_view(now), sequenced=False)]

    # -- checkpoint ------------------------------------------------------------------
    def to_dict(self, now: float) -> dict[str, Any]:
        """Checkpoint data: the rules state, the counters, the clock and the motion in flight."""
        return {
            "id": self.id,
            "state": self.state.to_dict(),
            "started": self.started,
            "first_team": self.first_team,
            "strokes": self.strokes,
            "clock_left": self.clock_view(now)["remaining"],
            "motion": None if self.motion is None else self.motion.to_dict(),
            "last_cause": self.last_cause,
            "last_ruling": self.last_ruling,
            "ended": self.ended,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any], settings: Settings) -> Match:
        """Inverse of to_dict. The clock is held: the caller restarts it when play resumes."""
        match = cls(
            d["id"], MatchState.from_dict(d["state"]), settings, d["started"], d["first_team"]
        )
        match.strokes = d["strokes"]
        match.clock_left = d["clock_left"]
        match.motion = None if d["motion"] is None else Motion.from_dict(d["motion"])
        match.last_cause = d["last_cause"]
        match.last_ruling = d.get("last_ruling")
        match.ended = d["ended"]
        return match

    def resume_clock(self, now: float) -> list[Out]:
        """After a restart: a fresh clock for the seat to strike (held while it is away)."""
        return [] if self.motion is not None else self._restart_clock(now)
