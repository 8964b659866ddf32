"""Practice against the computer, over real websockets: a hint is given in practice and
refused anywhere else, a take-back restores the position before the player's last stroke,
and a practice match is never rated."""

from __future__ import annotations

import asyncio

from server.games.core.play import nearest_single
from server.replay.verify import replay
from tests.computer.test_computer_e2e import FAST, play_computer
from tests.conftest import GameServer
from tests.server.server_client import Client, Msg, connected, get_json
from tests.server.test_protocol_doc import sections, undocumented
from tests.server.test_server_match_e2e import seat_singles


async def refused(c: Client, t: str) -> Msg:
    """The error answering a message of type t."""
    await c.send(t)
    return await c.expect("error")


async def my_turn_at_rest(c: Client) -> None:
    """Wait until the player is to strike."""
    async with asyncio.timeout(120):
        while not c.my_turn():
            await c.inbox.get()


async def test_hints_and_take_backs_are_refused_outside_practice(game_server):
    srv = game_server(**FAST)
    a, b, _rid = await seat_singles(srv)  # a casual match between two people
    for c in (a, b):
        for t in ("hint", "takeback"):
            error = await refused(c, t)
            assert error["code"] == "practice_only", error
    casual = await play_computer(srv, "Casual", level=1)  # the computer, but not practice
    assert casual.current_room["options"] == {}
    for t in ("hint", "takeback"):
        assert (await refused(casual, t))["code"] == "practice_only"


async def test_a_hint_in_practice_is_the_players_alone_and_can_be_struck(game_server):
    srv = game_server(**{**FAST, "bot_delay": 2})
    c = await play_computer(srv, level=1, practice=True)
    room = c.current_room
    assert room["options"] == {"practice": True} and room["rated"] is False
    (watcher,) = await connected_watcher(srv, room["id"])
    await my_turn_at_rest(c)
    asked = get_json(f"{srv.url}/healthz")["computer"]["asked"]
    await c.send("hint")
    tip = await c.expect("hint", timeout=90)
    assert tip["seat"] == c.own_seat and tip["current"] is True
    assert tip["target"] is None or any(d["id"] == tip["target"] for d in c.discs)
    assert tip["pocket"] in (None, "SW", "SE", "NE", "NW")
    # asked again at the same position: said again, not searched again (a loop of hints in a
    # few rooms kept the computer's workers from every computer opponent)
    decided = get_json(f"{srv.url}/healthz")["computer"]["asked"]
    assert decided == asked + 1, "a hint is a search asked of the workers"
    await c.send("hint")
    assert await c.expect("hint") == tip
    assert get_json(f"{srv.url}/healthz")["computer"]["asked"] == decided
    # the hint's stroke is one the referee accepts
    await c.send("strike", x=tip["x"], y=tip["y"], angle=tip["angle"], speed=tip["speed"])
    stroke = await c.expect("stroke")
    # played as struck: its numbers at float32 (docs/protocol.md, `strike`)
    assert stroke["seat"] == c.own_seat and stroke["x"] == nearest_single(tip["x"])
    await watcher.expect("stroke")
    assert not [m for m in watcher.seen if m["t"] == "hint"]  # the player's alone


async def connected_watcher(srv: GameServer, rid: str) -> list[Client]:
    """A watcher of the room."""
    (w,) = await connected(srv.ws_url, "Watcher")
    await w.send("watch", room=rid)
    await w.expect("room")
    return [w]


async def test_a_take_back_restores_the_position_before_the_players_stroke(game_server):
    srv = game_server(**{**FAST, "bot_delay": 3})
    c = await play_computer(srv, level=1, practice=True)
    rid = c.current_room["id"]
    assert (await refused(c, "takeback"))["code"] in ("nothing_to_take_back", "not_now")
    await my_turn_at_rest(c)
    await c.send("resume", room=rid, since=0)
    before = (await c.expect("room"))["match"]
    discs = sorted((d["id"], d["x"], d["y"]) for d in c.discs)
    await c.strike_once("singles")
    ruling = await c.expect("ruling")
    assert ruling["cause"] == "stroke"
    await c.send("takeback")  # at rest, before the computer (3 s or more) strikes
    taken = await c.expect("takeback")
    assert taken["turn"] == c.own_seat
    after = await c.expect("room")
    assert after["match"]["rules"] == before["rules"]
    assert after["match"]["turn"] == c.own_seat and after["match"]["phase"] == "play"
    assert sorted((d["id"], d["x"], d["y"]) for d in after["discs"]) == discs
    assert after["match"]["clock"]["running"] is True
    assert (await refused(c, "takeback"))["code"] == "nothing_to_take_back"
    # play goes on from there: the player strikes again, and may take that back too
    await c.strike_once("singles")
    await c.expect("ruling")
    await c.send("takeback")
    await c.expect("takeback")
    record = get_json(f"{srv.url}/api/matches/{after['match']['id']}")
    kinds = [e["kind"] for e in record["log"]]
    assert kinds.count("takeback") == 2 and record["rated"] is False
    # the replay follows a take-back to a position the match passed through
    back = [ch for ch in replay(record) if ch.kind == "takeback"]
    assert len(back) == 2 and all(ch.ruling_ok is True for ch in back)


async def test_a_hint_is_for_the_players_own_stroke(game_server):
    srv = game_server(**{**FAST, "bot_delay": 3})
    c = await play_computer(srv, level=1, practice=True)
    async with asyncio.timeout(120):
        while c.my_turn() or c.phase != "play":  # the computer's turn, at rest
            if c.my_turn():
                await c.strike_once("singles")
                continue
            await c.inbox.get()
    assert (await refused(c, "hint"))["code"] == "not_your_turn"


async def test_every_field_of_the_computers_messages_is_documented(game_server):
    srv = game_server(**{**FAST, "bot_delay": 3})
    c = await play_computer(srv, level=1, practice=True)
    (watcher,) = await connected_watcher(srv, c.current_room["id"])
    (lobby,) = await connected(srv.ws_url, "Lobby")
    await lobby.send("lobby", on=True)
    await lobby.expect("lobby")
    await my_turn_at_rest(c)
    await c.send("hint")
    await c.expect("hint", timeout=90)
    await c.strike_once("singles")
    await c.expect("ruling")
    await c.send("takeback")
    await c.expect("room")
    (lone,) = await connected(srv.ws_url, "Lone")
    await lone.send("quick", mode="singles", computer_after=5, level=2)
    await lone.expect("computer", timeout=90)
    rid = (await lone.expect("room"))["id"]
    while (
        not [  # the lobby's push of the computer's room, its summary documented too
            m
            for m in lobby.seen
            if m["t"] == "lobby" and rid in {r["id"] for r in m["live"] + m["rooms"]}
        ]
    ):
        await lobby.expect("lobby")
    parts = sections()
    referee = parts["The referee's data"] + parts["Discs, motion and the table"]
    missing = set()
    for msg in [m for x in (c, watcher, lobby, lone) for m in x.seen]:
        section = parts.get(msg["t"])
        assert section is not None, f"no section for {msg['t']!r}"
        if msg["t"] == "room":  # its last_ruling is "the data of the last ruling"
            section += parts["ruling"]
        missing.update(undocumented(msg, section + referee, msg["t"]))
    missing.update(undocumented(get_json(srv.url + "/healthz"), parts["HTTP"], "/healthz"))
    assert not missing, "sent but not documented: " + ", ".join(sorted(missing))
    kinds = {m["t"] for m in c.seen + lone.seen + lobby.seen}
    assert {"hint", "takeback", "computer", "room", "lobby"} <= kinds
