"""Spectating, dropping and resuming, absence, quick match and a crash, over real websockets
against a real server process and a real Redis."""

from __future__ import annotations

import asyncio

import pytest

from tests.server.server_client import Client, close_all, connected, get_json
from tests.server.test_server_match_e2e import seat_singles
from tests.waits import until


async def play_until_stroke(players: list[Client], mode: str = "singles") -> Client:
    """Let whoever's turn it is strike once; returns the striker (its `stroke` consumed)."""
    striker: Client = await until(
        lambda: next((p for p in players if p.my_turn()), None), what="somebody's turn"
    )
    await striker.strike_once(mode)
    return striker


async def wait_rest(*clients: Client) -> None:
    """Until every client has the ruling of the stroke in flight."""
    for c in clients:
        while c.phase not in ("play", "over"):
            await c.inbox.get()


async def test_spectator_joining_mid_motion_ends_with_the_same_positions(game_server):
    srv = game_server(speed_factor=0.5)  # a long motion: the watcher joins during it
    a, b, rid = await seat_singles(srv)
    await play_until_stroke([a, b])
    (w,) = await connected(srv.ws_url, "Watcher")
    await w.send("watch", room=rid)
    snap = await w.expect("room")
    assert snap["you"] == {"role": "watcher", "seat": None}
    assert snap["motion"] is not None, "joined while the discs were moving"
    assert snap["motion"]["paths"] and 0 <= snap["motion"]["time"] < snap["motion"]["duration"]
    assert snap["discs"], "the positions at that instant"
    ruling = await w.expect("ruling")
    await wait_rest(a, b)
    assert ruling["discs"] == a.discs == b.discs == w.discs
    assert "frame" not in {m["t"] for m in w.seen + a.seen}, "the motion went out once"
    # a watcher can never act
    await w.send("strike", x=540.0, y=60.0, angle=1.57, speed=1000.0, ref=5)
    err = await w.expect("error")
    assert err["ref"] == 5 and err["code"] in ("not_seated", "no_room")
    await close_all(a, b, w)


async def test_dropped_player_resumes_with_no_missed_event(game_server):
    srv = game_server(grace_seconds=30)
    a, b, rid = await seat_singles(srv)
    await play_until_stroke([a, b])
    await wait_rest(a, b)
    token, since = b.token, b.last
    seen_before = list(b.seqs)
    await b.close()
    gone = await a.expect("gone")
    assert gone["seat"] == b.seat and gone["grace"] == 30
    await a.send("chat", text="are you there?")
    await a.expect("chat")
    if a.my_turn():  # play on while the other is away: a stroke he must not miss
        await a.strike_once("singles")
        await wait_rest(a)
    b2 = Client("Boris")
    welcome = await b2.connect(srv.ws_url, token=token)
    assert welcome["seat"] == {"room": rid, "seat": b.seat}
    assert welcome["session"] and welcome["token"] == token
    await b2.send("resume", room=rid, since=since)
    back = await a.expect("back")
    assert back["seat"] == b.seat
    for c in (b2, a):  # each has every event the server sent it before its ping
        await c.sync()
    merged = seen_before + b2.seqs
    assert sorted(set(merged)) == list(range(seen_before[0], a.last + 1)), "no event missed"
    assert len(merged) == len(set(merged)), "none twice"
    assert [m["t"] for m in b2.seen if m.get("seq") == gone["seq"] + 1] == ["chat"]
    assert "room" not in [m["t"] for m in b2.seen], "missed events, not a full resync"
    await close_all(a, b2)


async def test_player_who_does_not_return_loses(game_server):
    srv = game_server(grace_seconds=1.5)
    a, b, _rid = await seat_singles(srv)
    seat_b = b.seat
    await b.close()
    await a.expect("gone", seat=seat_b)
    ruling = await a.expect("ruling", timeout=10)
    assert ruling["cause"] == "absent" and ruling["seat"] == seat_b
    assert "004 § 22 (3)" in [line["cite"] for line in ruling["lines"]]
    result = await a.expect("result")
    assert result["winner"] == a.own_seat % 2
    record = get_json(srv.url + result["record"])
    assert record["log"][-2]["kind"] == "absent" and record["result"]["winner"] == a.own_seat % 2
    await close_all(a)


async def test_quick_match_pairs_two_and_fills_four(game_server):
    srv = game_server()
    s1, s2 = await connected(srv.ws_url, "Q1", "Q2")
    await s1.send("quick", mode="singles")
    assert (await s1.expect("queued"))["waiting"] == 1
    await s2.send("quick", mode="singles")
    for c in (s1, s2):
        first = await c.expect("room")
        # one `room`, seated and ready with the match on, as docs/protocol.md says
        assert first["match"] is not None and first["status"] == "playing"
        assert all(seat["ready"] for seat in first["seats"])
        assert (first["sets"], first["clock"], first["private"]) == (1, 30.0, False)
    await s1.sync()  # whatever the server sent s1 before reading its ping has arrived
    assert [m["t"] for m in s1.seen].count("room") == 1, "no earlier half-seated room"
    assert s1.current_room["id"] == s2.current_room["id"] and {s1.seat, s2.seat} == {0, 1}
    doubles = await connected(srv.ws_url, "D1", "D2", "D3", "D4")
    for i, c in enumerate(doubles):
        await c.send("quick", mode="doubles")
        if i < 3:
            assert (await c.expect("queued"))["waiting"] == i + 1
    for c in doubles:
        await c.expect("room")
        while c.current_room["match"] is None:
            await c.expect("room")
    assert len({c.current_room["id"] for c in doubles}) == 1
    assert sorted(c.own_seat for c in doubles) == [0, 1, 2, 3]
    assert (
        doubles[0].current_room["mode"] == "doubles"
        and doubles[0].current_room["status"] == "playing"
    )
    await close_all(s1, s2, *doubles)


@pytest.mark.fresh_server  # killed or stopped and restarted
async def test_sigkill_after_a_stroke_and_restart_resumes_with_it_in_the_log(game_server):
    srv = game_server(speed_factor=0.5)  # a long motion: the kill lands before its ruling
    a, b, rid = await seat_singles(srv)
    striker = await play_until_stroke([a, b])
    stroke = next(m for m in striker.seen if m["t"] == "stroke")
    mid = a.current_room["match"]["id"]
    for c in (a, b):  # both have heard of the stroke (kill() blocks the clients' readers)
        while stroke["stroke"] not in c.strokes_seen:
            await c.inbox.get()
    srv.kill()
    srv.start()
    log = get_json(f"{srv.url}/api/matches/{mid}")["log"]
    assert [e["kind"] for e in log] == ["start", "stroke"]
    assert log[1]["shot"]["speed"] == stroke["speed"]
    since = {c.name: c.last for c in (a, b)}
    await close_all(a, b)
    again = []
    for old in (a, b):
        c = Client(old.name)
        welcome = await c.connect(srv.ws_url, token=old.token)
        assert welcome["seat"]["room"] == rid
        await c.send("resume", room=rid, since=since[old.name])
        again.append(c)
    for c in again:
        ruling = await c.expect("ruling")
        assert ruling["stroke"] == stroke["stroke"]
    a2, b2 = again
    a2.seat, b2.seat = a.seat, b.seat
    a2.room = b2.room = a.room
    for c in again:
        c.phase = "play"
        await c.sync()  # the resumed rooms' messages are all in
    nxt = await play_until_stroke(again)
    assert nxt.strokes_seen == [stroke["stroke"] + 1]
    await wait_rest(*again)
    log = get_json(f"{srv.url}/api/matches/{mid}")["log"]
    assert [e["kind"] for e in log][:3] == ["start", "stroke", "stroke"]
    await close_all(*again)


async def test_embedded_redis_survives_a_killed_server(game_server):
    srv = game_server(embedded=True)
    (a,) = await connected(srv.ws_url, "Solo")
    await a.send("create", mode="singles", sets=1, clock=30, private=False)
    rid = (await a.expect("room"))["id"]
    assert (srv.data_dir / "novuss.aof").exists() or (srv.data_dir / "appendonlydir").exists()
    srv.kill()
    srv.start()
    c = Client("Solo")
    welcome = await c.connect(srv.ws_url, token=a.token)
    assert welcome["seat"] == {"room": rid, "seat": 0}
    await close_all(a, c)


@pytest.mark.fresh_server  # killed or stopped and restarted
async def test_a_planned_restart_longer_than_the_grace_costs_nobody_the_match(game_server):
    srv = game_server(grace_seconds=2)
    a, b, rid = await seat_singles(srv)
    srv.stop()  # SIGTERM: a clean shutdown
    await asyncio.sleep(2.5)  # the subject: down for longer than the 2 s grace
    srv.start()
    again = []
    for old in (a, b):
        c = Client(old.name)
        welcome = await c.connect(srv.ws_url, token=old.token)
        assert welcome["seat"] == {"room": rid, "seat": old.seat}
        await c.send("resume", room=rid, since=0)
        again.append(c)
    for c in again:
        snap = await c.expect("room")
        assert snap["status"] == "playing" and snap["match"]["result"] is None
    await close_all(a, b, *again)


async def test_the_stroke_clock_runs_out_into_a_ruling(game_server):
    srv = game_server()
    a, b = await connected(srv.ws_url, "Slow", "Quick")
    await a.send("create", mode="singles", sets=1, clock=5, private=False)
    rid = (await a.expect("room"))["id"]
    await b.send("join", room=rid)
    await a.send("ready")
    await b.send("ready")
    clock = await a.expect("clock")
    assert clock["remaining"] == 5.0 and clock["running"]
    ruling = await a.expect("ruling", timeout=10)
    assert ruling["cause"] == "clock" and ruling["seat"] == clock["seat"]
    assert any("§ 26 (4)" in line["cite"] for line in ruling["lines"])
    assert ruling["turn"] != clock["seat"]
    nxt = await a.expect("clock")
    assert nxt["seat"] == ruling["turn"] and nxt["remaining"] == 5.0
