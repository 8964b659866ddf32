"""Malformed, unknown, oversized and out-of-range input over a real websocket: an error reply
with a code and a sentence, the connection kept, the room unchanged."""

from __future__ import annotations

import math

import aiohttp
import msgpack

from tests.conftest import GameServer
from tests.server.server_client import Client, Msg, as_map, close_all, connected
from tests.server.test_server_match_e2e import seat_singles


async def reply(client: Client, data: bytes | str) -> Msg:
    await client.send_raw(data)
    return await client.expect("error")


async def test_garbage_gets_errors_and_the_connection_stays(game_server):
    srv = game_server()
    (c,) = await connected(srv.ws_url, "Eve")
    cases = {
        "bad_frame": [b"\xc1\xc1\xc1", "text frame", msgpack.packb([1, 2, 3]), b""],
        "too_large": [msgpack.packb({"t": "chat", "text": "x" * 5000})],
        "unknown_type": [msgpack.packb({"t": "teleport"}), msgpack.packb({"x": 1})],
        "bad_field": [
            msgpack.packb({"t": "create", "mode": "triples", "sets": 1, "clock": 30}),
            msgpack.packb({"t": "create", "mode": "singles", "sets": 99, "clock": 30}),
            msgpack.packb({"t": "create", "mode": "singles", "sets": 1, "clock": 30, "x": 1}),
            msgpack.packb({"t": "create", "mode": "singles", "sets": True, "clock": 30}),
            msgpack.packb({"t": "strike", "x": math.nan, "y": 60.0, "angle": 1.0, "speed": 1.0}),
            msgpack.packb({"t": "strike", "x": 540.0, "y": 60.0, "angle": 1.0, "speed": 1e9}),
            msgpack.packb({"t": "strike", "x": 540.0, "y": -1.0, "angle": 1.0, "speed": 100}),
            msgpack.packb({"t": "aim", "x": 540.0, "y": 60.0, "angle": math.inf, "power": 0.5}),
            msgpack.packb({"t": "chat", "text": "y" * 201}),
            msgpack.packb({"t": "chat", "text": "   "}),
            msgpack.packb({"t": "hello", "name": "n" * 25}),
            msgpack.packb({"t": "hello", "name": "bell\x07"}),
            msgpack.packb({"t": "join", "room": "../etc"}),
            msgpack.packb({"t": "resume", "room": "r1", "since": -1}),
        ],
    }
    for code, frames in cases.items():
        for data in frames:
            err = await reply(c, data)
            assert err["code"] == code, (data, err)
            assert isinstance(err["message"], str) and err["message"].endswith(".")
    err = await reply(c, msgpack.packb({"t": "ready", "ref": 9}))
    assert (err["code"] == "not_seated" and err["ref"] == 9) or err["code"] == "no_room"
    await c.send("ping", n=7)
    assert (await c.expect("pong"))["n"] == 7
    await close_all(c)


async def test_refused_actions_change_nothing(game_server):
    srv = game_server()
    (anon,) = await connected(srv.ws_url, "Mallory")
    a, b, rid = await seat_singles(srv)
    (w,) = await connected(srv.ws_url, "Watcher")
    await w.send("watch", room=rid)
    before = await w.expect("room")
    striker, other = (a, b) if a.my_turn() else (b, a)
    side = striker.sides[striker.own_seat]
    x, y = (540.0, 60.0) if side == "S" else (540.0, 1020.0)
    angle = math.pi / 2 if side == "S" else -math.pi / 2
    refusals: list[tuple[Client, Msg, str]] = [
        (other, {"t": "strike", "x": x, "y": y, "angle": angle, "speed": 1000.0}, "not_your_turn"),
        (
            striker,
            {"t": "strike", "x": 540.0, "y": 540.0, "angle": 1.0, "speed": 1000.0},
            "bad_stroke",
        ),
        (striker, {"t": "strike", "x": x, "y": y, "angle": -angle, "speed": 1000.0}, "bad_stroke"),
        (w, {"t": "strike", "x": x, "y": y, "angle": angle, "speed": 1000.0}, "not_seated"),
        (w, {"t": "resign"}, "not_seated"),
        (w, {"t": "chat", "text": "hi partner", "team": True}, "not_teammate"),
        (other, {"t": "pass"}, "not_your_turn"),
        (other, {"t": "ready"}, "not_now"),
        (other, {"t": "rematch"}, "not_now"),
        (other, {"t": "create", "mode": "singles", "sets": 1, "clock": 30}, "in_room"),
        (anon, {"t": "join", "room": rid}, "not_now"),
        (anon, {"t": "join", "room": "rnothere"}, "no_room"),
        (anon, {"t": "join", "invite": "forged-invite"}, "bad_invite"),
    ]
    for client, msg, code in refusals:
        err = await reply(client, msgpack.packb({**msg, "ref": 1}))
        assert err["code"] == code, (msg, err)
        if code == "bad_stroke":
            assert err["rule"].startswith("004") and err["reason"] in (
                "placement_zone",
                "cue_angle",
            )
    err = await reply(anon, msgpack.packb({"t": "hello", "name": "x", "token": a.token}))
    assert err["code"] == "not_now", "one hello per connection: no seat taken over"
    assert (await _raw_hello(srv, "guessed-token"))["code"] == "bad_token"
    await w.send("watch", room=rid)
    after = await w.expect("room")
    assert after["seq"] == before["seq"] and after["match"]["stroke"] == 0
    assert after["discs"] == before["discs"] and after["match"]["turn"] == before["match"]["turn"]
    await close_all(anon, a, b, w)


async def _raw_hello(srv: GameServer, token: str) -> Msg:
    """The answer to a hello with `token` on a fresh connection."""
    async with aiohttp.ClientSession() as session, session.ws_connect(srv.ws_url) as ws:
        await ws.send_bytes(msgpack.packb({"t": "hello", "name": "Ghost", "token": token}))
        return as_map(msgpack.unpackb((await ws.receive()).data, raw=False))


async def test_private_room_needs_its_invite(game_server):
    srv = game_server()
    a, b, c = await connected(srv.ws_url, "Host", "Pal", "Stranger")
    await a.send("lobby")
    await a.expect("lobby")
    await a.send("create", mode="singles", sets=1, clock=30, private=True)
    room = await a.expect("room")
    assert room["private"] and len(room["invite"]) >= 20
    err = await reply(c, msgpack.packb({"t": "join", "room": room["id"]}))
    assert err["code"] == "no_room"
    err = await reply(c, msgpack.packb({"t": "watch", "room": room["id"]}))
    assert err["code"] == "no_room"
    await b.send("join", invite=room["invite"])
    joined = await b.expect("room")
    assert joined["you"]["seat"] == 1 and joined["invite"] == room["invite"]
    await c.send("watch", invite=room["invite"])
    watched = await c.expect("room")
    assert watched["invite"] is None, "the invite is shown to seated players only"
    assert all(room["id"] != r["id"] for r in (await a.expect("lobby"))["rooms"])
    await close_all(a, b, c)
