"""A lessons flood (issue 37: 249 addresses at the allowed 2 tries a second made honest
rulings 5 s late): tries are played in worker processes within a global bound, so many
addresses at once get 503 `busy` with `Retry-After` past it, and a match being played meanwhile
gets its strokes on time."""

from __future__ import annotations

import asyncio
import time

import aiohttp
import pytest

from server.games.novuss.lessons import lesson
from server.lessons.http import TRIES_AT_ONCE
from tests.server.server_client import Client, close_all, connected, get_json

ADDRESSES = 48
EACH = 8  # under one address's burst (10): every refusal is the global bound's


async def flood(
    url: str, shot: dict[str, float], answered: asyncio.Event | None = None
) -> list[tuple[int, str | None, str | None]]:
    """EACH tries at once from each of ADDRESSES loopback addresses: (status, code,
    Retry-After) of each; `answered` is set at the first answer (the flood is under way)."""

    async def one_address(i: int) -> list[tuple[int, str | None, str | None]]:
        connector = aiohttp.TCPConnector(local_addr=(f"127.0.1.{i + 1}", 0), limit=EACH)
        async with aiohttp.ClientSession(connector=connector) as http:

            async def one() -> tuple[int, str | None, str | None]:
                async with http.post(f"{url}/api/lessons/direct", json={"shots": [shot]}) as r:
                    if answered is not None:
                        answered.set()
                    body = await r.json()
                    return r.status, body.get("code"), r.headers.get("Retry-After")

            return list(await asyncio.gather(*(one() for _ in range(EACH))))

    rows = await asyncio.gather(*(one_address(i) for i in range(ADDRESSES)))
    return [answer for row in rows for answer in row]


async def strike_in_flood(
    url: str, shot: dict[str, float], a: Client, b: Client
) -> tuple[float, list[tuple[int, str | None, str | None]]]:
    """a and b at a table, the flood sent, and one stroke struck meanwhile: how long the
    stroke took, and the flood's answers."""
    await a.send("create", mode="singles", sets=1, clock=60, private=False)
    room = await a.expect("room")
    await b.send("join", room=room["id"])
    await b.expect("room", you={"role": "player", "seat": 1})
    for c in (a, b):
        await c.send("ready", ready=True)
    for c in (a, b):
        while c.room is None or c.room["match"] is None or c.phase != "play":
            await c.expect("room")
    striker = a if a.my_turn() else b
    under_way = asyncio.Event()
    task = asyncio.create_task(flood(url, shot, under_way))
    await under_way.wait()  # the server answers the flood's first try: the stroke goes now
    started = time.monotonic()
    await striker.strike_once("singles")
    took = time.monotonic() - started
    answers = await task
    return took, answers


@pytest.mark.alone  # an honest stroke's real time during the flood (pyproject.toml)
async def test_a_lessons_flood_is_bounded_and_the_match_plays_on(game_server):
    srv = game_server()
    s = lesson("direct").solution[0]
    shot = {"x": s.x, "y": s.y, "angle": s.angle, "speed": s.speed}
    a, b = await connected(srv.ws_url, "Anna", "Brita")
    try:
        took, answers = await strike_in_flood(srv.url, shot, a, b)
    finally:  # this folder has no fixture closing websocket clients
        await close_all(a, b)
    statuses = {status for status, _, _ in answers}
    assert statuses <= {200, 503}, statuses
    busy = [(code, after) for status, code, after in answers if status == 503]
    assert busy and all(code == "busy" and after for code, after in busy), busy[:3]
    assert sum(status == 200 for status, _, _ in answers) >= TRIES_AT_ONCE
    health = get_json(f"{srv.url}/healthz")
    assert health["lessons"]["refused"] == len(busy) and health["lessons"]["running"] == 0
    print(f"lessons flood: {len(answers)} tries, {len(busy)} busy; strike to stroke {took:.3f} s")
    assert took < 2.0, f"the stroke took {took:.2f} s during the flood"
