"""Decode and validate client messages; encode server messages. The one place that trusts no byte.

Every client message is a msgpack map with a type key "t". decode() turns bytes into one of the
frozen dataclasses below or raises ProtocolError(code, message, ref) (its field readers are in
server/net/fields.py); nothing else in the server looks at raw client data. See docs/protocol.md.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

import msgpack

from server.games import registry
from server.games.registry import DEFAULT, NAMES
from server.net.fields import Fields as _Fields
from server.net.fields import ProtocolError as ProtocolError
from server.net.names import NAME_MAX, BadName, clean_name

Mode = Literal["singles", "doubles"]
MODES: tuple[str, ...] = ("singles", "doubles")
PROTOCOL_VERSION = "2.4"
"""docs/protocol.md, "Version and changelog": a minor version adds, a major one changes."""
GAMES: tuple[str, ...] = NAMES  # the registry's (docs/crokinole.md)
SCORINGS: tuple[str, ...] = ("tournament", "conventional")  # 002 4 f, 4 g
TARGET_MIN, TARGET_MAX = 20, 500  # 002 4 g: "generally 100"
BOARD = 1080.0  # coordinates are checked against the playing surface (mm)
CHAT_MAX = 200
ID_MAX = 32
TOKEN_MAX = 64
SETS_MAX = 8
CLOCK_MIN, CLOCK_MAX = 5.0, 300.0
REF_MAX = 2**31 - 1
LEVELS = 5  # the computer's levels, 1 (a beginner) to 5 (docs/bot.md)
COMPUTER_WAIT_MIN, COMPUTER_WAIT_MAX = 5.0, 600.0  # quick match: the computer after so long
DEFAULT_MAX_SPEED = 8000.0


@dataclass(frozen=True, slots=True)
class Hello:
    name: str
    token: str | None = None


@dataclass(frozen=True, slots=True)
class LobbySub:
    on: bool = True


@dataclass(frozen=True, slots=True)
class Create:
    mode: Mode
    sets: int
    clock: float
    private: bool = False
    game: str = DEFAULT
    options: tuple[tuple[str, Any], ...] = ()  # a Crokinole room's options (docs/crokinole.md)
    rated: bool = False  # the result changes the ratings (registered players only)


@dataclass(frozen=True, slots=True)
class Join:
    room: str | None = None
    seat: int | None = None
    team: int | None = None
    invite: str | None = None


@dataclass(frozen=True, slots=True)
class Watch:
    room: str | None = None
    invite: str | None = None
    since: int | None = None


@dataclass(frozen=True, slots=True)
class Quick:
    mode: Mode
    game: str = DEFAULT
    computer_after: float | None = None  # seconds; then the computer at `level` plays
    level: int = 1
    players: int | None = None  # a table of 3 or 4 players each alone (002 7 d)


@dataclass(frozen=True, slots=True)
class Computer:
    """Play the computer: a Novuss or Crokinole room with the computer in some seats
    (docs/protocol.md)."""

    mode: Mode
    level: int
    sets: int
    clock: float
    partner: bool = False
    opponents: bool = True
    practice: bool = False
    private: bool = False
    game: str = DEFAULT


@dataclass(frozen=True, slots=True)
class Challenge:
    """Challenge a registered player, by username, to a room of these settings
    (docs/protocol.md, "challenge")."""

    to: str
    mode: Mode
    sets: int
    clock: float
    game: str = DEFAULT
    rated: bool = False


@dataclass(frozen=True, slots=True)
class ChallengeAnswer:
    id: str
    accept: bool


@dataclass(frozen=True, slots=True)
class ChallengeCancel:
    id: str


@dataclass(frozen=True, slots=True)
class Hint:
    pass


@dataclass(frozen=True, slots=True)
class TakeBack:
    pass


@dataclass(frozen=True, slots=True)
class Ready:
    ready: bool = True


@dataclass(frozen=True, slots=True)
class Aim:
    x: float
    y: float
    angle: float
    power: float


@dataclass(frozen=True, slots=True)
class Strike:
    x: float
    y: float
    angle: float
    speed: float


@dataclass(frozen=True, slots=True)
class Pass:
    pass


@dataclass(frozen=True, slots=True)
class Resign:
    pass


@dataclass(frozen=True, slots=True)
class Chat:
    text: str
    team: bool = False


@dataclass(frozen=True, slots=True)
class Leave:
    pass


@dataclass(frozen=True, slots=True)
class Rematch:
    pass


@dataclass(frozen=True, slots=True)
class Resume:
    room: str
    since: int


@dataclass(frozen=True, slots=True)
class Ping:
    n: int | None = None


ClientMessage = (
    Hello
    | LobbySub
    | Create
    | Join
    | Watch
    | Quick
    | Computer
    | Challenge
    | ChallengeAnswer
    | ChallengeCancel
    | Hint
    | TakeBack
    | Ready
    | Aim
    | Strike
    | Pass
    | Resign
    | Chat
    | Leave
    | Rematch
    | Resume
    | Ping
)


@dataclass(frozen=True, slots=True)
class Envelope:
    """A decoded message with the client's optional correlation reference."""

    msg: ClientMessage
    ref: int | str | None = None


def _angle(f: _Fields) -> float:
    # Any finite angle is accepted and normalised, so clients may send unwrapped angles.
    return math.remainder(f.number("angle", -1e6, 1e6), math.tau)


def _hello(f: _Fields) -> Hello:
    # the raw text may be longer than the name it cleans to (spaces collapsed, NFC)
    raw = f.text("name", 1, NAME_MAX * 4, says=f"1 to {NAME_MAX}")
    try:
        name = clean_name(raw)
    except BadName as refused:
        raise f.fail("name", str(refused)) from None
    return Hello(name=name, token=f.ident("token", TOKEN_MAX, False))


def _lobby(f: _Fields) -> LobbySub:
    return LobbySub(on=f.flag("on", True))


def _create(f: _Fields) -> Create:
    game = f.choice("game", GAMES, False) or DEFAULT
    options = (
        ("scoring", f.choice("scoring", SCORINGS, False)),
        ("target", f.integer("target", TARGET_MIN, TARGET_MAX, False)),
        ("direct_hit", f.flag("direct_hit", False) or None),
        ("line_discs_stay", f.flag("line_discs_stay", False) or None),
        ("free_order", f.flag("free_order", False) or None),
        ("players", f.integer("players", 3, 4, False)),
    )
    chosen = tuple((k, v) for k, v in options if v is not None)
    _own_options(f, game, [k for k, _ in chosen])
    mode = f.choice("mode", MODES)
    _crokinole_sides(f, mode, dict(chosen))
    return Create(
        mode=mode,
        sets=f.integer("sets", 1, SETS_MAX),
        clock=f.number("clock", CLOCK_MIN, CLOCK_MAX),
        private=f.flag("private", False),
        game=game,
        options=chosen,
        rated=f.flag("rated", False),
    )


def _own_options(f: _Fields, game: str, chosen: list[str]) -> None:
    """Refuse an option the game does not offer (its registry entry says which it does)."""
    played = registry.game(game)
    foreign = [k for k in chosen if k not in played.options]
    if foreign:
        owners = [g.title for g in map(registry.game, NAMES) if foreign[0] in g.options]
        raise f.fail(foreign[0], f"is an option of {' and '.join(owners)} rooms, not of"
                                 f" {played.title} rooms")  # fmt: skip


def _crokinole_sides(f: _Fields, mode: str, options: dict[str, Any]) -> None:
    """Refuse options that do not fit the room's players (seed 002 describes no such game)."""
    if options.get("free_order") and mode != "doubles":
        raise f.fail("free_order", "is an option of doubles (002 7 c)")
    if "players" in options and mode != "singles":
        raise f.fail("players", "3 or 4 players each alone (002 7 d) need mode singles")
    if "players" in options and options.get("scoring") == "conventional":
        raise f.fail("scoring", "conventional play is between two sides (002 4 g)")


def _join(f: _Fields) -> Join:
    msg = Join(
        room=f.ident("room", ID_MAX, False),
        seat=f.integer("seat", 0, 3, False),
        team=f.integer("team", 0, 1, False),
        invite=f.ident("invite", TOKEN_MAX, False),
    )
    if msg.room is None and msg.invite is None:
        raise f.fail("room", "missing (give a room id or an invite)")
    if msg.seat is not None and msg.team is not None:
        raise f.fail("team", "give a seat or a team, not both")
    return msg


def _watch(f: _Fields) -> Watch:
    msg = Watch(
        room=f.ident("room", ID_MAX, False),
        invite=f.ident("invite", TOKEN_MAX, False),
        since=f.integer("since", 0, 2**53, False),
    )
    if msg.room is None and msg.invite is None:
        raise f.fail("room", "missing (give a room id or an invite)")
    return msg


def _quick(f: _Fields) -> Quick:
    game = f.choice("game", GAMES, False) or DEFAULT
    after = None
    if f.get("computer_after", False) is not None:
        after = f.number("computer_after", COMPUTER_WAIT_MIN, COMPUTER_WAIT_MAX)
    level = f.integer("level", 1, LEVELS, False) or 1
    mode = f.choice("mode", MODES)
    players = f.integer("players", 3, 4, False)  # 002 7 d: a table of players each alone
    if players is not None:
        _own_options(f, game, ["players"])
        _crokinole_sides(f, mode, {"players": players})
        if after is not None:  # `computer` makes rooms of two sides only (no `players`)
            raise f.fail("computer_after", "the computer plays tables of two sides only")
    return Quick(mode=mode, game=game, computer_after=after, level=level, players=players)


def _computer(f: _Fields) -> Computer:
    msg = Computer(
        mode=f.choice("mode", MODES),
        level=f.integer("level", 1, LEVELS),
        sets=f.integer("sets", 1, SETS_MAX),
        clock=f.number("clock", CLOCK_MIN, CLOCK_MAX),
        partner=f.flag("partner", False),
        opponents=f.flag("opponents", True),
        practice=f.flag("practice", False),
        private=f.flag("private", False),
        game=f.choice("game", GAMES, False) or DEFAULT,
    )
    if msg.practice and registry.game(msg.game).practice is None:
        raise f.fail("practice", f"{msg.game} has no practice")
    if registry.game(msg.game).decide is None:
        raise f.fail("game", f"{msg.game} has no computer opponent")
    if msg.partner and msg.mode != "doubles":
        raise f.fail("partner", "a partner is for doubles")
    if not (msg.partner or msg.opponents):
        raise f.fail("opponents", "the computer must fill at least one seat")
    return msg


def _challenge(f: _Fields) -> Challenge:
    msg = Challenge(
        to=f.text("to", 1, NAME_MAX * 4, says=f"1 to {NAME_MAX}"),
        mode=f.choice("mode", MODES),
        sets=f.integer("sets", 1, SETS_MAX),
        clock=f.number("clock", CLOCK_MIN, CLOCK_MAX),
        game=f.choice("game", GAMES, False) or DEFAULT,
        rated=f.flag("rated", False),
    )
    if msg.rated and not registry.game(msg.game).rated:
        raise f.fail("rated", f"{msg.game} has no ratings")
    return msg


def _answer(f: _Fields) -> ChallengeAnswer:
    f.get("accept", True)  # required: no answer is taken for a decline
    return ChallengeAnswer(id=f.ident("id", ID_MAX), accept=f.flag("accept", False))


def _ready(f: _Fields) -> Ready:
    return Ready(ready=f.flag("ready", True))


def _aim(f: _Fields) -> Aim:
    return Aim(
        x=f.number("x", 0.0, BOARD),
        y=f.number("y", 0.0, BOARD),
        angle=_angle(f),
        power=f.number("power", 0.0, 1.0),
    )


def _strike(f: _Fields, max_speed: float) -> Strike:
    return Strike(
        x=f.number("x", 0.0, BOARD),
        y=f.number("y", 0.0, BOARD),
        angle=_angle(f),
        speed=f.number("speed", 0.0, max_speed, open_lo=True),
    )


def _chat(f: _Fields) -> Chat:
    return Chat(text=f.text("text", 1, CHAT_MAX), team=f.flag("team", False))


def _resume(f: _Fields) -> Resume:
    return Resume(room=f.ident("room", ID_MAX), since=f.integer("since", 0, 2**53))


def _ping(f: _Fields) -> Ping:
    return Ping(n=f.integer("n", -(2**53), 2**53, False))


def _cancel(f: _Fields) -> ChallengeCancel:
    return ChallengeCancel(f.ident("id", ID_MAX))


_READERS: dict[str, Callable[[_Fields], ClientMessage]] = {
    "hello": _hello,
    "lobby": _lobby,
    "create": _create,
    "join": _join,
    "watch": _watch,
    "quick": _quick,
    "computer": _computer,
    "challenge": _challenge,
    "challenge_answer": _answer,
    "challenge_cancel": _cancel,
    "hint": lambda f: Hint(),
    "takeback": lambda f: TakeBack(),
    "ready": _ready,
    "aim": _aim,
    "pass": lambda f: Pass(),
    "resign": lambda f: Resign(),
    "chat": _chat,
    "leave": lambda f: Leave(),
    "rematch": lambda f: Rematch(),
    "resume": _resume,
    "ping": _ping,
}
CLIENT_TYPES = (*_READERS, "strike")


def _ref(raw: dict[str, Any]) -> int | str | None:
    ref = raw.get("ref")
    if isinstance(ref, bool):
        return None
    if isinstance(ref, int) and 0 <= ref <= REF_MAX:
        return ref
    if isinstance(ref, str) and len(ref) <= ID_MAX:
        return ref
    return None


def unpack(data: bytes | str, max_bytes: int) -> dict[str, Any]:
    """bytes -> a msgpack map, or ProtocolError for text, oversize and malformed frames."""
    if not isinstance(data, bytes | bytearray):
        raise ProtocolError("bad_frame", "Messages must be binary websocket frames of msgpack.")
    if len(data) > max_bytes:
        raise ProtocolError("too_large", f"Messages must be at most {max_bytes} bytes.")
    try:
        raw = msgpack.unpackb(data, raw=False, strict_map_key=True, timestamp=0)
    except Exception:  # msgpack raises assorted error types on hostile input; all mean this
        raise ProtocolError("bad_frame", "The message is not valid msgpack.") from None
    if not isinstance(raw, dict):
        raise ProtocolError("bad_frame", "A message must be a msgpack map with a type key 't'.")
    return raw


def decode(
    data: bytes | str, max_bytes: int = 4096, max_speed: float = DEFAULT_MAX_SPEED
) -> Envelope:
    """Turn one websocket frame into a typed, validated message or raise ProtocolError."""
    raw = unpack(data, max_bytes)
    ref = _ref(raw)
    kind = raw.get("t")
    if not isinstance(kind, str) or kind not in CLIENT_TYPES:
        raise ProtocolError("unknown_type", f"Unknown message type {str(kind)[:32]!r}.", ref)
    if "ref" in raw and ref is None:
        raise ProtocolError("bad_field", f"{kind}.ref: must be an integer or a short string.")
    f = _Fields(raw, kind, ref)
    msg: ClientMessage = _strike(f, max_speed) if kind == "strike" else _READERS[kind](f)
    f.done()
    return Envelope(msg=msg, ref=ref)


def encode(msg: Mapping[str, Any]) -> bytes:
    """A server message (a map with "t") as one binary frame."""
    packed = msgpack.packb(msg, use_bin_type=True)
    assert isinstance(packed, bytes)  # msgpack is untyped; packb returns bytes
    return packed
