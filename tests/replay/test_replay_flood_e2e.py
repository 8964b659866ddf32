"""A replay flood (issue 37: replays recomputed for 200 addresses, the cache always missing,
the core holding the GIL in a thread): recomputations run in a worker process, at most
AT_ONCE in flight, and past that the answer is 503 `busy` with `Retry-After`; every replay
asked again afterwards is served. A replay asked by many at once is computed once, and an
archived match's once for as long as it is kept."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import aiohttp
import redis.asyncio as aioredis

from server.replay.http import AT_ONCE
from server.store.redis_store import log_key
from tests.accounts.account_client import Http, until
from tests.replay.test_notation_e2e import start_room
from tests.replay.test_replay_viewer_e2e import resign_at_rest
from tests.server.server_client import connected, get_json

MATCHES = 3 * AT_ONCE


async def test_a_replay_flood_is_bounded_and_every_replay_served_after(game_server):
    srv = game_server(create_burst=100)
    a, b = await connected(srv.ws_url, "Anna", "Brita")
    await a.send("create", mode="singles", sets=1, clock=60, private=False)
    room = await a.expect("room")
    await b.send("join", room=room["id"])
    await b.expect("room", you={"role": "player", "seat": 1})
    for c in (a, b):
        await c.send("ready", ready=True)
    mids: list[str] = []
    for _ in range(MATCHES):
        for c in (a, b):
            while c.room is None or c.room["match"] is None or c.room["status"] != "playing":
                await c.expect("room")
        mids.append(a.current_room["match"]["id"])
        await a.send("resign")
        await b.expect("result")
        for c in (a, b):
            await c.send("rematch")
        for c in (a, b):
            while c.current_room["match"]["id"] == mids[-1]:
                await c.expect("room")
    async with aiohttp.ClientSession() as http:

        async def replay(mid: str) -> tuple[int, str | None, str | None]:
            async with http.get(f"{srv.url}/api/matches/{mid}/replay") as r:
                body = await r.json()
                return r.status, body.get("error"), r.headers.get("Retry-After")

        answers = await asyncio.gather(*(replay(m) for m in mids for _ in range(2)))
        assert {status for status, _, _ in answers} <= {200, 503}, answers
        busy = [(e, after) for status, e, after in answers if status == 503]
        assert busy and all(e == "busy" and after for e, after in busy), answers
        again = [await replay(m) for m in mids]  # one at a time: every one served
        assert [status for status, _, _ in again] == [200] * MATCHES
    health = get_json(f"{srv.url}/healthz")["replays"]
    assert health["refused"] == len(busy) and health["running"] == 0


async def test_a_replay_asked_by_many_at_once_is_computed_once_and_kept(game_server):
    """Issue 37: each of the flood's requests encoded the same steps again on the loop, and
    an archived match's replay was recomputed every time. Now one recomputation serves every
    request that came meanwhile, and its body (gzipped for who accepts it) after it."""
    srv = game_server(speed_factor=25)
    a = await Http(srv.url).player(srv.ws_url, name="Anu")
    b = await Http(srv.url).player(srv.ws_url, name="Boris")
    await start_room(a, b, private=False)
    await asyncio.gather(a.play("singles", strokes=3), b.play("singles", strokes=3))
    mid = await resign_at_rest(a, b)
    # archived, its live log gone from Redis: the record no longer grows (a record whose log
    # grew during the burst, by the match's last entries or by its archiving, is computed
    # again, rightly, and that is not what is counted here)
    live = aioredis.from_url(str(srv.redis_url))
    try:
        await until(lambda: _gone(live, log_key(mid)), timeout=60, what="the match archived")
    finally:
        await live.aclose()
    before = health(srv.url)["replays"]["played"]
    url = f"{srv.url}/api/matches/{mid}/replay"
    async with aiohttp.ClientSession() as http:

        async def replay(path: str = "", gzip: bool = True) -> tuple[int, str | None, bytes]:
            headers = {"Accept-Encoding": "gzip" if gzip else "identity"}
            async with http.get(url + path, headers=headers) as r:
                return r.status, r.headers.get("Content-Encoding"), await r.read()

        answers = await asyncio.gather(*(replay() for _ in range(3 * AT_ONCE)))
        assert {(status, coding) for status, coding, _ in answers} == {(200, "gzip")}, answers
        assert len({body for _, _, body in answers}) == 1, "one body for everyone"
        played = health(srv.url)["replays"]["played"] - before
        assert played == 1, "computed once, not once per request"
        plain = await replay(gzip=False)
        assert plain[:2] == (200, None) and json.loads(plain[2]) == json.loads(answers[0][2])
        steps = json.loads(plain[2])
        assert [p["name"] for p in steps["players"]] == ["Anu", "Boris"]
        assert steps["mismatches"] == 0 and steps["steps"][-1]["kind"] == "end"
        first = next(s["stroke"] for s in steps["steps"] if s["kind"] == "stroke")
        motions = await asyncio.gather(*(replay(f"/{first}") for _ in range(2)))
        assert [m[0] for m in motions] == [200, 200] and motions[0][2] == motions[1][2]
        assert json.loads(motions[0][2])["hash_ok"] is True
        again = [await replay() for _ in range(3)]  # the archived record's, kept
        assert [(status, json.loads(body)["steps"]) for status, _, body in again] == [
            (200, steps["steps"])
        ] * 3
    assert health(srv.url)["replays"]["played"] - before == 1, "the archived record's, once"


async def _gone(redis: aioredis.Redis, key: str) -> bool:
    return int(await redis.exists(key)) == 0


def health(url: str) -> dict[str, Any]:
    return dict(get_json(f"{url}/healthz"))
