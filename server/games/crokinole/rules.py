"""The set-up, order of play and shot placement of seed 002 (§ 1, 2, 5, 7 c-d).

A game state is a frozen value; `server.games.crokinole.judge.play_shot` makes the next one.
Seats are numbered clockwise seen from above, seat 0 at the south edge; a seat's
quadrant is the quarter of the board in front of it.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, replace
from typing import Any, Literal

from server.games.crokinole.board import TOURNAMENT, Board

Scoring = Literal["tournament", "conventional"]
ROUNDS_PER_GAME = 4  # 002 4 f


class ShotRefused(ValueError):
    """A shot the rules do not allow, with its code and seed 002's paragraph."""

    def __init__(self, code: str, paragraph: str):
        super().__init__(f"{code} ({paragraph})")
        self.code = code
        self.paragraph = paragraph


@dataclass(frozen=True, slots=True)
class Options:
    """What a room chooses at creation."""

    players: int = 2  # 2 singles, 4 doubles (two teams), 3 or 4 each alone (7 d)
    teams: bool = True  # with 4 players: partners opposite (1); False: four sides (7 d)
    scoring: Scoring = "tournament"  # 4 f or 4 g
    target: int = 100  # conventional play ends at this total (4 g)
    direct_hit: bool = False  # 7 a
    line_discs_stay: bool = False  # 7 b
    free_order: bool = False  # 7 c (doubles only)

    def check(self) -> None:
        """Refuse combinations seed 002 does not describe."""
        if self.players not in (2, 3, 4):
            raise ShotRefused("players", "1")
        if self.scoring == "conventional" and self.sides() != 2:
            raise ShotRefused("conventional_needs_two_sides", "4 g")
        if self.free_order and not self.doubles():
            raise ShotRefused("free_order_needs_doubles", "7 c")
        if self.target <= 0:
            raise ShotRefused("target", "4 g")

    def doubles(self) -> bool:
        """Two teams of two, partners opposite (002 1)."""
        return self.players == 4 and self.teams

    def sides(self) -> int:
        """How many colours (teams or lone players) score against each other."""
        return 2 if self.players == 2 or self.doubles() else self.players

    def side_of(self, seat: int) -> int:
        """The colour a seat plays (partners opposite share one, 002 1)."""
        return seat % 2 if self.doubles() else seat

    def discs_each(self) -> int:
        """8 discs in singles, 6 in doubles and in 3 and 4 player games (002 1, 7 d)."""
        return 8 if self.players == 2 else 6

    def quadrant(self, seat: int) -> int:
        """The quadrant in front of a seat: singles sit opposite (002 1)."""
        return 2 * seat if self.players == 2 else seat


@dataclass(frozen=True, slots=True)
class Disc:
    """A disc at rest on the board; its owner is seat id // 10."""

    id: int
    x: float
    y: float

    @property
    def seat(self) -> int:
        return self.id // 10


@dataclass(frozen=True, slots=True)
class State:
    """A Crokinole game between shots."""

    options: Options
    board: Board
    round_no: int  # from 1
    starter: int  # the seat that opened this round
    turn: tuple[int, ...]  # seats that may shoot now (one, except with 7 c)
    shots_left: tuple[int, ...]  # per seat
    discs: tuple[Disc, ...]  # on the board
    twenties: tuple[int, ...]  # per side, set aside this round (2 b)
    score: tuple[int, ...]  # per side, the game so far
    rounds: tuple[tuple[int, ...], ...] = ()  # each finished round's totals per side
    over: bool = False

    def to_dict(self) -> dict[str, Any]:
        """Plain data for the match log and a room's checkpoint (the board is a preset)."""
        return {
            "options": asdict(self.options),
            "round_no": self.round_no,
            "starter": self.starter,
            "turn": list(self.turn),
            "shots_left": list(self.shots_left),
            "discs": [[d.id, d.x, d.y] for d in self.discs],
            "twenties": list(self.twenties),
            "score": list(self.score),
            "rounds": [list(r) for r in self.rounds],
            "over": self.over,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any], board: Board = TOURNAMENT) -> State:
        """Inverse of to_dict."""
        return cls(
            options=Options(**d["options"]),
            board=board,
            round_no=d["round_no"],
            starter=d["starter"],
            turn=tuple(d["turn"]),
            shots_left=tuple(d["shots_left"]),
            discs=tuple(Disc(i, x, y) for i, x, y in d["discs"]),
            twenties=tuple(d["twenties"]),
            score=tuple(d["score"]),
            rounds=tuple(tuple(r) for r in d["rounds"]),
            over=d["over"],
        )

    def next_disc_id(self, seat: int) -> int:
        """The id of the seat's next disc to be shot."""
        return seat * 10 + (self.options.discs_each() - self.shots_left[seat])


def new_game(options: Options = Options(), first: int = 0, board: Board = TOURNAMENT) -> State:
    """A game ready for its first shot; `first` was drawn by chance by the caller (002 1)."""
    options.check()
    if not 0 <= first < options.players:
        raise ShotRefused("seat", "1")
    sides = options.sides()
    return State(
        options=options,
        board=board,
        round_no=1,
        starter=first,
        turn=(first,),
        shots_left=(options.discs_each(),) * options.players,
        discs=(),
        twenties=(0,) * sides,
        score=(0,) * sides,
    )


def next_round(state: State, totals: tuple[int, ...], score: tuple[int, ...], over: bool) -> State:
    """The board cleared and the next round opened: in singles the other player starts,
    otherwise the start moves clockwise (002 2 d)."""
    starter = (state.starter + 1) % state.options.players
    return replace(
        state,
        round_no=state.round_no + (0 if over else 1),
        starter=starter,
        turn=() if over else (starter,),
        shots_left=(0 if over else state.options.discs_each(),) * state.options.players,
        discs=(),
        twenties=(0,) * state.options.sides(),
        score=score,
        rounds=(*state.rounds, totals),
        over=over,
    )


def next_turn(state: State, seat: int) -> tuple[int, ...]:
    """Who shoots after `seat`: the next seat clockwise with discs left (002 2 a); with
    7 c, either player of the other team with discs left."""
    opts = state.options
    left = state.shots_left
    if opts.free_order:
        other = [
            s for s in range(opts.players) if opts.side_of(s) != opts.side_of(seat) and left[s]
        ]
        same = [s for s in range(opts.players) if left[s]]
        return tuple(other or same)
    for step in range(1, opts.players + 1):
        nxt = (seat + step) % opts.players
        if left[nxt]:
            return (nxt,)
    return ()


def quadrant_centre(quadrant: int) -> float:
    """The direction (radians) from the board's centre to a quadrant's middle:
    quadrant 0 south, then clockwise seen from above (west, north, east)."""
    return -math.pi / 2.0 - quadrant * math.pi / 2.0


def check_placement(state: State, seat: int, x: float, y: float) -> None:
    """Where a disc may start (002 5): touching or behind the shooting line, on the
    playing surface, in the shooter's quadrant, on no other disc; and only in turn."""
    if state.over:
        raise ShotRefused("game_over", "4 f" if state.options.scoring == "tournament" else "4 g")
    if seat not in state.turn:
        raise ShotRefused("not_your_turn", "7 c" if state.options.free_order else "2 a")
    b = state.board
    if not (math.isfinite(x) and math.isfinite(y)):
        raise ShotRefused("bad_position", "5")
    d = math.sqrt(x * x + y * y)
    if d + b.disc_radius < b.shooting_radius:
        raise ShotRefused("inside_shooting_line", "5")
    if d + b.disc_radius > b.surface_radius:
        raise ShotRefused("off_the_board", "5")
    off = math.atan2(y, x) - quadrant_centre(state.options.quadrant(seat))
    off = math.atan2(math.sin(off), math.cos(off))
    if abs(off) > math.pi / 4.0:
        raise ShotRefused("outside_quadrant", "5")
    for disc in state.discs:
        if math.hypot(disc.x - x, disc.y - y) < 2.0 * b.disc_radius:
            raise ShotRefused("spot_taken", "5")
