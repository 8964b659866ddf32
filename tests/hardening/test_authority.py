"""The referee's authority: every action a client has no right to is refused with a clear error
and changes nothing (the match's state hash, as a watcher's resync shows it, and its record).
Secrets (resume tokens, invites) reach nobody else; names and chat are carried as data."""

from __future__ import annotations

import json
import math
from typing import Any
from urllib.request import urlopen

import aiohttp
import msgpack

from tests.conftest import GameServer
from tests.hardening.wire import state_hash
from tests.server.server_bot import choose_shot
from tests.server.server_client import Client, as_map, close_all, connected
from tests.server.test_server_match_e2e import seat_singles

Msg = dict[str, Any]


def get_json(url: str) -> Msg:
    with urlopen(url, timeout=5) as r:
        assert r.headers["Content-Type"].startswith("application/json")
        return as_map(json.loads(r.read()))


async def state(w: Client, rid: str) -> str:
    """The match's state hash from a full resync of watcher w."""
    await w.send("watch", room=rid)
    return state_hash(await w.expect("room"))


async def refused(client: Client, code: str, t: str, **fields: Any) -> Msg:
    """Send a message that must be refused with `code`; returns the error (which names it)."""
    await client.send(t, ref=77, **fields)
    err = await client.expect("error")
    assert err["code"] == code, (t, fields, err)
    assert err["ref"] == 77 and err["message"].endswith("."), err
    return err


def legal_shot(c: Client) -> dict[str, float]:
    """The scripted player's stroke for c (who must be the one to strike)."""
    assert c.seat is not None and c.room is not None
    side = c.sides[c.seat]
    assert side is not None
    x, y, angle, speed = choose_shot(c.discs, c.seat, side, c.room["table"])
    return {"x": x, "y": y, "angle": angle, "speed": speed}


async def match_with_watcher(srv: GameServer) -> tuple[Client, Client, Client, str]:
    """(striker, other, watcher, room id) of a singles match that has just started."""
    a, b, rid = await seat_singles(srv)
    (w,) = await connected(srv.ws_url, "Wanda")
    striker, other = (a, b) if a.my_turn() else (b, a)
    return striker, other, w, rid


def log_of(srv: GameServer, c: Client) -> list[Msg]:
    assert c.room is not None and c.room["match"] is not None
    log: list[Msg] = get_json(f"{srv.url}/api/matches/{c.room['match']['id']}")["log"]
    return log


async def test_nobody_strikes_but_the_player_to_strike(game_server):
    srv = game_server(speed_factor=1)
    striker, other, w, rid = await match_with_watcher(srv)
    (stranger,) = await connected(srv.ws_url, "Stranger")
    shot = legal_shot(striker)
    before, log = await state(w, rid), log_of(srv, striker)
    await refused(w, "not_seated", "strike", **shot)  # a spectator
    await refused(other, "not_your_turn", "strike", **shot)  # out of turn
    await refused(other, "not_your_turn", "pass")
    await refused(striker, "bad_field", "strike", seat=other.seat, **shot)  # for another seat
    await refused(other, "bad_field", "strike", seat=striker.seat, **shot)
    await refused(striker, "bad_field", "strike", room="r0", **shot)  # naming a room
    await refused(stranger, "no_room", "strike", **shot)  # in no room at all
    # in another room: a player seated elsewhere strikes; his room refuses, ours is untouched
    await stranger.send("create", mode="singles", sets=1, clock=30, private=False)
    await stranger.expect("room")
    await refused(stranger, "not_now", "strike", **shot)
    await refused(stranger, "in_room", "join", room=rid)
    assert await state(w, rid) == before and log_of(srv, striker) == log
    await close_all(striker, other, w, stranger)


async def test_twice_for_one_turn_and_during_motion(game_server):
    srv = game_server(speed_factor=0.5)  # a slow motion: the second strike lands during it
    striker, other, w, rid = await match_with_watcher(srv)
    shot = legal_shot(striker)
    await striker.send("strike", **shot)
    await striker.send("strike", ref=5, **shot)  # the same turn, again
    stroke = await striker.expect("stroke")
    err = await striker.expect("error")
    assert err["code"] == "not_now" and err["ref"] == 5 and "rest" in err["message"]
    during = await state(w, rid)
    # (a resignation during the motion is kept for its end: tests/server/test_server_mid_motion.py)
    for c, t in ((striker, "strike"), (other, "strike"), (other, "pass")):
        await refused(c, "not_now", t, **(shot if t == "strike" else {}))
    assert await state(w, rid) == during
    strokes = [e for e in log_of(srv, striker) if e["kind"] == "stroke"]
    assert [e["stroke"] for e in strokes] == [stroke["stroke"]] == [1], "one stroke stored"
    await close_all(striker, other, w)


async def test_nothing_after_the_match(game_server):
    srv = game_server()
    striker, other, w, rid = await match_with_watcher(srv)
    await other.send("resign")
    result = await striker.expect("result")
    assert result["winner"] == striker.own_seat % 2
    for c in (striker, other, w):  # all the server sent them before their ping is in
        await c.sync()
    before, log = await state(w, rid), log_of(srv, striker)
    shot = {"x": 540.0, "y": 60.0, "angle": math.pi / 2, "speed": 1000.0}
    for c in (striker, other):
        await refused(c, "not_now", "strike", **shot)
        await refused(c, "not_now", "resign")
    await refused(striker, "not_now", "pass")
    assert await state(w, rid) == before and log_of(srv, striker) == log
    assert log[-1]["kind"] == "end"
    await close_all(striker, other, w)


async def test_no_seat_is_taken_over(game_server):
    srv = game_server()
    a, b, c, d = await connected(srv.ws_url, "Host", "Guest", "Third", "Thief")
    await a.send("create", mode="singles", sets=1, clock=30, private=False)
    rid = (await a.expect("room"))["id"]
    await refused(c, "seat_taken", "join", room=rid, seat=0)
    await b.send("join", room=rid)
    await b.expect("room")
    before = await state(d, rid)
    await refused(c, "room_full", "join", room=rid)
    await refused(c, "bad_field", "join", room=rid, seat=4)
    await refused(c, "seat_taken", "join", room=rid, seat=1)
    # a private room: neither its id nor a guessed invite lets anybody in
    await c.send("create", mode="singles", sets=1, clock=30, private=True)
    private = await c.expect("room")
    assert len(private["invite"]) >= 20
    await refused(d, "no_room", "join", room=private["id"])
    await refused(d, "no_room", "watch", room=private["id"])
    await refused(d, "bad_invite", "join", invite=private["invite"][:-1] + "x")
    await refused(d, "bad_invite", "join", room=rid, invite=private["invite"])
    # resuming: a seat belongs to the session whose secret token says hello
    await refused(d, "not_seated", "resume", room=rid, since=0)
    assert (await raw_hello(srv, "x" * 43))["code"] == "bad_token"
    sid = next(m for m in a.seen if m["t"] == "welcome")["session"]
    assert (await raw_hello(srv, sid))["code"] == "bad_token", "a public session id is no token"
    ghost = Client("Ghost")
    await ghost.connect(srv.ws_url)
    await refused(ghost, "not_now", "hello", name="Ghost", token=a.token)  # one hello a socket
    for client in (a, b, c, d, ghost):  # every refusal's effect, if any, is out
        await client.sync()
    assert await state(d, rid) == before
    await close_all(a, b, c, d, ghost)


async def raw_hello(srv: GameServer, token: str) -> Msg:
    """The answer to hello{token} on a fresh socket."""
    async with aiohttp.ClientSession() as http, http.ws_connect(srv.ws_url) as ws:
        await ws.send_bytes(msgpack.packb({"t": "hello", "name": "Thief", "token": token}))
        return as_map(msgpack.unpackb((await ws.receive()).data, raw=False))


async def test_secrets_reach_nobody_else(game_server):
    """Tokens and invites come from `secrets` (long, distinct) and appear in no message to
    another client: through a private match with chat, a watcher, a drop and a resume."""
    srv = game_server(grace_seconds=30)
    a, b, w = await connected(srv.ws_url, "Anu", "Boris", "Wanda")
    tokens = {c.name: c.token for c in (a, b, w) if c.token is not None}
    assert len(set(tokens.values())) == 3 and all(len(t) >= 32 for t in tokens.values())
    await a.send("create", mode="singles", sets=1, clock=60, private=True)
    invite = (await a.expect("room"))["invite"]
    await b.send("join", invite=invite)
    await b.expect("room")
    await w.send("watch", invite=invite)
    await w.expect("room")
    for c in (a, b):
        await c.send("ready")
    for c in (a, b):
        while c.room is None or c.room["match"] is None:
            await c.inbox.get()
    await a.send("chat", text="hello")
    await b.close()
    b2 = Client("Boris")
    await b2.connect(srv.ws_url, token=tokens["Boris"])
    await b2.send("resume", room=a.current_room["id"], since=b.last)
    await a.expect("back")
    for c in (a, b2, w):  # all the server sent them before their ping is in (b is closed)
        await c.sync()
    for c in (a, b, b2, w):
        own = tokens[c.name]
        text = repr(c.seen)
        for name, token in tokens.items():
            assert token == own or token not in text, f"{name}'s token reached {c.name}"
    assert invite not in repr(w.seen), "the invite is for seated players only"
    lobby = get_json(f"{srv.url}/api/matches")
    assert all(t not in json.dumps(lobby) for t in (*tokens.values(), invite))
    await close_all(a, b2, w)


async def test_markup_in_names_and_chat_is_data(game_server):
    srv = game_server()
    name = "<b onclick=alert(1)>&lt;"  # 24 characters of markup
    text = "<script>alert('x')</script> &amp; <b>bold</b>"
    a, b, w = await connected(srv.ws_url, name, "Boris", "Wanda")
    await a.send("create", mode="singles", sets=1, clock=60, private=False)
    rid = (await a.expect("room"))["id"]
    await b.send("join", room=rid)
    await b.expect("room")
    await w.send("watch", room=rid)
    await w.expect("room")
    await a.send("chat", text=text)
    for c in (a, b, w):
        chat = await c.expect("chat")
        assert chat["text"] == text and chat["name"] == name, "exactly as sent"
    assert w.room is not None and w.room["seats"][0]["name"] == name
    for c in (a, b):
        await c.send("ready")
    for c in (a, b):
        while c.room is None or c.room["match"] is None:
            await c.inbox.get()
    record = get_json(f"{srv.url}/api/matches/{a.current_room['match']['id']}")
    assert record["players"][0]["name"] == name
    await close_all(a, b, w)
