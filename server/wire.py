"""The server->client messages as types (docs/protocol.md): what the server builds and the
client reads. Pure: the modules that build these messages annotate them with these types, and
server/net/typegen.py writes them, with the client->client messages of server/net/protocol.py,
as TypeScript for the client's type check (web/js/protocol.d.ts), so that a field renamed here
fails the client's build, and one the server builds otherwise fails mypy.

The games' own parts (the table, a match's view, the discs, a stroke's paths, a ruling's facts)
are the game's (server/games/seam.py) and stay open mappings here."""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

Game = dict[str, Any]
"""A game's own view (the seam's): open to the platform, read by that game's client code."""


class RuleOptions(TypedDict, total=False):
    """A room's rule options (a Crokinole room's, docs/crokinole.md); `create` sends them as
    fields of its own."""

    scoring: Literal["tournament", "conventional"]  # 002 4 f, 4 g
    target: int  # 002 4 g
    direct_hit: bool
    line_discs_stay: bool
    free_order: bool  # 002 7 c
    players: int  # 3 or 4 each alone, 002 7 d


class RoomOptions(RuleOptions, total=False):
    """A room's options as `room` and the lobby show them: its rules, and what the platform
    made it (docs/protocol.md, `room`): practice against the computer (docs/bot.md), or a
    competition's table (server/lobby/reserved.py, docs/competitions.md)."""

    practice: bool
    tournament: str  # the competition's id
    opener: int  # the team with the opening stroke, 004 § 31 (1) 1)
    held: list[str | None]  # the account uid each seat is held for


class SeatRef(TypedDict):
    room: str
    seat: int


class Welcome(TypedDict):
    t: Literal["welcome"]
    session: str
    token: str
    name: str
    account: str | None
    seat: SeatRef | None
    speed_factor: float
    grace: float
    protocol: str


class ErrorMessage(TypedDict):
    t: Literal["error"]
    code: str
    message: str
    ref: NotRequired[int | str]
    rule: NotRequired[str]
    reason: NotRequired[str]


class Identity(TypedDict):
    """Who sits at a seat, as every view shows it."""

    registered: bool
    rating: int | None
    provisional: bool
    computer: int | None


class SeatView(Identity):
    """A seat of a `room` message."""

    seat: int
    team: int
    name: str
    ready: bool
    away: float | None
    side: Any


class LobbyPlayer(Identity):
    name: str
    ready: bool


class RoomSummary(TypedDict):
    """A room as the lobby lists it."""

    id: str
    game: str
    options: RoomOptions
    mode: str
    sets: int
    clock: float
    status: str
    players: list[LobbyPlayer | None]
    rated: bool
    watchers: int
    score: list[int] | None


class LobbyCounts(TypedDict):
    rooms: int
    live: int


class Lobby(TypedDict):
    t: Literal["lobby"]
    rooms: list[RoomSummary]
    live: list[RoomSummary]
    counts: LobbyCounts
    queue: dict[str, int]


class You(TypedDict):
    role: Literal["player", "watcher"]
    seat: int | None


class Room(TypedDict):
    """The full state of a room, for a player at a seat or a watcher."""

    t: Literal["room"]
    seq: int
    id: str
    game: str
    options: RoomOptions
    mode: str
    sets: int
    clock: float
    private: bool
    rated: bool
    status: str
    watchers: int
    invite: str | None
    you: You
    seats: list[SeatView | None]
    table: Game
    match: Game | None
    discs: list[Game]
    motion: Game | None
    rematch: list[int]


class ChatLine(TypedDict):
    """A chat line (`team`: the team it was for, None: the whole room)."""

    seat: int | None
    name: str
    text: str
    team: int | None


class Gone(TypedDict):
    seat: int
    name: str
    grace: float


class Back(TypedDict):
    seat: int
    name: str


class Left(TypedDict):
    t: Literal["left"]
    room: str | None


class Watchers(TypedDict):
    t: Literal["watchers"]
    room: str
    n: int


QuickWindow = TypedDict(  # `from` is a keyword: written as a call
    "QuickWindow", {"from": float, "to": float, "widen": float, "open_after": float}
)
"""The shown ratings a quick match accepts at once, widening by `widen` points a second,
anybody after `open_after` seconds (server/lobby/pairing.py reach)."""


class Queued(TypedDict):
    t: Literal["queued"]
    mode: str
    game: str
    waiting: int
    rated: bool  # the match will be rated (server/lobby/pairing.py reach)
    window: QuickWindow | None  # None: anybody (a guest, or an unrated queue)
    players: NotRequired[int]  # a table of 3 or 4 players each alone (002 7 d)


class Pong(TypedDict):
    t: Literal["pong"]
    n: int | None
    time: float


class Hidden(TypedDict):
    t: Literal["hidden"]
    seq: int


class Motion(TypedDict):
    """A stroke's motion asked for again, and how far it has played."""

    t: Literal["motion"]
    stroke: int
    time: float


class ComputerTakes(TypedDict):
    """Quick match: nobody came, the computer plays."""

    t: Literal["computer"]
    mode: str
    level: int
    waited: float


ChallengeWhy = Literal["accepted", "declined", "cancelled", "expired", "busy", "gone"]

# `from` is a keyword: these two are written as calls. A challenge's terms (docs/protocol.md,
# "Challenges"), and how long it still waits for its answer.
Challenged = TypedDict(
    "Challenged",
    {
        "t": Literal["challenged"], "id": str, "game": str, "mode": str, "sets": int,
        "clock": float, "rated": bool, "expires_in": float, "from": str,
    },
)  # fmt: skip


class ChallengeSent(TypedDict):
    t: Literal["challenge_sent"]
    id: str
    game: str
    mode: str
    sets: int
    clock: float
    rated: bool
    expires_in: float
    to: str  # fmt: skip


class ChallengeEnd(TypedDict):
    t: Literal["challenge_end"]
    id: str
    why: ChallengeWhy


SERVER_MESSAGES: tuple[type, ...] = (
    RuleOptions,
    RoomOptions,
    SeatRef,
    Welcome,
    ErrorMessage,
    Identity,
    SeatView,
    LobbyPlayer,
    RoomSummary,
    LobbyCounts,
    Lobby,
    You,
    Room,
    ChatLine,
    Gone,
    Back,
    Left,
    Watchers,
    QuickWindow,
    Queued,
    Pong,
    Hidden,
    Motion,
    ComputerTakes,
    Challenged,
    ChallengeSent,
    ChallengeEnd,
)
"""Every type above, in the order the generator writes them."""
SEQUENCED: dict[str, type] = {"chat": ChatLine, "gone": Gone, "back": Back}
"""The room's events of these types: sent with their `t` and `seq` (server/lobby/room.py emit)."""
