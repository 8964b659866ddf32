"""The clock loop visits only the rooms with a deadline due (server/lobby/deadlines.py):
whatever the players do, it produces every message at the same tick as the loop that
visited every room ten times a second. Two copies of the same rooms get the same actions;
one is ticked the old way, the other through the deadlines."""

from __future__ import annotations

import copy
import math
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from server.games.core.play import MatchRefused, Settings
from server.games.novuss.game import NOVUSS
from server.games.novuss.sim import Shot
from server.lobby.deadlines import Deadlines
from server.lobby.events import Event
from server.lobby.lobby import Lobby
from server.lobby.room import LobbyError, Room
from tests.server.server_bot import choose_shot

TICK = 0.1  # the server's default --tick-seconds
TICKS = 130  # 13 s: clock repeats (every 5 s), clocks and absences running out
SETTINGS = Settings(speed_factor=10.0)
TABLE = NOVUSS.table_view()
KINDS = ("aim", "aim", "aim", "drop", "back", "pass", "strike")
MOTION_TICKS = 3  # a stroke's motion ends this many ticks after it


def lobby_of(clocks: list[float], grace: float) -> Lobby:
    """A lobby with a singles room per stroke clock, its two players seated and ready."""
    lobby = Lobby(SETTINGS, grace)
    for i, clock in enumerate(clocks):
        room = lobby.add(Room(f"r{i}", "singles", 1, clock, False, SETTINGS, grace))
        for seat in ("a", "b"):
            room.join(f"{seat}{i}", seat.upper(), None, None, 0.0)
            room.set_ready(f"{seat}{i}", True, 0.0)
        room.outbox.clear()
    return lobby


def produced(room: Room) -> list[Any]:
    """What the room produced since last asked (its messages and log), then forgotten."""
    out = [o.packed if isinstance(o, Event) else (o.kind, o.data) for o in room.outbox]
    out += [entry for entry in room.log]
    room.outbox.clear()
    room.log.clear()
    room.records.clear()
    return out


def act(room: Room, kind: str, seat: int, now: float) -> bool:
    """One player's action; True if it struck (its motion then ends a few ticks later)."""
    sid = f"{'ab'[seat]}{room.id[1:]}"
    try:
        if kind == "aim":
            room.aim(sid, 540.0, 60.0 + now, 1.5, 0.5, now)
        elif kind == "drop":
            room.drop(sid, now)
        elif kind == "back":
            room.back(sid, now)
        elif kind == "pass":
            room.pass_turn(sid, now)
        elif room.match is not None and room.match.turn == seat and room.match.phase == "play":
            m = room.match
            aim = choose_shot(m.rest_discs(), seat, m.sides()[seat], TABLE, "singles")
            room.strike(sid, Shot(*aim), now)
            return True
    except (MatchRefused, LobbyError):
        pass  # not now, not this seat's turn: nothing changes
    return False


actions = st.lists(
    st.tuples(
        st.integers(0, TICKS - 1),  # after which tick
        st.integers(0, 2),  # which room
        st.sampled_from(KINDS),
        st.integers(0, 1),  # which seat
        st.floats(0.0, TICK, exclude_max=True),  # when within the tick
    ),
    max_size=60,
)


@settings(max_examples=40, deadline=None)
@given(
    clocks=st.lists(st.sampled_from([1.5, 3.0, 7.0]), min_size=1, max_size=3),
    grace=st.sampled_from([0.8, 2.5]),
    plan=actions,
)
def test_the_deadlines_fire_every_clock_at_the_tick_the_visit_of_every_room_did(
    clocks: list[float], grace: float, plan: list[tuple[int, int, str, int, float]]
) -> None:
    old = lobby_of(clocks, grace)
    new = copy.deepcopy(old)  # the same rooms, the same match ids
    rooms = sorted(old.rooms)
    finishing: dict[int, list[str]] = {}
    for k in range(TICKS):
        now = k * TICK
        for rid in finishing.pop(k, []):
            for lobby in (old, new):
                lobby.rooms[rid].finish_motion(now)
            assert produced(old.rooms[rid]) == produced(new.rooms[rid])
            new.schedule(new.rooms[rid])
        for room in old.rooms.values():
            room.tick(now)
        for rid in new.deadlines.pop_due(now):
            new.rooms[rid].tick(now)
        for rid in rooms:
            assert produced(old.rooms[rid]) == produced(new.rooms[rid]), (rid, now)
            if new.deadlines.due_at(rid) is None:
                new.schedule(new.rooms[rid])  # visited: due again when its clocks say
        for _, r, kind, seat, dt in sorted(a for a in plan if a[0] == k):
            rid = rooms[r % len(rooms)]
            t = now + dt
            struck = [act(lobby.rooms[rid], kind, seat, t) for lobby in (old, new)]
            assert struck[0] == struck[1]
            if struck[0]:
                finishing.setdefault(k + MOTION_TICKS, []).append(rid)
            assert produced(old.rooms[rid]) == produced(new.rooms[rid]), (rid, t, kind)
            new.schedule(new.rooms[rid])  # as the server does after every action


def test_a_deadline_set_again_replaces_the_earlier_one() -> None:
    d = Deadlines()
    d.set("a", 5.0)
    d.set("b", 1.0)
    d.set("a", 2.0)
    d.set("c", 9.0)
    d.set("c", None)
    assert d.pop_due(1.5) == ["b"]
    assert d.pop_due(10.0) == ["a"]
    assert d.pop_due(math.inf) == [] and len(d) == 0


def test_the_heap_stays_small_when_a_room_is_rescheduled_for_ever() -> None:
    d = Deadlines()
    for k in range(10_000):
        d.set("a", float(k))
        d.set("b", 1e9 - k)
    assert len(d._heap) <= 4 * 16 + 1
    assert d.pop_due(1e9) == ["a", "b"]
