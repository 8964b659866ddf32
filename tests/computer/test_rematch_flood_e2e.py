"""A rematch flood with the computer (issue 37): resign at once, `rematch`, the computer
accepts at once, again. Each rematch is charged to the budgets of creating a room, and a
match nobody played is no record: nothing of it stays in Redis."""

from __future__ import annotations

import asyncio

import msgpack
import pytest

from tests.accounts.account_client import as_bytes, db, wait_until
from tests.computer.test_computer_e2e import FAST, play_computer
from tests.server.server_client import Client, Msg, get_json


async def rematched(c: Client, before: str) -> Msg:
    """After a rematch offer: the error that refused it, or the room with the new match."""
    while True:
        msg = await c.inbox.get()
        if msg["t"] == "error":
            return msg
        match = msg.get("match") if msg["t"] == "room" else None
        if match is not None and match["id"] != before:
            return msg


async def resigned(c: Client) -> None:
    """Resign, again after the ruling if the computer's stroke was in motion (`not_now`)."""
    while True:
        await c.send("resign")
        answer = await c.inbox.get()
        while answer["t"] not in ("result", "error"):
            answer = await c.inbox.get()
        if answer["t"] == "result":
            return
        assert answer["code"] == "not_now", answer
        await c.expect("ruling")


async def until_refused(c: Client, t: str, **fields: object) -> tuple[Msg | None, int]:
    """Resign and agree to the next match (`t`, with `fields`) until refused: the refusal
    and the matches started, the first one included (at most 20)."""
    started = 1
    async with asyncio.timeout(60):
        while started < 20:
            mid = c.current_room["match"]["id"]
            await resigned(c)
            await c.send(t, **fields)
            answer = await rematched(c, mid)
            if answer["t"] == "error":
                return answer, started
            started += 1
    return None, started


@pytest.mark.fresh_server  # it reads every key in Redis
async def test_a_rematch_loop_with_the_computer_is_bounded_and_leaves_no_records(game_server):
    srv = game_server(**FAST)
    r = db(str(srv.redis_url))
    c = await play_computer(srv)
    refusal, started = await until_refused(c, "rematch")
    # the session's budget of rooms (5 at once, then 1 every 10 s): the computer's room, then
    # four rematches
    assert refusal is not None and refusal["code"] == "rate_limited", refusal
    assert started == 5
    live = c.current_room["match"]["id"]
    kept = {k.decode() for k in r.scan_iter("nv:*")}
    assert not any(k.startswith(("nv:match:", "nv:log:")) and live not in k for k in kept), kept
    assert {as_bytes(m).decode() for m in r.zrange("nv:matches", 0, -1)} <= {live}
    await c.send("leave")  # resigns the one in play, unplayed too: it goes as the room closes
    await c.expect("left")
    left = {k.decode() for k in r.scan_iter("nv:*")}
    assert not any(k.startswith(("nv:match:", "nv:log:")) for k in left), left

    def closed() -> bool:  # the computer leaves its room at its next look (SCAN, 1 s)
        return not any(k.startswith((b"nv:room:", b"nv:ev:")) for k in r.scan_iter("nv:*"))

    wait_until(closed, what="the computer's room closed")
    assert r.zcard("nv:matches") == 0 and r.xlen("nv:finished") == 0
    assert get_json(srv.url + "/api/matches")["matches"] == []
    assert get_json(srv.url + "/healthz")["store_errors"] == 0


async def test_a_ready_loop_with_the_computer_is_charged_as_a_rematch_loop(game_server):
    """After a match, `ready` agrees to the next one as `rematch` does (the computer has
    offered its rematch): charged to the same budget, so it is no way around it."""
    srv = game_server(**FAST)
    c = await play_computer(srv)
    refusal, started = await until_refused(c, "ready", ready=True)
    assert refusal is not None and refusal["code"] == "rate_limited", refusal
    assert started == 5  # the session's budget of rooms, as for rematches above


async def test_a_match_against_the_computer_with_a_stroke_is_kept(game_server):
    srv = game_server(**FAST)
    c = await play_computer(srv)
    mid = c.current_room["match"]["id"]
    async with asyncio.timeout(60):
        while not any(m["t"] == "stroke" and m["seat"] == c.own_seat for m in c.seen):
            if c.my_turn():
                await c.strike_once("singles")
            else:
                await c.inbox.get()
        while not c.my_turn():  # at rest, and the computer will not strike meanwhile
            await c.inbox.get()
    await c.send("resign")
    result = await c.expect("result")
    assert result["cause"] == "resign"
    record = get_json(f"{srv.url}/api/matches/{mid}")
    assert record["result"] is not None and record["strokes"] >= 1


async def test_a_table_nobody_is_at_keeps_no_events_in_redis(game_server):
    """A match against the computer over, its player's tab closed: the room waits a reload's
    time (WAITING_GRACE), and its kept events go at once, not as it closes (issue 37: a rematch
    flood's abandoned rooms held 20 KB of events each meanwhile). A return within that time
    gets its seat and a whole `room`."""
    srv = game_server(**FAST)
    r = db(str(srv.redis_url))
    c = await play_computer(srv)
    rid = c.current_room["id"]
    await resigned(c)
    token, since = c.token, c.last
    assert r.xlen(f"nv:ev:{rid}") > 2  # the room, the ruling, the result, ...
    await c.close()

    def first() -> str:  # the type of the oldest event kept in Redis
        entries = r.xrange(f"nv:ev:{rid}", count=1)
        fields = entries[0][1] if entries else None
        return str(msgpack.unpackb(as_bytes(fields[b"m"]))["t"]) if fields else ""

    wait_until(lambda: first() == "gone", what="only the events from the drop on kept")
    back = Client("Mari")
    welcome = await back.connect(srv.ws_url, token)
    assert welcome["seat"]["room"] == rid
    await back.send("resume", room=rid, since=since)
    room = await back.expect("room")
    assert room["id"] == rid and room["you"]["seat"] == c.own_seat
