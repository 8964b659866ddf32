"""Quick match pairs registered players by rating through a real server and Redis
(docs/accounts.md, "Quick match by rating"): the nearest within reach rather than the first
to come, the window widening with the wait, guests as before; across two processes too."""

from __future__ import annotations

import asyncio
import time

import pytest

from server.ratings.model import SCALE
from tests.accounts.account_client import Http
from tests.pg import rows
from tests.server.server_client import Client

# a server of its own for each test: one quick-match queue per server (another test's
# waiting player would be paired)
pytestmark = [pytest.mark.asyncio, pytest.mark.fresh_server]


async def rate(database_url: str, name: str, shown: int, mode: str = "singles") -> None:
    """Give account `name` the rating `shown` in a rating's mode (as archiving a match stores
    it)."""
    mu, sigma = shown / SCALE, 3.0
    (row,) = await rows(
        database_url,
        "INSERT INTO ratings (uid, mode, mu, sigma, matches, ordinal) SELECT uid, $2, $3, $4,"
        " 40, $5 FROM accounts WHERE name_key = $1 ON CONFLICT (uid, mode) DO UPDATE SET"
        " mu = excluded.mu, sigma = excluded.sigma, ordinal = excluded.ordinal RETURNING uid",
        name.lower(), mode, mu, sigma, mu - 3 * sigma,
    )  # fmt: skip
    assert row["uid"]


async def player(
    url: str, ws_url: str, database_url: str, name: str, shown: int, mode: str = "singles"
) -> Client:
    """A registered player with that rating, connected (from a page of `url`'s origin)."""
    h = Http(url)
    await h.register(name)
    await rate(database_url, name, shown, mode)
    c = Client(name)
    await c.open(ws_url, headers={"Origin": url, "Cookie": h.cookie()})
    await c.hello()
    return c


async def queue(c: Client, game: str = "novuss") -> None:
    """c joins the singles quick-match queue of `game`."""
    await c.send("quick", mode="singles", game=game)
    await c.expect("queued")


async def seated_with(c: Client, timeout: float = 10) -> dict[str, object]:
    """The room c is seated in by quick match: {names of its players, rated, ratings}."""
    room = await c.expect("room", timeout=timeout)
    seats = room["seats"]
    return {
        "names": {s["name"] for s in seats},
        "rated": room["rated"],
        "ratings": sorted(s["rating"] for s in seats if s["rating"] is not None),
    }


async def test_the_nearest_rating_not_the_first_to_come(game_server):
    srv = game_server()
    a = await player(srv.url, srv.ws_url, str(srv.options["database_url"]), "Aino", 1500)
    b = await player(srv.url, srv.ws_url, str(srv.options["database_url"]), "Berit", 1800)
    c = await player(srv.url, srv.ws_url, str(srv.options["database_url"]), "Carmen", 1520)
    d = await player(srv.url, srv.ws_url, str(srv.options["database_url"]), "Dora", 1790)
    for p in (a, b):
        await queue(p)
    # past the once-a-second look, short of the reach's widening: 300 apart is out of reach
    await asyncio.sleep(1.5)  # the subject: time in the queue
    for p in (a, b):
        await p.sync()  # a room sent till then has arrived
    assert not any(m["t"] == "room" for p in (a, b) for m in p.seen)
    await queue(c)  # in reach of Aino, the first to come: they are seated together
    ac = await seated_with(a)
    assert ac == await seated_with(c)
    assert ac == {"names": {"Aino", "Carmen"}, "rated": True, "ratings": [1500, 1520]}
    await queue(d)
    bd = await seated_with(b)
    assert bd == {"names": {"Berit", "Dora"}, "rated": True, "ratings": [1790, 1800]}


async def test_the_window_widens_with_the_wait(game_server):
    srv = game_server(quick_widen=50.0)  # the server's own widening (default 10 a second)
    a = await player(srv.url, srv.ws_url, str(srv.options["database_url"]), "Eha", 1500)
    b = await player(srv.url, srv.ws_url, str(srv.options["database_url"]), "Frida", 1650)
    start = time.monotonic()
    await queue(a)
    await queue(b)
    told = [m for m in a.seen if m["t"] == "queued"][-1]["window"]
    assert (told["widen"], told["open_after"]) == (50.0, 45.0)
    # 150 apart: within reach once the first has waited 2 s (50 + 50 x 2), by nobody new
    room = await seated_with(a, timeout=30)
    waited = time.monotonic() - start
    assert room["names"] == {"Eha", "Frida"} and room["rated"] is True
    assert 2.0 <= waited <= 6.0, waited


async def test_guests_are_paired_as_before(game_server):
    srv = game_server()
    r = await player(srv.url, srv.ws_url, str(srv.options["database_url"]), "Helve", 1500)
    g1, g2 = Client("Guest Ilmar"), Client("Guest Juta")
    for g in (g1, g2):
        await g.connect(srv.ws_url)
    r2 = await player(srv.url, srv.ws_url, str(srv.options["database_url"]), "Kersti", 1510)
    await queue(r)
    await queue(g1)  # a guest plays whoever waits: casual
    casual = await seated_with(g1)
    assert casual == {"names": {"Helve", "Guest Ilmar"}, "rated": False, "ratings": [1500]}
    await queue(g2)
    await queue(r2)
    assert (await seated_with(r2))["names"] == {"Guest Juta", "Kersti"}


async def test_the_pairing_spans_processes(game_cluster):
    one, two = game_cluster(2)
    a = await player(one.url, one.ws_url, str(one.options["database_url"]), "Liisa", 1500)
    b = await player(two.url, two.ws_url, str(two.options["database_url"]), "Mihkel", 1900)
    c = await player(two.url, two.ws_url, str(two.options["database_url"]), "Nele", 1490)
    for p in (a, b, c):
        await queue(p)
    room = await seated_with(a)
    assert room == {"names": {"Liisa", "Nele"}, "rated": True, "ratings": [1490, 1500]}
    assert room == await seated_with(c)
    assert not any(m["t"] == "room" for m in b.seen)


async def test_crokinole_by_its_own_rating(game_server):
    srv = game_server()
    url, ws, db_url = srv.url, srv.ws_url, str(srv.options["database_url"])
    # near in Novuss, far apart in Crokinole: Crokinole's rating decides
    a = await player(url, ws, db_url, "Olev", 1500, "crokinole-singles")
    b = await player(url, ws, db_url, "Piret", 1900, "crokinole-singles")
    c = await player(url, ws, db_url, "Rein", 1480, "crokinole-singles")
    for name in ("Olev", "Piret", "Rein"):
        await rate(db_url, name, 1500)
    for p in (a, b, c):
        await queue(p, "crokinole")
    room = await seated_with(a)
    assert room == {"names": {"Olev", "Rein"}, "rated": True, "ratings": [1480, 1500]}
    assert not any(m["t"] == "room" for m in b.seen)
