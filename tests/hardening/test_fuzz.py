"""Hypothesis against the live websocket: random bytes, text frames, truncated and oversized
frames, msgpack of every wrong type, unknown types and fields, out-of-range numbers (NaN,
infinities, negative and huge speeds, placements off the table), stale and future seqs.

After every example: the connection that sent it still answers a ping, a message the protocol
refuses got an `error` with the decoder's code (never `internal`), and the match's state hash
(as a watcher's resync shows it) is unchanged. At the end: no traceback in the server's log.

CI runs a bounded number of examples per test; NOVUSS_FUZZ_EXAMPLES=5000 (say) runs longer.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Iterator
from typing import Any, TypedDict, TypeGuard

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.games.core.play import Settings
from server.games.crokinole.board import TOURNAMENT
from server.games.crokinole.match import OFFSET, CrokinoleMatch
from server.lobby.room import SEATS, Room
from server.net import protocol as p
from tests.conftest import GameServer
from tests.hardening.wire import Link, Msg, state_hash

EXAMPLES = int(os.environ.get("NOVUSS_FUZZ_EXAMPLES", "1500"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=os.environ.get("NOVUSS_FUZZ_EXAMPLES") is None,  # CI: the same examples
)
# the fuzzing server: no rate limit in the way, nobody idles out, a long stroke clock
SERVER = {
    "msg_rate": 100000,
    "msg_burst": 100000,
    "snapshot_rate": 100000,  # the fuzzer resumes and watches thousands of times a minute
    "snapshot_burst": 100000,
    "idle_seconds": 3600,
    "create_burst": 10**6,
    "address_create_burst": 10**6,  # the Crokinole create fuzzer makes hundreds of rooms
}
ARENA_MAX_AGE = 200.0  # seconds: a new match well before the 300 s stroke clock runs out

# -- what a hostile client sends ------------------------------------------------------
FIELDS: dict[str, dict[str, Any]] = {
    "hello": {"name": "Eve", "token": "abc"},
    "lobby": {"on": True},
    "create": {"mode": "singles", "sets": 1, "clock": 30.0, "private": False},
    "join": {"room": "r0", "seat": 1, "team": 0, "invite": "x"},
    "watch": {"room": "r0", "invite": "x", "since": 1},
    "quick": {"mode": "singles"},
    "ready": {"ready": True},
    "aim": {"x": 540.0, "y": 60.0, "angle": 1.0, "power": 0.5},
    "strike": {"x": 540.0, "y": 60.0, "angle": 1.0, "speed": 1000.0},
    "pass": {},
    "resign": {},
    "chat": {"text": "hi", "team": False},
    "leave": {},
    "rematch": {},
    "resume": {"room": "r0", "since": 1},
    "ping": {"n": 1},
}
hostile_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**64 - 1),
    st.sampled_from([math.nan, math.inf, -math.inf, -0.0, 1e308, -1e308, 5e-324]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=40),
    st.sampled_from(["", " ", "\x00", "<script>alert(1)</script>", "a" * 300, "\u202e", "💥"]),
    st.binary(max_size=40),
)
hostile_values = st.recursive(
    hostile_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=8,
)


@st.composite
def wrong_typed(draw: st.DrawFn) -> dict[str, Any]:
    """A message of a known type with fields dropped, replaced by anything, or added."""
    kind = draw(st.sampled_from(sorted(FIELDS)))
    msg: dict[Any, Any] = {"t": kind, **FIELDS[kind]}
    for name in draw(st.lists(st.sampled_from([*FIELDS[kind], "t", "ref", "extra"]), max_size=3)):
        if draw(st.booleans()) and name in msg:
            del msg[name]
        else:
            msg[name] = draw(hostile_values)
    return msg


@st.composite
def out_of_range_strikes(draw: st.DrawFn) -> dict[str, Any]:
    """Strikes and aims with NaN, infinities, negative, zero and huge numbers, off the table."""
    bad = st.sampled_from(
        [math.nan, math.inf, -math.inf, -1.0, -1e-9, 0.0, 1080.01, 1e9, 2**64 - 1]
    )
    num = st.floats(-1e12, 1e12) | bad | st.integers(-(2**40), 2**40)
    return {
        "t": draw(st.sampled_from(["strike", "aim"])),
        "x": draw(num), "y": draw(num), "angle": draw(num),
        draw(st.sampled_from(["speed", "power"])): draw(num),
    }  # fmt: skip


def truncated(msg: dict[str, Any]) -> st.SearchStrategy[bytes]:
    """A valid message's bytes cut short."""
    data = msgpack.packb(msg)
    return st.integers(0, len(data) - 1).map(lambda n: data[:n])


frames = st.one_of(
    st.binary(max_size=300),
    st.binary(min_size=4097, max_size=9000),
    st.text(max_size=200),
    st.sampled_from(sorted(FIELDS)).flatmap(lambda k: truncated({"t": k, **FIELDS[k]})),
    wrong_typed().map(lambda m: msgpack.packb(m, use_bin_type=True)),
    out_of_range_strikes().map(msgpack.packb),
    st.text(max_size=20).map(lambda t: msgpack.packb({"t": t})),
    st.integers(4097, 60000).map(lambda n: msgpack.packb({"t": "chat", "text": "x" * n})),
)


# -- the arena: a match in progress, watched ------------------------------------------
def oracle(data: bytes | str) -> str | None:
    """The error code the protocol gives this frame, or None if it decodes."""
    try:
        p.decode(data)
    except p.ProtocolError as e:
        return e.code
    return None


class Arena:
    """A singles match (of `game`) just started: `turn` must strike, `other` waits, `watcher`
    watches, and `stranger` has said nothing yet."""

    def __init__(self, ws_url: str, game: str = "novuss") -> None:
        self.ws_url = ws_url
        self.game = game
        self.born = time.monotonic()
        a, b = Link(ws_url, "Anu"), Link(ws_url, "Boris")
        create = {"t": "create", "mode": "singles", "sets": 1, "clock": 300, "private": False}
        a.send({**create, "game": game})
        self.rid = a.until(lambda m: m["t"] == "room")[-1]["id"]
        b.send({"t": "join", "room": self.rid})
        for link in (a, b):
            link.send({"t": "ready"})
        for link in (a, b):
            link.until(lambda m: m["t"] == "room" and m["match"] is not None)
        turn = a.rooms[-1]["match"]["turn"]
        self.turn, self.other = (a, b) if a.rooms[-1]["you"]["seat"] == turn else (b, a)
        self.watcher = Link(ws_url, "Wanda")
        self.stranger = Link(ws_url)
        self.hash = self.state()

    def state(self) -> str:
        """The match's state hash from a fresh resync of the watcher. Every link is read up to
        date first: one left unread long enough stalls and is dropped as a slow reader."""
        for link in (self.turn, self.other, self.stranger):
            link.barrier()
        self.watcher.send({"t": "watch", "room": self.rid})
        return state_hash(self.watcher.until(lambda m: m["t"] == "room")[-1])

    def close(self) -> None:
        """Close every link."""
        for link in (self.turn, self.other, self.watcher, self.stranger):
            link.close()

    def sender(self, who: str) -> Link:
        """The connection named `who`."""
        return {"turn": self.turn, "other": self.other, "stranger": self.stranger}[who]


def _number(v: object) -> TypeGuard[float]:
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)


def numbers_in_range(raw: object) -> bool:
    """Does a strike or aim hold only finite numbers in range? Judged here, independently of
    the server's decoder, so a decoder that lets NaN or a placement off the table through fails
    the test instead of agreeing with itself."""
    if not isinstance(raw, dict) or raw.get("t") not in ("strike", "aim"):
        return True
    speed = "speed" if raw["t"] == "strike" else "power"
    top = 8000.0 if speed == "speed" else 1.0
    values = [v for v in (raw.get(k) for k in ("x", "y", "angle", speed)) if _number(v)]
    if len(values) < 4:
        return False  # one is missing or not a finite number
    x, y, angle, amount = values
    return (
        0 <= x <= 1080
        and 0 <= y <= 1080
        and abs(angle) <= 1e6
        and (amount > 0 if speed == "speed" else amount >= 0)
        and amount <= top
    )


def harmful(who: str, data: bytes | str, game: str = "novuss") -> bool:
    """Could this frame, valid, change the match when `who` sends it? Such frames are the
    authority tests' business (tests/hardening/test_authority.py), not the fuzzer's."""
    raw = _raw(data)
    if not isinstance(raw, dict):
        return False
    kind = raw.get("t")
    if kind in ("chat", "resign", "leave"):
        return who != "stranger" and oracle(data) is None
    if kind == "strike" and who == "turn" and game == "crokinole":
        # a disc placed inside the shooting line is refused whatever it is (002 5); Crokinole
        # has no pass (2 c)
        x, y = raw.get("x"), raw.get("y")
        inside = TOURNAMENT.shooting_radius - TOURNAMENT.disc_radius - 1.0
        return not (_number(x) and _number(y) and math.hypot(x - OFFSET, y - OFFSET) < inside)
    if kind in ("strike", "pass") and who == "turn" and game == "novuss":
        # strikes placed in the middle (outside every zone) are refused whatever they are
        x, y = raw.get("x"), raw.get("y")
        centre = _number(x) and _number(y) and 200 <= x <= 880 and 200 <= y <= 880
        return kind == "pass" or not centre
    return False


def _raw(data: bytes | str) -> Any:
    try:
        return msgpack.unpackb(data, raw=False)  # strict map keys, as the server reads
    except Exception:  # not msgpack at all: harmless by construction
        return None


class Holder(TypedDict):
    """The arena of a fuzzing test (replaced when it grows old), its server, frames sent."""

    arena: Arena
    srv: GameServer
    sent: int


def _arena(game_server: Callable[..., GameServer], game: str) -> Iterator[Holder]:
    srv = game_server(**SERVER)
    holder: Holder = {"arena": Arena(srv.ws_url, game), "srv": srv, "sent": 0}
    yield holder
    print(f"\nfuzz: {holder['sent']} hostile frames sent, the match unchanged after each")
    holder["arena"].close()
    log = srv.log()
    assert "Traceback" not in log, log[-3000:]


@pytest.fixture
def arena(game_server: Callable[..., GameServer]) -> Iterator[Holder]:
    yield from _arena(game_server, "novuss")


@pytest.fixture
def crokinole_arena(game_server: Callable[..., GameServer]) -> Iterator[Holder]:
    yield from _arena(game_server, "crokinole")


def probe(holder: Holder, who: str, data: bytes | str) -> None:
    """Send one frame and check the invariants."""
    arena = holder["arena"]
    if time.monotonic() - arena.born > ARENA_MAX_AGE:
        arena.close()
        arena = holder["arena"] = Arena(holder["srv"].ws_url, arena.game)
    if harmful(who, data, arena.game):
        return
    link = arena.sender(who)
    expected = oracle(data)
    link.send(data)
    holder["sent"] += 1
    replies: list[Msg] = link.barrier()
    codes = [m["code"] for m in replies if m["t"] == "error"]
    assert "internal" not in codes, replies
    if expected is not None:
        assert expected in codes, (data[:200], expected, replies)
    if not numbers_in_range(_raw(data)):
        assert "bad_field" in codes, (data[:200], replies)
    assert arena.state() == arena.hash, f"the match changed after {data[:200]!r}"


senders = st.sampled_from(["turn", "other", "stranger"])


@pytest.mark.slow  # 20 s or more
def test_hostile_frames_change_nothing(arena):
    @FUZZ
    @given(who=senders, data=frames)
    def check(who: str, data: bytes | str) -> None:
        probe(arena, who, data)

    check()


def test_stale_and_future_seqs_resync_without_change(arena):
    since = st.integers(0, 2**53) | st.sampled_from([0, 1, 2, 3, 2**53])

    @FUZZ
    @given(kind=st.sampled_from(["resume", "watch"]), since=since, ref=st.integers(0, 99))
    def check(kind: str, since: int, ref: int) -> None:
        a: Arena = arena["arena"]
        link = a.other if kind == "resume" else a.watcher
        link.send({"t": kind, "room": a.rid, "since": since, "ref": ref})
        arena["sent"] += 1
        replies = link.barrier()
        assert not [m for m in replies if m["t"] == "error"], replies
        seq = a.watcher.rooms[-1]["seq"]
        if since == 0 or since > seq:  # nothing to replay from: a full resync
            assert [m["seq"] for m in replies if m["t"] == "room"] == [seq], replies
        assert a.state() == a.hash

    check()


def test_oversized_frame_above_the_socket_limit_closes_only_that_socket(arena):
    a: Arena = arena["arena"]
    a.stranger.send(b"\x00" * 70000)
    assert not a.stranger.alive()
    a.stranger.close()
    a.stranger = Link(a.ws_url)
    assert a.turn.alive() and a.other.alive() and a.state() == a.hash


# -- Crokinole rooms ------------------------------------------------------------------
CROKINOLE = settings(FUZZ, max_examples=max(50, EXAMPLES // 3))


def test_hostile_frames_and_shots_change_nothing_in_a_crokinole_room(crokinole_arena):
    @CROKINOLE
    @given(who=senders, data=frames)
    def check(who: str, data: bytes | str) -> None:
        probe(crokinole_arena, who, data)

    check()


def _maybe(plausible: list[Any]) -> st.SearchStrategy[Any]:
    return st.sampled_from(plausible) | hostile_values


CREATE_OPTIONS: dict[str, st.SearchStrategy[Any]] = {
    "players": _maybe([None, 2, 3, 4, 5, -1, "3", 3.0, True]),  # 002 7 d
    "free_order": _maybe([None, True, False, 1, "yes"]),  # 7 c
    "scoring": _maybe([None, "tournament", "conventional", "Tournament", ""]),  # 4 f, 4 g
    "target": _maybe([None, 20, 100, 500, 19, 501, 100.0, -5, 2**40]),  # 4 g
    "direct_hit": _maybe([None, True, False, 0]),  # 7 a
    "line_discs_stay": _maybe([None, True, False, "true"]),  # 7 b
}


@st.composite
def crokinole_creates(draw: st.DrawFn) -> dict[str, Any]:
    """A create of a Crokinole room (now and then of another game) with any options."""
    msg: dict[str, Any] = {
        "t": "create",
        "game": draw(st.sampled_from(["crokinole"] * 6 + ["novuss", "chess", None])),
        "mode": draw(st.sampled_from(["singles", "singles", "doubles", "triples"])),
        "sets": 1,
        "clock": 30.0,
        "private": draw(st.booleans()),
    }
    for name, values in CREATE_OPTIONS.items():
        if draw(st.booleans()):
            msg[name] = draw(values)
    return msg


def started_with(create: p.Create) -> Room:
    """A room of the decoded create, every seat taken and ready: the match starts."""
    options = dict(create.options)
    room = Room(
        "r", create.mode, 1, 30.0, False, Settings(), 60.0, game=create.game, options=options
    )
    for i in range(len(room.seats)):
        room.join(f"s{i}", f"P{i}", None, None, 0.0)
    for i in range(len(room.seats)):
        room.set_ready(f"s{i}", True, 0.0)
    return room


def test_hostile_crokinole_creates_make_a_room_as_asked_or_a_clear_error(arena):
    """Whatever the options: a `bad_field` naming the option and nothing made, or a room
    with exactly those options and seats, whose match (all seated and ready) starts."""
    link = Link(arena["srv"].ws_url, "Cleo")
    made = {"rooms": 0, "refused": 0}

    @CROKINOLE
    @given(msg=crokinole_creates())
    def check(msg: dict[str, Any]) -> None:
        data = msgpack.packb(msg, use_bin_type=True)
        expected = oracle(data)
        link.send(data)
        arena["sent"] += 1
        replies = link.barrier()
        codes = [m["code"] for m in replies if m["t"] == "error"]
        rooms = [m for m in replies if m["t"] == "room"]
        assert "internal" not in codes, replies
        if expected is not None:
            assert codes == [expected] and not rooms, (msg, replies)
            made["refused"] += 1
            return
        made["rooms"] += 1
        create = p.decode(data).msg
        assert isinstance(create, p.Create) and rooms, (msg, replies)
        seats = dict(create.options).get("players") or SEATS[create.mode]
        assert rooms[-1]["options"] == dict(create.options) and len(rooms[-1]["seats"]) == seats
        link.send({"t": "leave"})
        assert [m["t"] for m in link.barrier() if m["t"] in ("left", "error")] == ["left"]
        if create.game == "crokinole":  # what creation let through, the rules accept
            match = started_with(create).match
            assert isinstance(match, CrokinoleMatch)
            assert match.game.options.players == seats

    check()
    link.close()
    print(f"\ncreates: {made['rooms']} rooms made as asked, {made['refused']} refused")
    assert made["rooms"] > 0 and made["refused"] > 0
    assert arena["arena"].state() == arena["arena"].hash
