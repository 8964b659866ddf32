"""An open websocket ends with its login, on every process (docs/accounts.md, "When a login
ends"): logging out, logging out everywhere, changing the password and deleting the account
close the account's websockets at once with `logged_out` and the close code 4001; the other
devices' and the guests' stay open."""

from __future__ import annotations

import asyncio

import pytest

from server.accounts.logouts import LOGGED_OUT
from tests.accounts.account_client import PASSWORD, Http, seat_pair
from tests.server.server_client import Client

pytestmark = pytest.mark.asyncio

NEW_PASSWORD = "a different long phrase"


async def logged_out(c: Client) -> None:
    """c is told `logged_out`, then its socket is closed with code 4001."""
    err = await c.expect("error", timeout=10)
    assert err["code"] == "logged_out" and err["message"], err
    assert c.reader is not None and c.ws is not None
    await asyncio.wait_for(asyncio.shield(c.reader), 10)
    assert c.ws.close_code == LOGGED_OUT


async def still_open(c: Client) -> None:
    """c's socket still answers, as the account it was."""
    await c.send("ping", n=7)
    assert (await c.expect("pong", timeout=10))["n"] == 7
    assert c.ws is not None and not c.ws.closed


async def opened(h: Http, ws_url: str, origin: str, name: str = "Tab") -> Client:
    """A websocket opened with browser h's cookie from a page of `origin`; hello said."""
    c = Client(name)
    await c.open(ws_url, headers={"Origin": origin, "Cookie": h.cookie()})
    await c.hello()
    return c


async def test_each_way_a_login_ends_closes_its_sockets(game_server):
    srv = game_server()
    laptop = Http(srv.url)
    await laptop.register("Liis")
    phone, tablet = Http(srv.url), Http(srv.url)
    for h in (phone, tablet):
        assert (await h.login("Liis"))[0] == 200
    tab1, tab2 = await laptop.player(srv.ws_url), await laptop.player(srv.ws_url)
    on_phone, on_tablet = await phone.player(srv.ws_url), await tablet.player(srv.ws_url)
    assert {c.welcome["account"] for c in (tab1, tab2, on_phone, on_tablet)} == {"Liis"}
    guest = await Http(srv.url).player(srv.ws_url, name="Guest Gert")

    # log out on the laptop: both its tabs end, the other devices and the guest play on
    assert (await laptop.post("/api/account/logout"))[0] == 200
    await asyncio.gather(logged_out(tab1), logged_out(tab2))
    for c in (on_phone, on_tablet, guest):
        await still_open(c)
    # the laptop's page reconnects with its resume token: a guest now, in a new session
    again = Client("Laptop")  # a guest may not be called as the account is
    await again.open(srv.ws_url, headers={"Origin": srv.url})
    welcome = await again.hello(tab1.token)
    assert welcome["account"] is None and welcome["session"] != tab1.welcome["session"]

    # the password changed on the phone: the tablet's socket ends, the phone's stays
    got, body, _ = await phone.post(
        "/api/account/password", {"current": PASSWORD, "password": NEW_PASSWORD}
    )
    assert got == 200 and body["ended"] == 1
    await logged_out(on_tablet)
    await still_open(on_phone)

    # log out everywhere (from a page that opened no socket): the phone's ends too
    assert (await tablet.login("Liis", NEW_PASSWORD))[0] == 200
    assert (await tablet.post("/api/account/logout-all"))[0] == 200
    await logged_out(on_phone)
    await still_open(guest)

    # deleting an account ends its sockets
    doomed = Http(srv.url)
    await doomed.register("Maie")
    sock = await doomed.player(srv.ws_url)
    assert (await doomed.post("/api/account/delete", {"password": PASSWORD}))[0] == 200
    await logged_out(sock)
    await still_open(guest)


async def test_a_seated_player_logged_out_keeps_the_seat_the_grace_time(game_server):
    srv = game_server(grace_seconds=30)
    ha, hb = Http(srv.url), Http(srv.url)
    await ha.register("Anneli")
    await hb.register("Bruno")
    a, b = await ha.player(srv.ws_url), await hb.player(srv.ws_url)
    rid = await seat_pair(srv.ws_url, a, b, rated=True)
    assert (await ha.post("/api/account/logout"))[0] == 200
    await logged_out(a)
    # the opponent sees a dropped player whose seat waits the grace time (004 § 22 (3)), not
    # a resignation
    gone = await b.expect("gone", timeout=10, seat=0)
    assert gone["grace"] == 30
    assert b.result is None
    # logged in again within the grace time, the same session takes its seat back
    assert (await ha.login("Anneli"))[0] == 200
    back = Client("Anneli")
    await back.open(srv.ws_url, headers={"Origin": srv.url, "Cookie": ha.cookie()})
    welcome = await back.hello(a.token)
    assert welcome["account"] == "Anneli" and welcome["seat"] == {"room": rid, "seat": 0}
    assert welcome["session"] == a.welcome["session"]
    await b.expect("back", timeout=10, seat=0)


async def test_a_logout_on_one_process_closes_the_sockets_on_another(game_cluster):
    one, two = game_cluster(2)
    h = Http(one.url)
    await h.register("Kaja")
    here = await opened(h, one.ws_url, one.url, "Here")
    there = await opened(h, two.ws_url, two.url, "There")
    assert here.welcome["account"] == there.welcome["account"] == "Kaja"
    other = Http(two.url)
    await other.register("Peeter")
    bystander = await opened(other, two.ws_url, two.url, "Bystander")
    assert (await h.post("/api/account/logout-all"))[0] == 200
    await asyncio.gather(logged_out(here), logged_out(there))
    await still_open(bystander)
