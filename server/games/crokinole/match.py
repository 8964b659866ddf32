"""The match runner of a Crokinole room: the rules of server/games/crokinole behind the
`GameMatch` protocol (server/games/seam.py), as Novuss's `Match` is.

The seam: a room's match offers new / strike / aim / pass_turn / resign / absent /
set_away / tick / finish_motion, the views (view, discs, sides, score, clock_view,
result_view) and to_dict / from_dict; both games' matches do. Protocol coordinates are
millimetres from the south-west corner of the square around the playing surface, so they
are never negative; the rules work from the board's centre. Seed 002 has no stroke clock:
the clock is shown held. A player who resigns or stays away past the grace loses the game
for the side (the room's rule for both games).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from server.games.core.paths import disc_view
from server.games.core.play import MatchRefused, Motion, Out, RulingView, Settings, Shot, Step
from server.games.crokinole.board import TOURNAMENT
from server.games.crokinole.judge import Ruling, close_round, judge_shot, round_over, winners
from server.games.crokinole.physics import WHERES, ShotResult
from server.games.crokinole.rules import Options, ShotRefused, State, new_game

OFFSET = TOURNAMENT.surface_radius  # protocol (0, 0) is the south-west corner


@dataclass(frozen=True, slots=True)
class Status:
    """What the room reads of any match's state: finished, and the result."""

    finished: bool
    match_result: dict[str, Any] | None


def result_of(game: State, forfeit: int | None, cause: str) -> dict[str, Any]:
    """A finished game's winner (a side, or None on a tie) and cause: the rounds' score, or,
    when side `forfeit` resigned or stayed away (`cause`), the others ranked by the game so
    far (7 d: 3 or 4)."""
    if forfeit is not None:
        score = game.score
        others = [s for s in range(len(score)) if s != forfeit]
        top = max(score[s] for s in others)
        best = tuple(s for s in others if score[s] == top)
        return {"winner": best[0] if len(best) == 1 else None, "cause": cause}
    best = winners(game)
    return {"winner": best[0] if len(best) == 1 else None, "cause": "rounds"}


def board_view() -> dict[str, Any]:
    """The round board a client draws (docs/protocol.md, "Crokinole board")."""
    b = TOURNAMENT
    return {
        "game": "crokinole",
        "name": b.name,
        "size": 2.0 * b.surface_radius,
        "centre": [OFFSET, OFFSET],
        "surface_radius": b.surface_radius,
        "shooting_radius": b.shooting_radius,
        "ring10_radius": b.ring10_radius,
        "ring15_radius": b.ring15_radius,
        "hole_radius": b.hole_radius,
        "peg_radius": b.peg_radius,
        "pegs": [[x + OFFSET, y + OFFSET] for x, y in b.pegs()],
        "disc_radius": b.disc_radius,
        "max_speed": b.max_speed,
    }


def rule_options(seats: int, options: dict[str, Any]) -> Options:
    """The rules' options of a room: its seats are the players; a `players` option means
    each plays alone (002 7 d), else four seats are two teams of partners (002 1)."""
    chosen = {k: v for k, v in options.items() if k != "players"}
    return Options(players=seats, teams="players" not in options, **chosen)


def track(result: ShotResult, before: State) -> dict[str, Any]:
    """A shot's motion as the wire carries it, live and in replays
    (server/games/core/paths.py): every disc's path as a compact row [id, kind (1: a disc;
    Crokinole has no striker), owner (its colour), where (WHERES' index), t_end, x_end,
    y_end, then segments t0, x0, y0, vx, vy ...]: from t_end on the disc is at (x_end,
    y_end), its final place, exactly (0.0: it never moved). The paths are in the rules'
    coordinates: `origin` is their (0, 0), the board's centre, in the protocol's."""
    side = before.options.side_of
    rows: dict[int, list[Any]] = {}
    moving: dict[int, bool] = {}
    for seg in result.segments:
        rows.setdefault(seg.id, []).extend((seg.t, seg.x, seg.y, seg.vx, seg.vy))
        moving[seg.id] = seg.vx != 0.0 or seg.vy != 0.0
    ends: dict[int, float] = {}
    for e in result.events:
        if e.kind in ("stop", "hole", "ditch"):
            ends[e.a] = max(ends.get(e.a, 0.0), e.t)
    out = []
    for f in result.finals:
        segs = rows[f.id]
        last_t = float(segs[-5])
        t_end = max(last_t, ends.get(f.id, 0.0))
        if moving[f.id] and t_end == last_t:  # stopped by nothing (the physics' safety stop)
            t_end = result.duration
        out.append([f.id, 1, side(f.id // 10), WHERES.index(f.where), t_end, f.x, f.y, *segs])
    return {
        "decel": before.board.decel,
        "duration": result.duration,
        "origin": [OFFSET, OFFSET],
        "wheres": list(WHERES),
        "paths": out,
    }


class CrokinoleMatch:
    """The match of one Crokinole room: the rules state and the shot in flight."""

    def __init__(self, mid: str, game: State, settings: Settings, started: float, first_team: int):
        self.id = mid
        self.game = game
        self.settings = settings
        self.started = started
        self.first_team = first_team
        self.strokes = 0
        self.motion: Motion | None = None
        self.before: State | None = None  # the game as before the shot in flight
        self.away: set[int] = set()
        self.forfeit: int | None = None  # the side that resigned or stayed away
        self.last_cause = ""
        self.last_ruling: dict[str, Any] | None = None
        self.ended: float | None = None
        self.clock = 0.0

    @classmethod
    def new(
        cls,
        mid: str,
        seats: int,
        first_team: int,
        now: float,
        settings: Settings,
        options: dict[str, Any] | None = None,
    ) -> tuple[CrokinoleMatch, Step]:
        """A new game with the room's options (scoring, target, direct_hit,
        line_discs_stay, free_order, players); the first shot went by lot to first_team's
        first seat (002 1; with 7 d first_team is a seat)."""
        game = new_game(rule_options(seats, options or {}), first=first_team)
        match = cls(mid, game, settings, now, first_team)
        entry = {
            "kind": "start",
            "at": now,
            "game": "crokinole",
            "first_team": first_team,
            "state": game.to_dict(),
        }
        return match, Step(log=[entry])

    # -- views -----------------------------------------------------------------------
    @property
    def state(self) -> Status:
        return Status(self.game.over, self.result() if self.game.over else None)

    @property
    def position(self) -> State:
        """What the computer searches from: the rules' state, made anew only by a shot (the
        `state` view is made afresh on each read)."""
        return self.game

    @property
    def shown(self) -> Status:
        """What the room shows: while a shot is in flight, the game as before it (its
        ruling, when delivered, says whether it ended)."""
        if self.motion is not None:
            return Status(False, None)
        return self.state

    @property
    def phase(self) -> str:
        if self.motion is not None:
            return "motion"
        return "over" if self.game.over else "play"

    @property
    def turn(self) -> int | None:
        return self.game.turn[0] if len(self.game.turn) == 1 else None

    def result(self) -> dict[str, Any]:
        """The winner (a side, or None on a tie) and the cause."""
        return result_of(self.game, self.forfeit, self.last_cause)

    def sides(self) -> list[str]:
        opts = self.game.options
        return [f"colour {opts.side_of(s)}" for s in range(opts.players)]

    def score(self) -> list[int]:
        return list(self.game.score)

    def rest_discs(self) -> list[dict[str, Any]]:
        side = self.game.options.side_of
        return [disc_view(d.id, side(d.seat), d.x + OFFSET, d.y + OFFSET) for d in self.game.discs]

    def discs(self, now: float) -> list[dict[str, Any]]:
        if self.motion is not None and self.motion.track is not None:
            return self.motion.discs_at(self.motion.time_at(now, self.settings))
        return self.rest_discs()

    def clock_view(self, now: float) -> dict[str, Any]:
        return {"seat": self.turn, "remaining": 0.0, "running": False}

    def round_view(self, game: State | None = None) -> dict[str, Any]:
        """The round in play: its number, twenties aside, discs left, turn (any of `turn`);
        of `game` (the one shown) or the current one."""
        g = game or self.game
        return {
            "round": g.round_no,
            "twenties": list(g.twenties),
            "shots_left": list(g.shots_left),
            "turn": list(g.turn),
            "rounds": [list(r) for r in g.rounds],
        }

    def view(self, now: float) -> dict[str, Any]:
        """The match as the room shows it: while a shot is in flight, the game as before it
        (its turn, round, score and result), as Novuss shows it; the ruling says the rest
        when the motion has played (docs/protocol.md, "room")."""
        shown = self.before if self.motion is not None and self.before is not None else None
        game = shown or self.game
        turn = (game.turn[0] if len(game.turn) == 1 else None) if shown else self.turn
        return {
            "id": self.id,
            "game": "crokinole",
            "stroke": self.strokes,
            "turn": turn,
            "set": game.round_no,
            "score": list(game.score),
            "clock": {"seat": turn, "remaining": 0.0, "running": False},
            "phase": self.phase,
            "result": self.result_view() if self.shown.match_result else None,
            "rules": game.to_dict(),
            "round": self.round_view(game),
            "last_ruling": self.last_ruling,
        }

    # -- actions ---------------------------------------------------------------------
    def _require_rest(self) -> None:
        if self.game.over:
            raise MatchRefused("not_now", "The match is over.")
        if self.motion is not None:
            raise MatchRefused("not_now", "Wait until the discs are at rest.", "5")

    def aim(self, seat: int, x: float, y: float, angle: float, power: float, now: float) -> Step:
        """Aim previews are cosmetic: passed on at once to the room, never stored."""
        if self.motion is not None or seat not in self.game.turn:
            return Step()
        return Step(
            out=[
                Out(
                    "aim",
                    {"seat": seat, "x": x, "y": y, "angle": angle, "power": power},
                    sequenced=False,
                )
            ]
        )

    def strike(self, seat: int, shot: Shot, now: float) -> Step:
        """Check, simulate and judge a shot; its ruling (and round) follow the play-out."""
        self._require_rest()
        before = self.game
        try:
            after, ruling, result = judge_shot(
                before, seat, shot.x - OFFSET, shot.y - OFFSET, shot.angle, shot.speed
            )
        except ShotRefused as e:
            # a shot out of turn is what every game calls it (docs/protocol.md), its rule kept
            code = "not_your_turn" if e.code == "not_your_turn" else "bad_stroke"
            raise MatchRefused(code, f"Refused: {e.code}.", e.paragraph, e.code) from None
        self.strokes += 1
        self.before = before
        self.game = after
        at_rest = self.rest_discs()  # as the shot left them, before a round's end clears them
        rounds = self._close_round_if_done(now)
        outs = [self._ruling_out(ruling, at_rest), *rounds]
        self.motion = self._motion(seat, shot, result, outs, now, before)
        entry = {
            "kind": "stroke", "at": now, "stroke": self.strokes, "seat": seat,
            "shot": {"x": shot.x, "y": shot.y, "angle": shot.angle, "speed": shot.speed},
            "duration": result.duration, "hash": result.state_hash(),
            "ruling": ruling_dict(ruling),
        }  # fmt: skip
        log = [entry] + ([self._end_entry(now)] if self.game.over else [])
        stroke = Out("stroke", dict(self.motion.start_view()))
        return Step(out=[stroke], log=log, motion=self.motion)

    def _motion(
        self, seat: int, shot: Shot, result: ShotResult, outs: list[Out], now: float, before: State
    ) -> Motion:
        return Motion(
            stroke=self.strokes, seat=seat, shot=shot, duration=result.duration, started=now,
            after=outs, track=track(result, before),
        )  # fmt: skip

    def _ruling_out(self, ruling: Ruling, at_rest: list[dict[str, Any]]) -> Out:
        """The ruling with the discs the shot left and who shoots next (the next round's
        starter when the shot ended a round)."""
        self.last_cause = "stroke"
        data: RulingView = {
            "stroke": self.strokes, "seat": ruling.seat, "cause": "stroke",
            "lines": [ln.to_dict() for ln in ruling.lines],
            "game": "crokinole", "ruling": ruling_dict(ruling), "discs": at_rest,
            "turn": self.turn, "set": self.game.round_no, "score": self.score(),
            "round": self.round_view(), "sides": self.sides(),
        }  # fmt: skip
        return Out("ruling", dict(data))

    def _close_round_if_done(self, now: float) -> list[Out]:
        if not round_over(self.game):
            return []
        self.game, result = close_round(self.game)
        data = {
            "round": result.round_no, "totals": list(result.totals), "points": list(result.points),
            "rule": result.paragraph, "score": self.score(), "over": self.game.over,
            "lines": [ln.to_dict() for ln in result.lines],
        }  # fmt: skip
        outs = [Out("round", data)]
        if self.game.over:
            outs.append(Out("result", self.result_view()))
        return outs

    def finish_motion(self, now: float) -> Step:
        """The play-out ended: deliver the ruling (and the round's result)."""
        if self.motion is None:
            return Step()
        step = Step(out=list(self.motion.after))
        for out in step.out:
            if out.kind == "ruling":
                self.last_ruling = out.data
        self.motion = None
        self.before = None
        return step

    def pass_turn(self, seat: int, now: float) -> Step:
        """Crokinole has no pass: every disc is shot (002 2 c)."""
        raise MatchRefused("not_now", "Every disc must be shot.", "2 c")

    def resign(self, seat: int, now: float) -> Step:
        """The seat's side gives up the game."""
        self._require_rest()
        return self._forfeit(seat, "resign", now)

    def absent(self, seat: int, now: float) -> Step:
        """Away past the grace: the side loses."""
        if self.game.over or self.motion is not None:
            return Step()
        return self._forfeit(seat, "absent", now)

    def _forfeit(self, seat: int, cause: str, now: float) -> Step:
        self.forfeit = self.game.options.side_of(seat)
        self.last_cause = cause
        self.game = replace(self.game, over=True, turn=())
        return Step(
            out=[Out("result", self.result_view())],
            log=[{"kind": cause, "at": now, "seat": seat}, self._end_entry(now)],
        )

    def take_back(self, before: State, now: float) -> Step:
        """Practice: back to the game before a shot (the position the room kept as it was
        struck), its player to shoot again; what came after it (the computer's shots, a
        round it closed) is undone with it."""
        self.game = before
        step = Step(out=[Out("takeback", {"stroke": self.strokes, "turn": self.turn})])
        step.log.append({"kind": "takeback", "at": now, "state": before.to_dict()})
        return step

    def set_away(self, seat: int, away: bool, now: float) -> Step:
        (self.away.add if away else self.away.discard)(seat)
        return Step()

    def tick(self, now: float) -> Step:
        return Step()

    def next_due(self) -> float | None:
        return None  # no clock, and aim previews go through at once

    def result_view(self) -> dict[str, Any]:
        result = self.result()
        return {
            "match": self.id, "winner": result["winner"], "score": self.score(),
            "cause": self.last_cause, "result": result, "record": f"/api/matches/{self.id}",
        }  # fmt: skip

    def _end_entry(self, now: float) -> dict[str, Any]:
        self.ended = now
        return {"kind": "end", "at": now, "result": self.result(), "score": self.score()}

    # -- checkpoint ------------------------------------------------------------------
    def to_dict(self, now: float) -> dict[str, Any]:
        return {
            "game": "crokinole", "id": self.id, "state": self.game.to_dict(),
            "started": self.started,
            "first_team": self.first_team, "strokes": self.strokes,
            "motion": None if self.motion is None else self.motion.to_dict(),
            "before": None if self.motion is None or self.before is None
            else self.before.to_dict(),
            "forfeit": self.forfeit, "last_cause": self.last_cause,
            "last_ruling": self.last_ruling, "ended": self.ended,
        }  # fmt: skip

    @classmethod
    def from_dict(cls, d: dict[str, Any], settings: Settings) -> CrokinoleMatch:
        match = cls(d["id"], State.from_dict(d["state"]), settings, d["started"], d["first_team"])
        match.strokes = d["strokes"]
        match.motion = None if d["motion"] is None else Motion.from_dict(d["motion"])
        before = d.get("before")  # a checkpoint made before it was kept has none
        match.before = None if before is None else State.from_dict(before)
        match.forfeit = d["forfeit"]
        match.last_cause = d["last_cause"]
        match.last_ruling = d["last_ruling"]
        match.ended = d["ended"]
        return match

    def resume_clock(self, now: float) -> list[Out]:
        return []


def ruling_dict(r: Ruling) -> dict[str, Any]:
    """A ruling as plain data: codes and paragraphs, for the client to put in words."""
    return {
        "valid": r.valid, "code": r.code, "rule": r.paragraph, "disc": r.disc,
        "to_ditch": list(r.to_ditch), "out_of_play": list(r.out_of_play),
        "twenties": list(r.twenties), "restored": list(r.restored), "fell": list(r.fell),
        "next_turn": list(r.next_turn), "lines": [ln.to_dict() for ln in r.lines],
    }  # fmt: skip
