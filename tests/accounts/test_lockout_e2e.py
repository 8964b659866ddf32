"""A stranger cannot lock a player out (issue 37: 100 wrong passwords from 10 addresses, and
the owner, with the right password, from their own address, got 429 for 888 s). Where the
account logged in from lately (its address, its device cookie) the failures of all addresses
together do not count; a stranger is still refused past them. A name nobody has gets no
counter; a taken name at registration costs no hash and is counted, and an address past its
registrations is refused without asking Redis again."""

from __future__ import annotations

import pytest

from tests.accounts.account_client import PASSWORD, Http, as_bytes, db

pytestmark = pytest.mark.asyncio


async def test_strangers_failures_do_not_lock_the_owner_out(game_server):
    srv = game_server()
    owner = Http(srv.url, local_addr="127.0.0.1")
    await owner.register("Owner")
    assert "nv_device=" in " ".join(owner.set_cookies)
    strangers = [Http(srv.url, local_addr=f"127.0.3.{i + 1}") for i in range(10)]
    for s in strangers:  # 10 each: every address at its limit, 100 on the account
        for _ in range(10):
            assert (await s.login("owner", "wrong password guess"))[0] == 401
    # one more from a new address: the account-wide limit refuses even the right password
    late = Http(srv.url, local_addr="127.0.3.99")
    status, body = await late.login("owner")
    assert status == 429 and body["error"] == "throttled", body
    # the owner, from their own address, with their device cookie, logs in
    assert await owner.login("Owner") == (200, {"username": "Owner"})
    # and from their own address with a fresh browser (no device cookie) too
    fresh = Http(srv.url, local_addr="127.0.0.1")
    assert await fresh.login("Owner") == (200, {"username": "Owner"})
    for h in (owner, late, fresh, *strangers):
        await h.close()


@pytest.mark.fresh_server  # it reads every failure counter in Redis
async def test_unknown_names_get_no_counter_and_taken_names_are_counted(game_server):
    srv = game_server()
    r = db(str(srv.redis_url))
    h = Http(srv.url, local_addr="127.0.4.1")
    await h.register("Taken")
    for i in range(5):
        assert (await h.login(f"nobody{i}", "wrong password guess"))[0] == 401
    fails = sorted(as_bytes(k).decode() for k in r.scan_iter("nv:fail:*"))
    # the address's: failures, logins right or wrong, accounts made; none for a name
    assert fails == ["nv:fail:ip:127.0.4.1", "nv:fail:logins:127.0.4.1", "nv:fail:reg:127.0.4.1"]
    other = Http(srv.url, local_addr="127.0.4.2")
    for _ in range(10):  # the address's 10 accounts made in the window: taken names count
        status, body, _ = await other.post(
            "/api/account/register", {"username": "taken", "password": PASSWORD}
        )
        assert status == 409 and body["error"] == "name_taken"
    status, body, _ = await other.post(
        "/api/account/register", {"username": "Brandnew", "password": PASSWORD}
    )
    assert status == 429 and body["error"] == "throttled", body
    # known over its limit, the address is refused in the process until the window's end,
    # Redis not asked again (issue 37: two round trips per refusal were most of the loop's
    # work under the taken-names flood)
    counted = int(r.get("nv:fail:reg:127.0.4.2") or 0)
    for _ in range(5):
        status, body, answer = await other.post(
            "/api/account/register", {"username": "Brandnew", "password": PASSWORD}
        )
        assert status == 429 and body["error"] == "throttled", body
        assert 0 < int(answer.headers["Retry-After"]) <= 15 * 60
    assert int(r.get("nv:fail:reg:127.0.4.2") or 0) == counted
    for c in (h, other):
        await c.close()
