"""Accounts through real HTTP and websockets against a real server and Redis: registration's
rules and errors, the cookie, login throttling, the Origin check, logging out, the websocket
seated as the account (docs/accounts.md)."""

from __future__ import annotations

import aiohttp
import pytest

from tests.accounts.account_client import PASSWORD, Http, as_bytes, db
from tests.pg import rows

pytestmark = pytest.mark.asyncio


async def test_registration_rules_and_their_errors(game_server):
    srv = game_server()
    h = Http(srv.url)
    cases = [
        ({"username": "ab", "password": PASSWORD}, 400, "bad_username", "length"),
        ({"username": "Jüri", "password": PASSWORD}, 400, "bad_username", "characters"),
        ({"username": "admin", "password": PASSWORD}, 400, "bad_username", "reserved"),
        ({"username": "Mari", "password": "short"}, 400, "weak_password", "too_short"),
        ({"username": "Mari", "password": "1234567890"}, 400, "weak_password", "common"),
        ({"username": "Mari", "password": "mari is my name"}, 400, "weak_password", "has_name"),
    ]
    for body, status, code, reason in cases:
        got, answer, _ = await h.post("/api/account/register", body)
        assert (got, answer["error"], answer["reason"]) == (status, code, reason), body
        assert answer["message"]
    await h.register("Mari")
    # the same name in another case is taken; the first account is untouched
    other = Http(srv.url)
    got, answer, _ = await other.post(
        "/api/account/register", {"username": "MARI", "password": "another fine password"}
    )
    assert got == 409 and answer["error"] == "name_taken"
    assert await other.login("mari") == (200, {"username": "Mari"})
    assert (await other.login("mari", "another fine password"))[0] == 401
    # a body that is not JSON, or not a map
    got, answer, _ = await h.post("/api/account/register", headers={"Content-Type": "text/plain"})
    assert got == 400
    for c in (h, other):
        await c.close()


async def test_login_cookie_flags_and_nothing_secret_stored(game_server):
    srv = game_server(trusted_proxy="127.0.0.2")
    h = Http(srv.url)
    await h.register("Kalle")
    # the login, and the device (issue 37: where the account logs in from is trusted)
    (cookie,) = [c for c in h.set_cookies if c.startswith("nv_login=")]
    (device,) = [c for c in h.set_cookies if c.startswith("nv_device=")]
    assert len(h.set_cookies) == 2
    for each in (cookie, device):
        flags = {p.strip().split("=")[0].lower() for p in each.split(";")}
        assert {"httponly", "path", "max-age"} <= flags and "samesite=lax" in each.lower()
        assert "secure" not in flags  # plain http, no trusted proxy saying https
    token = cookie.split(";")[0].split("=", 1)[1]
    # a wrong name and a wrong password read the same
    wrong_pw = await Http(srv.url).login("Kalle", "not the password at all")
    wrong_name = await Http(srv.url).login("Nobody", PASSWORD)
    assert wrong_pw == wrong_name == (401, wrong_pw[1]) and wrong_pw[1]["error"] == "bad_login"
    # through a trusted proxy that says https, the cookie is Secure; from anybody else the
    # header is not believed
    for addr, secure in (("127.0.0.2", True), ("127.0.0.3", False)):
        p = Http(srv.url, local_addr=addr)
        got, _, r = await p.post(
            "/api/account/login", {"username": "kalle", "password": PASSWORD},
            headers={"X-Forwarded-Proto": "https"},
        )  # fmt: skip
        assert got == 200
        for each in r.headers.getall("Set-Cookie"):
            assert ("secure" in each.lower().split("; ")) is secure, addr
        await p.close()
    # neither the password nor the token is anywhere in Redis, keys or values
    stored = db(srv.redis_url)
    for key in stored.keys("*"):
        assert token.encode() not in key and PASSWORD.encode() not in key
        kind = stored.type(key)
        values = (
            [stored.get(key)] if kind == b"string"
            else list(stored.hgetall(key).values()) if kind == b"hash"
            else list(stored.smembers(key)) if kind == b"set" else []
        )  # fmt: skip
        for v in values:
            assert token.encode() not in as_bytes(v) and PASSWORD.encode() not in as_bytes(v), key
    # nor in PostgreSQL: the accounts keep an argon2id hash, the logins their token's SHA-256
    url = str(srv.options["database_url"])
    for table in ("accounts", "logins"):
        for row in await rows(url, f"SELECT * FROM {table}"):
            text = repr(dict(row))
            assert token not in text and PASSWORD not in text, table
            assert token.encode() not in b"".join(v for v in row.values() if isinstance(v, bytes))
    assert token not in srv.log() and PASSWORD not in srv.log()
    await h.close()


async def test_login_throttled_per_account_and_address_then_per_address(game_server):
    srv = game_server()
    await (await_register := Http(srv.url)).register("Target")
    await await_register.close()
    attacker = Http(srv.url, local_addr="127.0.0.5")
    for _ in range(10):
        assert (await attacker.login("target", "wrong password guess"))[0] == 401
    status, body, r = await attacker.post(
        "/api/account/login", {"username": "target", "password": PASSWORD}
    )
    # throttled: even the right password is refused, with when to try again
    assert status == 429 and body["error"] == "throttled"
    assert 0 < int(r.headers["Retry-After"]) <= 900 and body["params"]["retry_after"] > 0
    # the owner, from another address, is not locked out by the stranger
    owner = Http(srv.url, local_addr="127.0.0.6")
    assert await owner.login("Target") == (200, {"username": "Target"})
    # one address trying many accounts: 50 failures, then refused whatever the account
    sprayer = Http(srv.url, local_addr="127.0.0.7")
    for i in range(50):
        assert (await sprayer.login(f"user{i}", "wrong password guess"))[0] == 401
    assert (await sprayer.login("Target"))[0] == 429
    for c in (attacker, owner, sprayer):
        await c.close()


async def test_a_foreign_origin_is_refused_and_changes_nothing(game_server):
    srv = game_server(allowed_origins="https://friends.example")
    foreign = Http(srv.url, origin="https://evil.example")
    got, body, _ = await foreign.post(
        "/api/account/register", {"username": "Victim", "password": PASSWORD}
    )
    assert got == 403 and body["error"] == "foreign_origin"
    assert (await Http(srv.url).login("Victim"))[0] == 401  # no account was made
    # a logged-in player's cookie sent from another site's page changes nothing
    me = Http(srv.url)
    await me.register("Victim")
    for path, body in (
        ("/api/account/password", {"current": PASSWORD, "password": "hijacked password x"}),
        ("/api/account/delete", {"password": PASSWORD}),
        ("/api/account/logout-all", {}),
    ):
        got, answer, _ = await me.post(path, body, headers={"Origin": "https://evil.example"})
        assert got == 403 and answer["error"] == "foreign_origin", path
    assert await me.me() == "Victim"
    assert (await Http(srv.url).login("Victim"))[0] == 200
    # the websocket: refused before the upgrade, with the cookie or without
    for headers in ({"Origin": "https://evil.example", "Cookie": me.cookie()},
                    {"Origin": "null"}):  # fmt: skip
        async with aiohttp.ClientSession() as s:
            with pytest.raises(aiohttp.WSServerHandshakeError) as e:
                await s.ws_connect(srv.ws_url, headers=headers)
            assert e.value.status == 403
    # an allowed origin and the server's own are let in
    friend = Http(srv.url, origin="https://friends.example")
    await friend.register("Friend")
    c = await friend.player(srv.ws_url)
    assert c.welcome["account"] == "Friend"
    for x in (foreign, me, friend):
        await x.close()


async def test_the_websocket_plays_as_the_account_and_guests_as_before(game_server):
    srv = game_server()
    h = Http(srv.url)
    await h.register("Leida")
    a = await h.player(srv.ws_url, name="Whatever I type")
    assert a.welcome["name"] == "Leida" and a.welcome["account"] == "Leida"
    guest = await Http(srv.url).player(srv.ws_url, name="Guest Gert")
    assert guest.welcome["name"] == "Guest Gert" and guest.welcome["account"] is None
    await a.send("create", mode="singles", sets=1, clock=60, private=False)
    room = await a.expect("room")
    seat = room["seats"][0]
    assert (seat["name"], seat["registered"], seat["rating"], seat["provisional"]) == (
        "Leida", True, 1500, True,
    )  # fmt: skip
    await guest.send("join", room=room["id"])
    room = await guest.expect("room", you={"role": "player", "seat": 1})
    assert room["seats"][1]["registered"] is False and room["seats"][1]["rating"] is None
    await guest.send("lobby", on=True)
    lobby = await guest.expect("lobby")
    (summary,) = lobby["rooms"]
    assert [p["registered"] for p in summary["players"]] == [True, False]
    assert summary["rated"] is False
    # the account's session is not resumed by a connection without the cookie
    stranger = await Http(srv.url).player(srv.ws_url, name="Thief", token=a.token)
    assert stranger.welcome["session"] != a.welcome["session"]
    assert stranger.welcome["seat"] is None
    await h.close()


async def test_logout_everywhere_and_change_password(game_server):
    srv = game_server()
    first = Http(srv.url)
    await first.register("Peeter")
    second, third = Http(srv.url), Http(srv.url)
    for h in (second, third):
        assert (await h.login("Peeter"))[0] == 200
    # a new password ends every other login, keeps this one
    got, body, _ = await first.post(
        "/api/account/password", {"current": "wrong one entirely", "password": "new password 77"}
    )
    assert got == 401 and body["error"] == "bad_login"
    got, body, _ = await first.post(
        "/api/account/password", {"current": PASSWORD, "password": "new password 77"}
    )
    assert got == 200 and body["ended"] == 2
    assert (await first.me(), await second.me(), await third.me()) == ("Peeter", None, None)
    assert (await Http(srv.url).login("Peeter"))[0] == 401
    assert (await second.login("Peeter", "new password 77"))[0] == 200
    # log out everywhere: every login ends, this one too
    got, body, _ = await second.post("/api/account/logout-all")
    assert got == 200 and body["ended"] == 2
    assert (await first.me(), await second.me()) == (None, None)
    # a websocket opened with an ended login plays as a guest
    c = await first.player(srv.ws_url, name="Guest now")
    assert c.welcome["account"] is None
    for h in (first, second, third):
        await h.close()
