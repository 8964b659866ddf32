"""The values a tournament is made of: frozen, JSON-ready dataclasses (004 §§ 5-6, 29-32)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .errors import BadSettings

Kind = Literal["singles", "doubles"]
Form = Literal["individual", "team", "individual_team"]
System = Literal["round_robin", "swiss"]

# Result.forfeit / GameResult.forfeit when neither side came: both lose (004 § 22 (3)).
BOTH = "*"

# The tie-breaks an organiser may choose, in the order he lists them (docs/tournaments.md).
TIEBREAKS = ("sets_difference", "head_to_head", "buchholz", "sonneborn_berger")


@dataclass(frozen=True)
class Entrant:
    """A player, a doubles pair or a team; `members` are the players of a pair or a team, a
    team's in board order I, II, III ... (004 § 29 (2); see teams.order_boards)."""

    id: str
    name: str
    rating: float | None = None
    members: tuple[str, ...] = ()


@dataclass(frozen=True)
class Scale:
    """Points for a win, a draw and a loss in the tournament table (004 § 32 (2))."""

    win: float
    draw: float
    loss: float = 0.0

    def __post_init__(self) -> None:
        if not self.win >= self.draw >= self.loss >= 0 or self.win == self.loss:
            raise BadSettings("points must fall from win to draw to loss, win above loss")


# 004 § 32 (2) 1), 2): singles 2/1/0, doubles 4/2/0.
SINGLES = Scale(2.0, 1.0, 0.0)
DOUBLES = Scale(4.0, 2.0, 0.0)


def default_scale(kind: Kind) -> Scale:
    """The rule book's scale for a kind of play (004 § 32 (2) 1), 2))."""
    return SINGLES if kind == "singles" else DOUBLES


@dataclass(frozen=True)
class GameSpec:
    """One match of a team encounter (004 § 29 (3), (4)): singles or doubles, the boards whose
    players play it (boards count from 1: (1,) is board I against board I, (1, 2) the players of
    boards I and II as a pair), its number of sets, and its points scale (None: the rule book's
    for its kind, 004 § 32 (2); note 1 recommends equal scales when sets are shortened)."""

    kind: Kind
    boards: tuple[int, ...]
    sets: int
    points: Scale | None = None

    def __post_init__(self) -> None:
        size = 1 if self.kind == "singles" else 2
        if len(self.boards) != size or len(set(self.boards)) != size or min(self.boards) < 1:
            raise BadSettings(f"a {self.kind} game needs {size} distinct boards from I")
        if self.sets < 1:
            raise BadSettings("a game needs at least one set")

    @property
    def scale(self) -> Scale:
        """The points scale of this game."""
        return self.points or default_scale(self.kind)


@dataclass(frozen=True)
class Settings:
    """What the competition regulations fix (004 § 3, § 6 (5), § 29 (4)).

    `kind` and `sets`/`points` apply to the matches of an individual competition; a team or
    individual-team competition plays the `games` of each encounter instead (004 § 29 (3)).
    `rounds` is the number of Swiss rounds; a round robin plays everyone once (None).
    `play_all_games`: every game of a team encounter is played even once it is decided, as in
    cup and title competitions (004 § 29 (7)); otherwise the encounter may stop there.
    `tiebreaks` and `byes_count` are the regulations' choices where 004 is silent
    (docs/tournaments.md, "The organiser's regulations").
    """

    kind: Kind = "singles"
    form: Form = "individual"
    system: System = "round_robin"
    rounds: int | None = None
    sets: int = 4
    points: Scale | None = None
    # 004 § 32 (2), § 29 (3) give no tie-break: entrants level on points share a place unless
    # the regulations (§ 3) list tie-breaks, in the order they apply.
    tiebreaks: tuple[str, ...] = ()
    games: tuple[GameSpec, ...] = ()
    play_all_games: bool = True
    # 004 § 32 (3) 2) "at least half of the rounds": whether a round with a bye counts as one
    # played. The text does not settle it; the regulations (§ 3) do. False: only encounters
    # count, against the encounters the entrant was to play.
    byes_count: bool = False

    def __post_init__(self) -> None:
        if self.kind not in ("singles", "doubles"):
            raise BadSettings(f"kind must be singles or doubles, not {self.kind!r}")
        if self.form not in ("individual", "team", "individual_team"):
            raise BadSettings(f"form must be individual, team or individual_team: {self.form!r}")
        if self.system not in ("round_robin", "swiss"):
            raise BadSettings(f"system must be round_robin or swiss, not {self.system!r}")
        if self.system == "swiss" and (self.rounds is None or self.rounds < 1):
            raise BadSettings("a Swiss competition needs a set number of rounds")
        if self.system == "round_robin" and self.rounds is not None:
            raise BadSettings("a round robin plays each pair once: leave rounds unset")
        if self.sets < 1:
            raise BadSettings("a match needs at least one set")
        unknown = [t for t in self.tiebreaks if t not in TIEBREAKS]
        if unknown or len(set(self.tiebreaks)) != len(self.tiebreaks):
            raise BadSettings(f"tie-breaks are distinct ones of {', '.join(TIEBREAKS)}")
        if self.teams and not self.games:
            raise BadSettings("a team competition needs the games of an encounter (§ 29 (3))")
        if not self.teams and self.games:
            raise BadSettings("games are for team competitions")

    @property
    def teams(self) -> bool:
        """Whether entrants are teams playing encounters of several games (004 § 6 (3), (4))."""
        return self.form != "individual"

    @property
    def scale(self) -> Scale:
        """The points scale of an individual competition's matches (004 § 32 (2))."""
        return self.points or default_scale(self.kind)

    @property
    def board_count(self) -> int:
        """How many players a team needs at least: its highest board."""
        return max((max(g.boards) for g in self.games), default=0)


@dataclass(frozen=True)
class GamePairing:
    """One game of a team encounter: who plays it for each team and who opens (004 § 31 (2))."""

    game: int
    kind: Kind
    a_players: tuple[str, ...]
    b_players: tuple[str, ...]
    sets: int
    opener: str


@dataclass(frozen=True)
class Pairing:
    """An encounter of a round at a table; `b` None is a bye (`a` has no opponent). `opener` has
    the right of the opening stroke (004 § 31); `games` are a team encounter's games."""

    round: int
    table: int
    a: str
    b: str | None
    opener: str | None
    games: tuple[GamePairing, ...] = ()

    def involves(self, entrant: str) -> bool:
        """Whether the entrant plays in this encounter."""
        return entrant in (self.a, self.b)


@dataclass(frozen=True)
class GameResult:
    """The sets of one game of a team encounter, a first; `forfeit` names the team whose player
    did not appear (004 § 22 (3)) and so lost the game, or is BOTH when neither did."""

    sets_a: int
    sets_b: int
    forfeit: str | None = None


@dataclass(frozen=True)
class Result:
    """The result of an encounter: sets won by `a` and `b`; `by_hand` when entered by the
    organiser from a match at a real table; `forfeit` names the entrant who lost by not
    appearing (004 § 22 (3)) or by withdrawing (a minus, 004 § 32 (3) 1)), or is BOTH when
    neither side came and both lose. A team encounter
    carries the result of each game in `games`, and its sets are their sums."""

    round: int
    a: str
    b: str
    sets_a: int
    sets_b: int
    by_hand: bool = False
    forfeit: str | None = None
    games: tuple[GameResult, ...] = ()

    def involves(self, entrant: str) -> bool:
        """Whether the entrant played in this encounter."""
        return entrant in (self.a, self.b)


@dataclass(frozen=True)
class Withdrawal:
    """An entrant who left after `played` encounters in round `round`; `kept` when his results
    stay in the table (at least half played), else they are struck out (004 § 32 (3))."""

    entrant: str
    round: int
    played: int
    kept: bool


@dataclass(frozen=True)
class Standing:
    """A line of the standings; `tiebreaks` are the values of Settings.tiebreaks, in order."""

    rank: int
    entrant: str
    points: float
    sets_for: int
    sets_against: int
    tiebreaks: tuple[float, ...]
    played: int
    wins: int
    draws: int
    losses: int
