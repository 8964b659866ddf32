"""An HTTP client of the accounts API with its own cookie jar (one browser), and websocket
players opened with its login cookie, as a page of the server's own origin opens them."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import aiohttp
import pytest
import redis
import yarl

from tests.server.server_client import Client, Msg
from tests.waits import until as until
from tests.waits import wait_until as wait_until

PASSWORD = "plenty of words here"
OPEN: list[Http] = []  # closed by close_http_after_each_test


class Http:
    """One browser's view of the HTTP API: its cookies, its Origin (the server's own unless
    told), its local address."""

    def __init__(self, url: str, origin: str | None = "", local_addr: str | None = None) -> None:
        self.url = url
        self.origin = url if origin == "" else origin
        connector = aiohttp.TCPConnector(local_addr=(local_addr, 0) if local_addr else None)
        # unsafe: keep cookies of an IP address (127.0.0.1), as a browser does
        self.session = aiohttp.ClientSession(
            connector=connector, cookie_jar=aiohttp.CookieJar(unsafe=True)
        )
        self.set_cookies: list[str] = []
        OPEN.append(self)

    async def close(self) -> None:
        """Close the connection pool."""
        await self.session.close()

    def headers(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        """The headers a page of self.origin sends."""
        h = {} if self.origin is None else {"Origin": self.origin}
        return {**h, **(extra or {})}

    async def post(
        self, path: str, body: dict[str, Any] | None = None, headers: dict[str, str] | None = None
    ) -> tuple[int, dict[str, Any], aiohttp.ClientResponse]:
        """POST a JSON body: (status, JSON answer, the response)."""
        async with self.session.post(
            self.url + path, json=body or {}, headers=self.headers(headers)
        ) as r:
            self.set_cookies += r.headers.getall("Set-Cookie", [])
            try:
                data = await r.json(content_type=None)
            except ValueError:
                data = {"text": await r.text()}
            return r.status, data, r

    async def get(self, path: str) -> tuple[int, Any]:
        """GET a JSON document: (status, answer)."""
        async with self.session.get(self.url + path) as r:
            return r.status, await r.json(content_type=None)

    def cookie(self) -> str:
        """The Cookie header this browser sends to the server."""
        jar = self.session.cookie_jar.filter_cookies(yarl.URL(self.url))
        return "; ".join(f"{k}={m.value}" for k, m in jar.items())

    async def register(self, name: str, password: str = PASSWORD) -> None:
        """Register (and so log in), or fail the test."""
        status, body, _ = await self.post(
            "/api/account/register", {"username": name, "password": password}
        )
        assert status == 200, body

    async def login(self, name: str, password: str = PASSWORD) -> tuple[int, dict[str, Any]]:
        """Log in: (status, answer)."""
        status, body, _ = await self.post(
            "/api/account/login", {"username": name, "password": password}
        )
        return status, body

    async def me(self) -> str | None:
        """The username this browser is logged in as, or None."""
        _, body = await self.get("/api/account")
        name = body["username"]
        assert name is None or isinstance(name, str), body
        return name

    async def player(self, ws_url: str, name: str = "Someone", token: str | None = None) -> Client:
        """A websocket player opened with this browser's cookie and Origin; hello said."""
        c = Client(name)
        headers = self.headers({"Cookie": self.cookie()} if self.cookie() else None)
        await c.open(ws_url, headers=headers)
        await c.hello(token)
        return c


async def browsers(url: str, *names: str) -> list[Http]:
    """One registered browser per name."""
    out = []
    for n in names:
        h = Http(url)
        await h.register(n)
        out.append(h)
    return out


async def seat_pair(ws_url: str, a: Client, b: Client, **create: Any) -> str:
    """a creates a singles room (with `create`'s options), b joins, both ready: the match is
    on. Returns the room id."""
    await a.send("create", mode="singles", sets=1, clock=60, private=False, **create)
    room = await a.expect("room")
    await b.send("join", room=room["id"])
    await b.expect("room", you={"role": "player", "seat": 1})
    for c in (a, b):
        await c.send("ready", ready=True)
    for c in (a, b):  # both see the match on before either acts in it
        while c.room is None or c.room["match"] is None:
            await c.expect("room")
    return str(room["id"])


async def each_side_strikes(
    *players: Client, strike: Callable[[Client], Awaitable[Msg]] | None = None
) -> None:
    """Whoever's turn it is strikes (`strike`, by default the scripted Novuss player's
    choice; it returns the `stroke`), until each of the players (one a side) has struck once,
    each stroke's own ruling seen by all (an earlier match's may still wait in an inbox): a
    rated match moves ratings only if every side struck (server/history/summary.py,
    `every_side_struck`)."""
    struck: set[int] = set()
    while len(struck) < len(players) and players[0].phase != "over":
        striker = next((c for c in players if c.my_turn()), None)
        assert striker is not None and striker.seat is not None, "one of them is to strike"
        if strike is not None:
            stroke = await strike(striker)
        else:
            stroke = await striker.strike_once("singles")
        struck.add(striker.seat)
        for c in players:
            await c.expect("ruling", stroke=stroke["stroke"])


async def resign_match(loser: Client, winner: Client) -> str:
    """The loser resigns the match in play; the match's id once the winner saw its result.
    This match's: an earlier match's result may still wait in the winner's inbox, and a
    rematch offered on it could reach the server before the resign (refused `not_now`: a CI
    run's rematch that never started)."""
    assert loser.room is not None and loser.room["match"] is not None
    mid = str(loser.room["match"]["id"])
    await loser.send("resign")
    await winner.expect("result", match=mid)
    return mid


def db(redis_url: str) -> redis.Redis:
    """A plain Redis client of a server's database (to look at what it stored); it decodes
    nothing, so its replies are bytes (read them through as_bytes)."""
    return redis.Redis.from_url(redis_url)


def as_bytes(reply: object) -> bytes:
    """A reply of db()'s client checked to be bytes (redis-py types replies as bytes or str,
    or None for a missing key: a test's failure here)."""
    assert isinstance(reply, bytes), f"bytes were expected, not {reply!r}"
    return reply


@pytest.fixture
async def close_http_after_each_test() -> AsyncIterator[None]:
    """Every HTTP client a test makes is closed at its end, pass or fail (the root
    conftest asks for it for every async test)."""
    yield
    for h in OPEN:
        await h.close()
    OPEN.clear()
