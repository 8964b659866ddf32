"""A replay flood (issue 37: replays recomputed for 200 addresses, the cache always missing,
the core holding the GIL in a thread): recomputations run in a worker process, at most
AT_ONCE in flight, and past that the answer is 503 `busy` with `Retry-After`; every replay
asked again afterwards is served."""

from __future__ import annotations

import asyncio

import aiohttp

from server.replay.http import AT_ONCE
from tests.server.server_client import connected, get_json

MATCHES = 3 * AT_ONCE


async def test_a_replay_flood_is_bounded_and_every_replay_served_after(game_server):
    srv = game_server(create_burst=100, address_create_burst=100)
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
