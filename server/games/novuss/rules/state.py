"""The state of a match as the referee keeps it: plain, frozen, and round-trippable.

Seats: singles 0 and 1; doubles 0..3 clockwise around the table, partners opposite
(0 & 2 are team 0, 1 & 3 team 1). A seat's side changes after every set; the side
holding the first-strike right never does (004 § 27 (2), § 28 (1)).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Literal

from server.games.novuss.rules.geometry import OPPOSITE, home_spots
from server.games.novuss.sim.table import COMPETITION, Table
from server.games.novuss.sim.types import SIDES, Side

Mode = Literal["singles", "doubles"]
Where = Literal["table", "pocket"]

PUCKS_PER_PLAYER = 8  # 004 § 19 (2), § 34 (1)


EDITION = 2
"""The referee's edition of new matches (MatchConfig.edition)."""


@dataclass(frozen=True, slots=True)
class MatchConfig:
    """What is fixed when a match is created.

    sets: scheduled sets (004 § 27 (2) names 4 or 6; any positive number is accepted).
    stroke_clock: seconds per stroke (004 § 26 (4): 30 s); the match runner times it.
    absent_limit: seconds a player may be away before his side loses (004 § 22 (3)).
    three_miss: which stalled pucks annul a set after three missed turns each:
        "circle" (004 § 27 (6): only pucks in the centre circle) or "blind"
        (000 § 8: only blind pucks, centre circle or own edge zone).
    max_speed: the fastest cue stroke accepted (mm/s); None takes the table preset's.
    blind_hit_moves: a direct stroke at one's own blind puck that moves this many other
        pucks loses the set (004 § 23 (1) 4): 2; 000 § 5: "one or more", 1).
    edition: the referee's reading the match is played under, so that a record replays as
        it was played. 2 (from 2026-11-28): 004 § 21 (4), (9) for every direct stroke whose
        first touch was not a legal one (an own blind puck or an opponent's puck). 1 (the
        matches before; stored data without the field): § 21 (4) only after a first touch
        of an own blind puck, § 21 (9) only after one of an opponent's puck. Left out of
        the plain data when 1, which keeps those matches' start states (and their notation's
        StartHash) as they were; left out of repr for the same reason.
    """

    mode: Mode = "singles"
    sets: int = 4
    stroke_clock: float = 30.0
    absent_limit: float = 120.0
    three_miss: Literal["circle", "blind"] = "circle"
    max_speed: float | None = None
    blind_hit_moves: int = 2
    edition: int = field(default=EDITION, repr=False)

    def __post_init__(self) -> None:
        if self.mode not in ("singles", "doubles"):
            raise ValueError(f"mode must be singles or doubles, not {self.mode!r}")
        if not isinstance(self.sets, int) or self.sets < 1:
            raise ValueError("sets must be a positive integer")
        if self.three_miss not in ("circle", "blind"):
            raise ValueError("three_miss must be 'circle' or 'blind'")
        if self.blind_hit_moves not in (1, 2):
            raise ValueError("blind_hit_moves must be 1 (000 § 5) or 2 (004 § 23 (1) 4))")
        if self.edition not in (1, EDITION):
            raise ValueError(f"edition must be 1 or {EDITION}")
        if self.stroke_clock <= 0 or self.absent_limit <= 0:
            raise ValueError("time limits must be positive")

    @property
    def seats(self) -> int:
        """Number of seats: 2 in singles, 4 in doubles."""
        return 2 if self.mode == "singles" else 4

    def to_dict(self) -> dict[str, Any]:
        """Plain data."""
        return {
            "mode": self.mode,
            "sets": self.sets,
            "stroke_clock": self.stroke_clock,
            "absent_limit": self.absent_limit,
            "three_miss": self.three_miss,
            "max_speed": self.max_speed,
            "blind_hit_moves": self.blind_hit_moves,
        } | ({} if self.edition == 1 else {"edition": self.edition})

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> MatchConfig:
        """Inverse of to_dict (data without `edition` is of the first)."""
        return cls(**{"edition": 1, **d})


@dataclass(frozen=True, slots=True)
class Puck:
    """One puck: its owner's seat, and where it is (on the table at x, y, or pocketed)."""

    id: int
    owner: int
    x: float
    y: float
    where: Where = "table"

    @property
    def on_table(self) -> bool:
        """True while the puck is on the table."""
        return self.where == "table"

    def at(self, x: float, y: float, where: Where = "table") -> Puck:
        """This puck at (x, y), on the table unless told otherwise. What dataclasses.replace
        would give, made directly: the referee moves many pucks in every stroke, and
        replace costs several times more."""
        return Puck(self.id, self.owner, x, y, where)


_SEATS: dict[str, tuple[int, ...]] = {"singles": (0, 1), "doubles": (0, 1, 2, 3)}
"""MatchConfig.seats as tuples, made once: the referee asks for them several times a stroke."""


def team_of(seat: int) -> int:
    """Team of a seat: singles seat = team; doubles partners 0 & 2, 1 & 3."""
    return seat % 2


@dataclass(frozen=True, slots=True)
class MatchState:
    """Everything the referee needs between two strokes.

    rotation: how many places the players have moved since the first set (one per set
    played, plus one per 8 + 8 replay, 004 § 27 (5) note). first_side: the side that
    opens every set; opener: the seat that opened the set in play. struck: the seats that
    have held the strike right in this set. answering: the team that cleared the table
    while a player of the other side had not yet held the strike right, and who now
    waits for that player's answer (8 + 8, 004 § 27 (5), § 28 (7)); answer_forfeit: that
    team lost the strike right with its clearing stroke (a puck over the rail, an opponent's
    pocketed with its own), so an answer that clears too wins the set (§ 27 (6)). misses:
    consecutive turns that missed stalled pucks (004 § 27 (6)). intact_rows: rails whose
    set-up row nobody has moved yet (004 § 28 (6)). debt: penalty pucks owed per seat
    (004 § 24 (4)). set_results: one entry per finished, annulled or replayed set.
    """

    config: MatchConfig
    first_side: Side
    rotation: int
    turn_seat: int | None
    pucks: tuple[Puck, ...]
    debt: tuple[int, ...]
    sets_won: tuple[int, int] = (0, 0)
    sets_played: int = 0
    set_strokes: int = 0
    strokes: int = 0
    opener: int = 0
    struck: tuple[int, ...] = ()
    answering: int | None = None
    # out of repr, and in to_dict only when set, so the digests of every state without it
    # (tests/rules/test_golden.py) stay as they were
    answer_forfeit: bool = field(default=False, repr=False)
    misses: int = 0
    intact_rows: tuple[Side, ...] = ()
    set_results: tuple[dict[str, Any], ...] = ()
    match_result: dict[str, Any] | None = None
    cautions: tuple[int, int] = (0, 0)  # per team, in the match (004 § 26 (2))
    delays: tuple[int, int] = (0, 0)  # passes and clocks run out per team, in this set
    table: Table = field(default=COMPETITION, compare=False, repr=False)

    # -- seats and sides -------------------------------------------------------------
    @property
    def seats(self) -> tuple[int, ...]:
        """All seats of the match."""
        return _SEATS[self.config.mode]

    def side_of(self, seat: int) -> Side:
        """The side a seat plays from in the current set (singles S/N; doubles
        clockwise S, W, N, E, moving one place clockwise per set, 004 § 28 (1))."""
        if self.config.mode == "singles":
            return ("S", "N")[(seat + self.rotation) % 2]
        return SIDES[(seat + self.rotation) % 4]

    def seat_at(self, side: Side) -> int:
        """The seat playing from `side` in the current set."""
        for s in self.seats:
            if self.side_of(s) == side:
                return s
        raise ValueError(f"nobody plays from {side} in singles")

    def next_seat(self, seat: int) -> int:
        """The seat that strikes after `seat` when the turn passes: the opponent in
        singles, the next seat clockwise in doubles (004 § 28 (1))."""
        return (seat + 1) % self.config.seats

    def teammates(self, seat: int) -> tuple[int, ...]:
        """The seats of a seat's team (itself first)."""
        if self.config.mode == "singles":
            return (seat,)
        return (seat, (seat + 2) % 4)

    @property
    def finished(self) -> bool:
        """True once the match is over."""
        return self.match_result is not None

    @property
    def set_no(self) -> int:
        """Number of the set in play (1-based; a replayed set keeps its number)."""
        return self.sets_played + 1

    # -- pucks -----------------------------------------------------------------------
    def on_table(self) -> tuple[Puck, ...]:
        """Pucks on the table."""
        # A list comprehension reading `where`: called a few times for every stroke.
        return tuple([p for p in self.pucks if p.where == "table"])

    def team_pucks(self, team: int, where: Where | None = None) -> tuple[Puck, ...]:
        """A team's pucks, optionally only those on the table or pocketed."""
        return tuple(
            p
            for p in self.pucks
            if team_of(p.owner) == team and (where is None or p.where == where)
        )

    def team_debt(self, team: int) -> int:
        """Penalty pucks a team owes."""
        return sum(d for s, d in enumerate(self.debt) if team_of(s) == team)

    def puck(self, pid: int) -> Puck:
        """The puck with id `pid`."""
        return self.pucks[pid - 1]

    # -- plain data ------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Plain, msgpack-able data; MatchState.from_dict(s.to_dict()) == s."""
        return {
            "config": self.config.to_dict(),
            "first_side": self.first_side,
            "rotation": self.rotation,
            "turn_seat": self.turn_seat,
            "pucks": [[p.id, p.owner, p.x, p.y, p.where] for p in self.pucks],
            "debt": list(self.debt),
            "sets_won": list(self.sets_won),
            "sets_played": self.sets_played,
            "set_strokes": self.set_strokes,
            "strokes": self.strokes,
            "opener": self.opener,
            "struck": list(self.struck),
            "answering": self.answering,
            "misses": self.misses,
            "intact_rows": list(self.intact_rows),
            "set_results": [dict(r) for r in self.set_results],
            "match_result": None if self.match_result is None else dict(self.match_result),
            "cautions": list(self.cautions),
            "delays": list(self.delays),
            # only when set: the form (and the digests) of every other state stays as it was
            **({"answer_forfeit": True} if self.answer_forfeit else {}),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> MatchState:
        """Inverse of to_dict (the table is the competition table)."""
        return cls(
            config=MatchConfig.from_dict(d["config"]),
            first_side=d["first_side"],
            rotation=d["rotation"],
            turn_seat=d["turn_seat"],
            pucks=tuple(
                Puck(int(i), int(o), float(x), float(y), w) for i, o, x, y, w in d["pucks"]
            ),
            debt=tuple(d["debt"]),
            sets_won=(d["sets_won"][0], d["sets_won"][1]),
            sets_played=d["sets_played"],
            set_strokes=d["set_strokes"],
            strokes=d["strokes"],
            opener=d["opener"],
            struck=tuple(d["struck"]),
            answering=d["answering"],
            answer_forfeit=d.get("answer_forfeit", False),
            misses=d["misses"],
            intact_rows=tuple(d["intact_rows"]),
            set_results=tuple(dict(r) for r in d["set_results"]),
            match_result=None if d["match_result"] is None else dict(d["match_result"]),
            # absent from a state stored before cautions existed: none given yet
            cautions=_pair(d.get("cautions", (0, 0))),
            delays=_pair(d.get("delays", (0, 0))),
        )


def as_mode(mode: str) -> Mode:
    """A mode named by a string (a room's, checked by the protocol) as a Mode."""
    if mode == "singles":
        return "singles"
    if mode == "doubles":
        return "doubles"
    raise ValueError(f"mode must be singles or doubles, not {mode!r}")


def _pair(v: Any) -> tuple[int, int]:
    return (int(v[0]), int(v[1]))


def puck_ids(seat: int) -> range:
    """The stable ids of a seat's eight pucks: seat 0 has 1..8, seat 1 9..16, ..."""
    return range(seat * PUCKS_PER_PLAYER + 1, (seat + 1) * PUCKS_PER_PLAYER + 1)


def home_rail(state: MatchState, seat: int) -> Side:
    """The rail along which a seat's pucks are set up: each player places his pucks and
    then goes to the other side of the table to strike (004 § 19 (1), 000 § 1)."""
    return OPPOSITE[state.side_of(seat)]


def set_up(state: MatchState) -> MatchState:
    """The state at the start of a set: every puck in its row, no debt, the opener (the
    seat on the first-strike side) to strike (004 § 19, § 27 (2), § 28 (1))."""
    pucks: list[Puck] = []
    for seat in state.seats:
        spots = home_spots(state.table, home_rail(state, seat))
        pucks.extend(
            Puck(pid, seat, x, y) for pid, (x, y) in zip(puck_ids(seat), spots, strict=True)
        )
    opener = state.seat_at(state.first_side)
    return replace(
        state,
        pucks=tuple(pucks),
        debt=(0,) * len(state.seats),
        turn_seat=opener,
        opener=opener,
        struck=(opener,),
        answering=None,
        answer_forfeit=False,
        set_strokes=0,
        misses=0,
        intact_rows=tuple(home_rail(state, s) for s in state.seats),
        delays=(0, 0),
    )


def new_match(config: MatchConfig, first_team: int, first_seat: int | None = None) -> MatchState:
    """A new match. The first-strike right was drawn by lot by the caller (004 § 31 (1)
    2)); in doubles the pair that won it chooses who opens (004 § 31 (3)): first_seat,
    by default the team's seat 0 or 1. That seat's side opens every set (§ 27 (2))."""
    if first_team not in (0, 1):
        raise ValueError("first_team must be 0 or 1")
    seat = first_team if first_seat is None else first_seat
    if team_of(seat) != first_team or not 0 <= seat < config.seats:
        raise ValueError("first_seat must be a seat of first_team")
    blank = MatchState(config=config, first_side="S", rotation=0, turn_seat=None, pucks=(), debt=())
    first_side = blank.side_of(seat)
    return set_up(replace(blank, first_side=first_side))
