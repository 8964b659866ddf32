"""The lobby list, watcher counts, team chat, rematch and the HTTP side, against a real server."""

from __future__ import annotations

import json
from urllib.error import HTTPError
from urllib.request import urlopen

import pytest

from server import gc_policy
from tests.conftest import GameServer
from tests.server.server_client import Msg, as_map, connected
from tests.server.test_server_match_e2e import seat_singles, watched_singles


def get(url: str) -> tuple[int, str, bytes]:
    with urlopen(url, timeout=5) as r:
        return r.status, r.headers.get("Content-Type", ""), r.read()


def status_of(url: str) -> int:
    """The HTTP status a GET is answered with, errors included."""
    try:
        return get(url)[0]
    except HTTPError as e:
        return e.code


@pytest.mark.fresh_server  # reads the whole lobby
async def test_lobby_lists_rooms_and_live_matches_with_watcher_counts(game_server):
    srv = game_server()
    (sub,) = await connected(srv.ws_url, "Looker")
    await sub.send("lobby")
    first = await sub.expect("lobby")
    assert first["rooms"] == [] and first["live"] == []
    a, _b, rid = await seat_singles(srv)
    while True:
        msg = await sub.expect("lobby")
        if any(r["id"] == rid for r in msg["live"]):
            break
    live = next(r for r in msg["live"] if r["id"] == rid)
    assert live["mode"] == "singles" and [p["name"] for p in live["players"]] == ["Anu", "Boris"]
    watchers = await connected(srv.ws_url, "W1", "W2")
    for w in watchers:
        await w.send("watch", room=rid)
        await w.expect("room")
    counted = await a.expect("watchers", timeout=5)
    while counted["n"] != 2:
        counted = await a.expect("watchers", timeout=5)
    while not any(r["id"] == rid and r["watchers"] == 2 for r in msg["live"]):
        msg = await sub.expect("lobby", timeout=5)


async def test_team_chat_reaches_the_partner_only(game_server):
    srv = game_server()
    players = await connected(srv.ws_url, "P0", "P1", "P2", "P3")
    await players[0].send("create", mode="doubles", sets=1, clock=60, private=False)
    rid = (await players[0].expect("room"))["id"]
    for p in players[1:]:
        await p.send("join", room=rid)
    for p in players:
        await p.expect("room", you={"role": "player", "seat": players.index(p)})
    (w,) = await connected(srv.ws_url, "Watcher")
    await w.send("watch", room=rid)
    await w.expect("room")
    await players[1].send("chat", text="<b>go left</b>", team=True)
    got = await players[3].expect("chat")
    assert got["text"] == "<b>go left</b>" and got["team"] == 1 and got["seat"] == 1
    await players[0].send("chat", text="good luck all")
    for p in (players[1], players[2], w):
        assert (await p.expect("chat", text="good luck all"))["seat"] == 0
    for p in (players[0], players[2], w):
        assert all(m.get("team") != 1 for m in p.seen if m["t"] == "chat")
        assert got["seq"] in [m["seq"] for m in p.seen if m["t"] == "hidden"], "seq kept whole"


async def test_rematch_starts_a_new_match_in_the_same_room(game_server):
    srv = game_server()
    a, b, rid = await seat_singles(srv)
    first = a.current_room["match"]["id"]
    await a.send("resign")
    result = await b.expect("result")
    assert result["cause"] == "resign" and result["winner"] == b.own_seat % 2
    await a.send("rematch")
    offer = await b.expect("room")
    assert offer["rematch"] == [a.seat]
    await b.send("rematch")
    while b.current_room["match"]["id"] == first or b.current_room["status"] != "playing":
        await b.expect("room")
    assert b.current_room["id"] == rid
    status, _, body = get(f"{srv.url}/api/matches/{first}")
    record = json.loads(body)
    assert status == 200 and record["result"]["winner"] == b.own_seat % 2
    assert [e["kind"] for e in record["log"]] == ["start", "resign", "end"]


@pytest.mark.fresh_server  # a new server's record list is empty
async def test_http_serves_the_client_health_and_records(game_server):
    srv = game_server()
    status, ctype, body = get(srv.url + "/healthz")
    health = json.loads(body)
    assert status == 200 and health["ok"] and health["redis"] == "ok"
    # the collector's tuning is in force in the served process, and its pauses are shown
    assert health["gc"]["thresholds"] == list(gc_policy.THRESHOLDS)
    assert len(health["gc"]["longest_pause_ms"]) == 3
    for path in ("/", "/r/SomeInvite123", "/?room=r1"):
        status, ctype, body = get(srv.url + path)
        assert status == 200 and ctype.startswith("text/html") and b"<" in body
    # the library the pages' import map names is served; web/'s tooling is not
    status, ctype, _ = get(srv.url + "/node_modules/@msgpack/msgpack/dist.esm/index.mjs")
    assert status == 200
    for tooling in ("/package.json", "/package-lock.json", "/build.mjs", "/tsconfig.json",
                    "/tests/geometry.test.mjs", "/node_modules/@msgpack/msgpack/package.json",
                    "/node_modules/.package-lock.json", "/js/../build.mjs"):  # fmt: skip
        assert status_of(srv.url + tooling) == 404, tooling
    assert json.loads(get(srv.url + "/api/matches")[2]) == {"matches": []}


@pytest.mark.fresh_server  # its only room closed, the server holds none
async def test_leaving_frees_the_seat_and_an_empty_room_closes(game_server):
    srv = game_server()
    a, b, w = await connected(srv.ws_url, "A", "B", "W")
    await w.send("lobby")
    await w.expect("lobby")
    await a.send("create", mode="singles", sets=1, clock=30, private=False)
    rid = (await a.expect("room"))["id"]
    await b.send("join", room=rid, seat=1)
    await b.expect("room")
    await w.send("watch", room=rid)
    await w.expect("room")
    await b.send("leave")
    assert (await b.expect("left"))["room"] == rid
    freed = await a.expect("room")
    while freed["seats"][1] is not None:
        freed = await a.expect("room")
    assert freed["seats"][0]["name"] == "A"
    await a.send("leave")
    await a.expect("left")
    assert (await w.expect("left"))["room"] == rid, "watchers are told the room closed"
    while True:
        lobby = await w.expect("lobby", timeout=5)
        if all(r["id"] != rid for r in lobby["rooms"]):
            break
    health = await _health(srv)
    assert health["rooms"] == 0


async def test_a_player_who_leaves_a_live_match_is_told_left_and_the_others_the_result(
    game_server,
):
    # docs/protocol.md, `leave`: leaving a live match resigns it; the others get its ruling
    # and result, the leaver `left` alone (a client's next `room` is of its next room)
    srv = game_server()
    a, b, rid = await seat_singles(srv)
    await a.send("leave")
    assert (await a.expect("left"))["room"] == rid
    result = await b.expect("result")
    assert result["winner"] == 1 and result["cause"] == "resign"
    await a.sync()
    assert not [m for m in a.seen if m["t"] in ("ruling", "result")]


async def _health(srv: GameServer) -> Msg:
    return as_map(json.loads(get(srv.url + "/healthz")[2]))


async def test_aim_previews_reach_watchers_rate_limited(game_server):
    srv = game_server()
    striker, other, (w,), _ = await watched_singles(srv, "W")
    for i in range(30):
        await striker.send("aim", x=540.0 + i, y=60.0, angle=1.5, power=0.5)
        await other.send("aim", x=100.0, y=60.0, angle=1.5, power=0.5)  # not his turn: dropped
    first = await w.expect("aim")
    assert first["seat"] == striker.seat
    aims = [first]
    while aims[-1]["x"] != 569.0:  # until the newest preview (or expect's deadline)
        aims.append(await w.expect("aim"))
    assert len(aims) < 30, "coalesced, at most 15 a second"
    assert aims[-1]["x"] == 569.0, "the newest preview arrives"
    assert all(m["seat"] == striker.seat for m in aims)
    await other.expect("aim", x=569.0)  # the newest preview reaches the opponent too
    seen_by_other = [m for m in other.seen if m["t"] == "aim"]
    assert seen_by_other and seen_by_other[-1]["x"] == 569.0, "the opponent sees the aim"
    await striker.sync()  # an echo would have come before the pong
    assert not [m for m in striker.seen if m["t"] == "aim"], "not echoed to the aimer"


async def test_a_new_room_is_never_closed_before_its_creator_sits_down(game_server):
    """A created room is the creator's, seat 0, until they leave: the clock loop (here every
    millisecond) closes empty rooms and once closed fresh ones while their lease was taken."""
    srv = game_server(
        tick_seconds=0.001,
        create_burst=100,
        msg_rate=1000,
        msg_burst=1000,
    )
    (host,) = await connected(srv.ws_url, "Host")
    for k in range(40):
        await host.send("create", mode="singles", sets=1, clock=60, private=False)
        room = await host.expect("room")
        assert room["you"]["seat"] == 0, f"create {k}: not seated"
        await host.send("ping", n=k)
        await host.expect("pong", n=k)
        seen = [m["t"] for m in host.drain()]
        assert "left" not in seen, f"create {k}: the new room closed under its creator: {seen}"
        await host.send("leave")
        await host.expect("left")
