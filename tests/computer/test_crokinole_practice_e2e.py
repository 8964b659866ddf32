"""Crokinole practice against the computer over real websockets (the Game seam's
`Practice`, server/games/crokinole/game.py): a hint is the computer's suggested shot, the
player's alone and one the referee takes (002 5); a take-back restores the board before the
player's last shot, the player to shoot again; the record replays through its take-backs;
outside practice both are refused."""

from __future__ import annotations

import asyncio
import urllib.error
import urllib.request

import pytest

from server.games.core.play import nearest_single
from server.replay.verify import replay
from tests.computer.test_computer_e2e import FAST, play_computer
from tests.computer.test_practice_e2e import connected_watcher, my_turn_at_rest, refused
from tests.server.server_client import Client, Msg, close_all, get_json
from tests.server.test_crokinole_e2e import shot_for

pytestmark = pytest.mark.fresh_server  # the computer's pool of its own


async def rest_room(c: Client, rid: str) -> Msg:
    """The whole room as the server holds it now (a resume from the start)."""
    await c.send("resume", room=rid, since=0)
    return await c.expect("room")


def board(room_or_ruling: Msg) -> list[tuple[int, float, float]]:
    return sorted((d["id"], d["x"], d["y"]) for d in room_or_ruling["discs"])


async def test_a_crokinole_hint_is_the_players_alone_and_the_referee_takes_it(game_server):
    srv = game_server(**{**FAST, "bot_delay": 2})
    c = await play_computer(srv, game="crokinole", level=1, practice=True)
    room = c.current_room
    assert room["game"] == "crokinole" and room["options"] == {"practice": True}
    assert room["rated"] is False
    (watcher,) = await connected_watcher(srv, room["id"])
    await my_turn_at_rest(c)
    await c.send("hint")
    tip = await c.expect("hint", timeout=90)
    assert tip["seat"] == c.own_seat and tip["current"] is True
    assert tip["pocket"] is None  # a board has no pockets
    assert tip["target"] is None or any(d["id"] == tip["target"] for d in c.discs)
    # the suggested shot: from the player's own part of the shooting line (002 5), struck
    await c.send("strike", x=tip["x"], y=tip["y"], angle=tip["angle"], speed=tip["speed"])
    stroke = await c.expect("stroke")
    # played as struck: its numbers at float32 (docs/protocol.md, `strike`)
    assert stroke["seat"] == c.own_seat and stroke["x"] == nearest_single(tip["x"])
    ruling = await c.expect("ruling")
    assert ruling["seat"] == c.own_seat
    await watcher.expect("stroke")
    await watcher.sync()
    assert not [m for m in watcher.seen if m["t"] == "hint"]  # the player's alone
    # a hint is for the player's own shot: the computer is to shoot now
    assert (await refused(c, "hint"))["code"] == "not_your_turn"
    await close_all(c, watcher)


async def test_a_crokinole_take_back_restores_the_board_before_the_players_shot(game_server):
    srv = game_server(**{**FAST, "bot_delay": 3})
    c = await play_computer(srv, game="crokinole", level=1, practice=True)
    rid = c.current_room["id"]
    assert (await refused(c, "takeback"))["code"] in ("nothing_to_take_back", "not_now")
    await my_turn_at_rest(c)
    before = await rest_room(c, rid)
    c.phase = "sent"
    await c.send("strike", **shot_for(c.own_seat, 0))
    await c.expect("stroke")
    ruling = await c.expect("ruling")
    assert ruling["seat"] == c.own_seat and ruling["turn"] != c.own_seat  # 002 2 a
    assert ruling["round"]["shots_left"] != before["match"]["round"]["shots_left"]
    await c.send("takeback")  # at rest, before the computer (3 s) shoots
    taken = await c.expect("takeback")
    assert taken["turn"] == c.own_seat
    after = await c.expect("room")
    assert after["match"]["rules"] == before["match"]["rules"]  # discs left, 20s, score, turn
    assert after["match"]["turn"] == c.own_seat and after["match"]["phase"] == "play"
    assert board(after) == board(before)
    assert (await refused(c, "takeback"))["code"] == "nothing_to_take_back"
    # play goes on from there: another shot, taken back too
    c.phase = "sent"
    await c.send("strike", **shot_for(c.own_seat, 1))
    await c.expect("ruling")
    await c.send("takeback")
    await c.expect("takeback")
    again = await c.expect("room")
    assert again["match"]["rules"] == before["match"]["rules"]
    # the record: never rated, its take-backs replayed to boards the match passed through
    record = get_json(f"{srv.url}/api/matches/{after['match']['id']}")
    assert [e["kind"] for e in record["log"]].count("takeback") == 2 and record["rated"] is False
    checks = list(replay(record))
    back = [ch for ch in checks if ch.kind == "takeback"]
    assert len(back) == 2 and all(ch.ruling_ok is True for ch in back)
    assert all(ch.hash_ok is not False and ch.ruling_ok is not False for ch in checks)
    # no notation carries a take-back (docs/notation.md): 422, as for Novuss
    with pytest.raises(urllib.error.HTTPError) as e:
        await asyncio.to_thread(
            urllib.request.urlopen, f"{srv.url}/api/matches/{after['match']['id']}.txt"
        )
    assert e.value.code == 422
    await close_all(c)


async def test_crokinole_hints_and_take_backs_are_refused_outside_practice(game_server):
    srv = game_server(**FAST)
    c = await play_computer(srv, game="crokinole", level=1)  # the computer, not practice
    assert c.current_room["options"] == {}
    for t in ("hint", "takeback"):
        assert (await refused(c, t))["code"] == "practice_only"
    await close_all(c)
