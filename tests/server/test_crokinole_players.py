"""Crokinole rooms of 3 and 4 players each alone (002 7 d) and doubles in free order (7 c):
the options at creation (refused when they do not fit), the room's seats and the game."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import msgpack
import pytest

from server.games.core.play import MatchRefused, Settings
from server.games.crokinole.match import CrokinoleMatch
from server.games.novuss.sim import Shot
from server.lobby.room import LobbyError, Room
from server.net import protocol
from tests.server.server_client import Client, close_all, connected
from tests.server.test_crokinole_e2e import shot_for

SETTINGS = Settings(speed_factor=10.0)


def create(**fields: object) -> protocol.Create:
    base = {"t": "create", "mode": "singles", "sets": 1, "clock": 60, "game": "crokinole"}
    msg = protocol.decode(msgpack.packb(base | fields)).msg
    assert isinstance(msg, protocol.Create)
    return msg


def match_of(room: Room) -> CrokinoleMatch:
    """The room's Crokinole match (started)."""
    assert isinstance(room.match, CrokinoleMatch)
    return room.match


def started(mode: str, options: dict[str, object], grace: float = 120.0) -> Room:
    room = Room("r1", mode, 1, 30.0, False, SETTINGS, grace, game="crokinole", options=options)
    for i in range(len(room.seats)):
        room.join(f"s{i}", f"P{i}", None, None, 0.0)
    for i in range(len(room.seats)):
        room.set_ready(f"s{i}", True, 0.0)
    assert isinstance(room.match, CrokinoleMatch)
    return room


# -- at creation ---------------------------------------------------------------------


def test_7c_7d_options_are_taken_at_creation() -> None:
    # 002 7 d): 3 or 4 players, each alone
    assert dict(create(players=3).options) == {"players": 3}
    # 002 7 c): free order is a doubles option
    assert dict(create(mode="doubles", free_order=True).options) == {"free_order": True}


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"players": 2}, "players"),  # 002 1 is singles; 7 d is 3 or 4
        ({"players": 5}, "players"),
        ({"players": "3"}, "players"),
        ({"players": 4, "mode": "doubles"}, "players"),  # 002 7 d: alone, not in teams
        ({"players": 3, "scoring": "conventional"}, "scoring"),  # 002 4 g: two sides
        ({"free_order": True}, "free_order"),  # 002 7 c: doubles play only
        ({"free_order": 1, "mode": "doubles"}, "free_order"),
        ({"players": 3, "game": "novuss"}, "players"),
    ],
)
def test_7c_7d_options_that_do_not_fit_are_refused(fields: dict[str, object], field: str) -> None:
    with pytest.raises(protocol.ProtocolError) as refused:
        create(**fields)
    assert refused.value.code == "bad_field"
    assert refused.value.message.startswith(f"create.{field}:")


# -- the room ------------------------------------------------------------------------


def test_7d_a_room_of_three_has_three_seats_and_colours_and_shoots_clockwise() -> None:
    # 002 7 d): three colours, 6 discs each; 002 2 a): clockwise
    room = started("singles", {"players": 3})
    snap = room.snapshot(0, 0.0)
    seats = [s for s in snap["seats"] if s is not None]
    assert [s["team"] for s in seats] == [0, 1, 2] and len(snap["seats"]) == 3
    assert [s["side"] for s in seats] == ["colour 0", "colour 1", "colour 2"]
    assert snap["match"] is not None
    assert snap["match"]["round"]["shots_left"] == [6, 6, 6]
    assert snap["match"]["rules"]["options"]["teams"] is False
    first = match_of(room).turn
    assert first in (0, 1, 2)
    room.strike(f"s{first}", Shot(**shot_for(first, 0, players=3)), 1.0)
    room.finish_motion(10.0)
    assert match_of(room).turn == (first + 1) % 3


def test_7d_joining_a_team_in_a_room_of_players_alone_is_joining_that_seat() -> None:
    # 002 7 d): each player his own side, so `team` 1 is seat 1, never seat 3
    room = Room(
        "r1", "singles", 1, 30.0, False, SETTINGS, 120.0, game="crokinole", options={"players": 4}
    )
    room.join("a", "A", None, 1, 0.0)
    assert room.seat_of("a") == 1
    with pytest.raises(LobbyError) as full:
        room.join("b", "B", None, 1, 0.0)
    assert full.value.code == "room_full"


def test_7d_a_whole_four_player_game_scores_by_rank() -> None:
    # 002 7 d): 8, 6, 4, 2 by rank, ties share; 4 rounds (4 f)
    room = started("singles", {"players": 4})
    assert match_of(room).sides() == [f"colour {i}" for i in range(4)]
    now, k = 1.0, 0
    while room.status == "playing":
        seat = match_of(room).turn
        assert seat is not None, "7 d: one player's turn at a time"
        room.strike(f"s{seat}", Shot(**shot_for(seat, k, players=4)), now)
        room.finish_motion(now + 5.0)
        now, k = now + 10.0, k + 1
    rounds = [e.message for e in room.events if e.message["t"] == "round"]
    assert len(rounds) == 4 and all(r["rule"] == "7 d" for r in rounds)
    assert all(sum(r["points"]) == 20 and len(r["points"]) == 4 for r in rounds)
    assert sum(match_of(room).score()) == 80 and k == 4 * 24


def test_7d_a_player_away_loses_and_the_best_of_the_others_wins() -> None:
    room = started("singles", {"players": 3}, grace=2.0)
    match_of(room).game = replace(match_of(room).game, score=(8, 2, 5))  # the game so far
    room.drop("s0", 1.0)
    room.tick(3.5)
    result = next(e.message for e in room.events if e.message["t"] == "result")
    assert result["winner"] == 2 and result["result"]["cause"] == "absent"


def test_7c_free_order_doubles_either_opponent_shoots_the_partner_is_refused() -> None:
    # 002 7 c): after the initial shot, either opponent may shoot
    room = started("doubles", {"free_order": True})
    first = match_of(room).turn
    assert first is not None
    room.strike(f"s{first}", Shot(**shot_for(first, 0, players=4)), 1.0)
    room.finish_motion(10.0)
    view = room.snapshot(None, 10.0)["match"]
    assert view is not None
    opponents = sorted({(first + 1) % 4, (first + 3) % 4})
    assert view["turn"] is None and view["round"]["turn"] == opponents
    partner = (first + 2) % 4
    with pytest.raises(MatchRefused) as refused:
        room.strike(f"s{partner}", Shot(**shot_for(partner, 1, players=4)), 11.0)
    assert (refused.value.rule, refused.value.reason) == ("7 c", "not_your_turn")
    assert refused.value.code == "not_your_turn", "as every game names it (docs/protocol.md)"
    chosen = opponents[1]  # not the next seat clockwise
    room.strike(f"s{chosen}", Shot(**shot_for(chosen, 1, players=4)), 12.0)
    assert match_of(room).strokes == 2


# -- over websockets -----------------------------------------------------------------


async def test_7d_three_players_create_join_and_shoot(game_server):
    srv = game_server(speed_factor=25)
    a, b, c = await connected(srv.ws_url, "Anu", "Boris", "Cara")
    await a.send(
        "create", mode="singles", sets=1, clock=60, private=False, game="crokinole", players=3
    )
    room = await a.expect("room")
    assert room["options"] == {"players": 3} and len(room["seats"]) == 3
    for p in (b, c):
        await p.send("join", room=room["id"])
        await p.expect("room")
    for p in (a, b, c):
        await p.send("ready")
    players: list[Client] = [a, b, c]
    for p in players:
        while p.room is None or p.room["match"] is None:
            await p.inbox.get()
    by_seat = {p.seat: p for p in players}
    seat = a.current_room["match"]["turn"]
    await by_seat[seat].send("strike", **shot_for(seat, 0, players=3))
    async with asyncio.timeout(20.0):
        ruling = await a.expect("ruling")
    assert ruling["seat"] == seat and ruling["turn"] == (seat + 1) % 3  # 002 2 a
    assert len(ruling["score"]) == 3
    await close_all(a, b, c)


# -- quick match of players each alone (issue 34) -------------------------------------


def quick(**fields: object) -> protocol.Quick:
    base = {"t": "quick", "mode": "singles", "game": "crokinole"}
    msg = protocol.decode(msgpack.packb(base | fields)).msg
    assert isinstance(msg, protocol.Quick)
    return msg


def test_7d_quick_match_takes_the_players() -> None:
    # 002 7 d): a table of 3 or 4 players, each alone
    assert quick(players=3).players == 3 and quick(players=4).players == 4
    assert quick().players is None  # two sides, as before


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"players": 3, "game": "novuss"}, "players"),  # the game offers no players option
        ({"players": 4, "mode": "doubles"}, "players"),  # 002 7 d: alone, not in teams
        ({"players": 2}, "players"),  # 002 1 is singles; 7 d is 3 or 4
        ({"players": 5}, "players"),
        ({"players": 3, "computer_after": 30}, "computer_after"),  # the computer: two sides
    ],
)
def test_7d_quick_match_players_that_do_not_fit_are_refused(
    fields: dict[str, object], field: str
) -> None:
    with pytest.raises(protocol.ProtocolError) as refused:
        quick(**fields)
    assert refused.value.code == "bad_field"
    assert refused.value.message.startswith(f"quick.{field}:")


async def test_7d_three_quick_matched_players_get_one_table_each_alone(game_server):
    srv = game_server(speed_factor=25)
    a, b, c, d, looker = await connected(srv.ws_url, "Anu", "Boris", "Cara", "Dace", "Eve")
    await looker.send("lobby", on=True)
    # a table of 4 is another queue: Dace waits there, not at the table of 3
    await d.send("quick", mode="singles", game="crokinole", players=4)
    assert (await d.expect("queued"))["players"] == 4
    for n, p in enumerate((a, b), start=1):
        await p.send("quick", mode="singles", game="crokinole", players=3)
        queued = await p.expect("queued")
        assert (queued["game"], queued["players"], queued["waiting"]) == ("crokinole", 3, n)
    async with asyncio.timeout(10.0):  # the lobby's counts name both queues
        while True:
            counts = (await looker.expect("lobby"))["queue"]
            if counts.get("crokinole-7d-3") == 2 and counts.get("crokinole-7d-4") == 1:
                break
    await c.send("quick", mode="singles", game="crokinole", players=3)
    players: list[Client] = [a, b, c]
    for p in players:
        while p.room is None or p.room["match"] is None:  # seated ready: it starts at once
            await p.inbox.get()
    rooms = {p.current_room["id"] for p in players}
    assert len(rooms) == 1
    room = a.current_room
    # as `create` makes a room of players alone (002 7 d; 4 f)
    assert room["options"] == {"players": 3, "scoring": "tournament"}
    assert [s["team"] for s in room["seats"]] == [0, 1, 2]  # each his own team
    assert {p.seat for p in players} == {0, 1, 2}
    await d.sync()
    assert d.room is None
    await close_all(a, b, c, d, looker)


async def test_7d_quick_match_refuses_players_for_novuss_and_doubles(game_server):
    srv = game_server()
    (a,) = await connected(srv.ws_url, "Anu")
    for fields in ({"game": "novuss"}, {"game": "crokinole", "mode": "doubles"}):
        await a.send("quick", **({"mode": "singles", "players": 3} | fields))
        error = await a.expect("error")
        assert error["code"] == "bad_field" and error["message"].startswith("quick.players:")
    await a.sync()
    assert not any(m["t"] == "queued" for m in a.seen)  # refused: queued nowhere
    await close_all(a)
