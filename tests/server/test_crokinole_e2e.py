"""A whole Crokinole game over real websockets against a real server and a real Redis."""

from __future__ import annotations

import asyncio
import math

from server.games.crokinole.board import TOURNAMENT as B
from server.games.crokinole.judge import aim
from server.games.crokinole.match import OFFSET
from server.games.crokinole.rules import Options, quadrant_centre
from tests.server.server_client import Client, Msg, close_all, connected


def shot_for(seat: int, k: int, players: int = 2) -> dict[str, float]:
    """From the seat's quadrant at the 20-hole, the start moving a little each shot."""
    a = quadrant_centre(Options(players=players).quadrant(seat)) + math.radians(
        -30.0 + 4.0 * (k % 12)
    )
    x, y = B.shooting_radius * math.cos(a), B.shooting_radius * math.sin(a)
    angle, speed = aim(x, y, 0.0, 0.0, 0.0, B.decel)
    return {"x": x + OFFSET, "y": y + OFFSET, "angle": angle, "speed": speed}


def free_shot_for(seat: int, k: int, discs: list[Msg]) -> dict[str, float]:
    """shot_for's spot k, or the next of its twelve that no disc covers (002 5: a disc is
    shot from a spot on the line with no disc on it; one that stopped short on the line, a
    computer's say, takes its spot)."""
    clear = 2.0 * B.disc_radius + 0.5
    for j in range(12):
        shot = shot_for(seat, k + j)
        if all(math.hypot(d["x"] - shot["x"], d["y"] - shot["y"]) >= clear for d in discs):
            return shot
    return shot_for(seat, k)


async def flick(c: Client) -> Msg:
    """One shot from the striker's quadrant (a rated match needs one from every side); its
    `stroke`."""
    assert c.room is not None
    players = int((c.room.get("options") or {}).get("players", 2))  # 002 7 d: 3 or 4 alone
    c.phase = "sent"
    await c.send("strike", **shot_for(c.own_seat, 0, players=players))
    return await c.expect("stroke")


async def play(c: Client) -> Msg:
    """Shoot whenever it is this player's turn, until the result."""
    k = 0
    async with asyncio.timeout(120.0):
        while c.result is None:
            if c.my_turn():
                c.phase = "sent"
                await c.send("strike", **free_shot_for(c.own_seat, k, c.discs))
                k += 1
                await c.expect("stroke")
                continue
            await c.inbox.get()
    return c.result


async def test_a_crokinole_game_to_its_result(game_server):
    srv = game_server(speed_factor=25)
    a, b = await connected(srv.ws_url, "Anu", "Boris")
    await a.send("create", mode="singles", sets=1, clock=60, private=False, game="crokinole")
    room = await a.expect("room")
    assert room["game"] == "crokinole" and room["table"]["game"] == "crokinole"
    assert len(room["table"]["pegs"]) == 8
    await b.send("join", room=room["id"])
    await b.expect("room")
    await a.send("ready")
    await b.send("ready")
    for c in (a, b):
        while c.room is None or c.room["match"] is None:
            await c.inbox.get()
    results = await asyncio.gather(play(a), play(b))
    assert results[0] == results[1]
    rounds_seen = [m for m in a.seen if m["t"] == "round"]
    assert [r["round"] for r in rounds_seen] == [1, 2, 3, 4]  # 002 4 f
    assert all(r["rule"] == "4 f" for r in rounds_seen)
    assert sum(results[0]["score"]) == 8
    rulings = [m for m in a.seen if m["t"] == "ruling"]
    assert len(rulings) == 4 * 16 and all(r["ruling"]["rule"] for r in rulings)
    assert any(r["ruling"]["twenties"] for r in rulings)
    await close_all(a, b)


async def test_a_shot_from_outside_the_quadrant_is_refused_with_the_paragraph(game_server):
    srv = game_server(speed_factor=25)
    a, b = await connected(srv.ws_url, "Anu", "Boris")
    await a.send("create", mode="singles", sets=1, clock=60, private=False, game="crokinole")
    room = await a.expect("room")
    await b.send("join", room=room["id"])
    await b.expect("room")
    await a.send("ready")
    await b.send("ready")
    for c in (a, b):
        while c.room is None or c.room["match"] is None:
            await c.inbox.get()
    player = a if a.turn == a.seat else b
    wrong = shot_for(1 - player.own_seat, 0)  # the other player's quadrant (002 5)
    await player.send("strike", **wrong)
    error = await player.expect("error")
    assert error["code"] == "bad_stroke" and error["rule"] == "5"
    assert error["reason"] == "outside_quadrant"
    await player.send("strike", **shot_for(player.own_seat, 0))
    await player.expect("stroke")
    await close_all(a, b)


async def test_create_refuses_an_unknown_game(game_server):
    srv = game_server()
    (a,) = await connected(srv.ws_url, "Anu")
    await a.send("create", mode="singles", sets=1, clock=60, private=False, game="chess")
    error = await a.expect("error")
    assert error["code"] == "bad_field" and "game" in error["message"]
    await close_all(a)


async def test_a_room_plays_with_the_options_chosen_at_creation(game_server):
    srv = game_server(speed_factor=25)
    a, b = await connected(srv.ws_url, "Anu", "Boris")
    await a.send(
        "create", mode="singles", sets=1, clock=60, private=False, game="crokinole",
        scoring="conventional", target=20, direct_hit=True,
    )  # fmt: skip
    room = await a.expect("room")
    assert room["options"] == {"scoring": "conventional", "target": 20, "direct_hit": True}
    await b.send("join", room=room["id"])
    await b.expect("room")
    await a.send("ready")
    await b.send("ready")
    for c in (a, b):
        while c.room is None or c.room["match"] is None:
            await c.inbox.get()
    options = a.current_room["match"]["rules"]["options"]
    assert (options["scoring"], options["target"], options["direct_hit"]) == (
        "conventional",
        20,
        True,
    )
    results = await asyncio.gather(play(a), play(b))
    assert max(results[0]["score"]) >= 20  # 002 4 g: to the set total
    rounds = [m for m in a.seen if m["t"] == "round"]
    assert all(r["rule"] == "4 g" for r in rounds)
    await close_all(a, b)


async def test_crokinole_options_are_refused_for_novuss(game_server):
    srv = game_server()
    (a,) = await connected(srv.ws_url, "Anu")
    await a.send("create", mode="singles", sets=1, clock=60, private=False, scoring="conventional")
    error = await a.expect("error")
    assert error["code"] == "bad_field" and "Crokinole" in error["message"]
    await close_all(a)


async def test_quick_match_per_game(game_server):
    srv = game_server(speed_factor=25)
    a, b, c = await connected(srv.ws_url, "Anu", "Boris", "Cara")
    await a.send("quick", mode="singles", game="crokinole")
    queued = await a.expect("queued")
    assert (queued["game"], queued["waiting"]) == ("crokinole", 1)
    await c.send("quick", mode="singles")  # a Novuss player waits in another queue
    assert (await c.expect("queued"))["waiting"] == 1
    await b.send("quick", mode="singles", game="crokinole")
    for player in (a, b):
        await player.expect("room")
        while player.room is None or player.room["match"] is None:
            await player.inbox.get()
        assert player.room["game"] == "crokinole"
    assert c.room is None
    await close_all(a, b, c)
