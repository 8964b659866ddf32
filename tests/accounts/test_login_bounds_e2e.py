"""Logging in with the right password, again and again, is bounded (attacker review,
2026-11-28: every login without a device cookie stored a login for 30 days and a trust key
in Redis for 30 days, and cost a password hash, without a limit but the HTTP budget): an
address has a budget of logins, right or wrong; an account keeps its last LOGINS_MAX logins
and its newest TRUST_MAX trusted marks."""

from __future__ import annotations

import pytest

from server.accounts.store import LOGINS_MAX, TRUST_MAX
from tests.accounts.account_client import Http, db
from tests.pg import rows

pytestmark = pytest.mark.asyncio


@pytest.mark.fresh_server  # its own budget of logins per address
async def test_an_address_past_its_logins_is_refused_even_with_the_right_password(game_server):
    srv = game_server(logins_per_address=5)
    await (owner := Http(srv.url, local_addr="127.0.6.1")).register("Looper")
    for _ in range(5):
        again = Http(srv.url, local_addr="127.0.6.1")
        assert await again.login("Looper") == (200, {"username": "Looper"})
        await again.close()
    late = Http(srv.url, local_addr="127.0.6.1")
    status, body = await late.login("Looper")
    assert status == 429 and body["error"] == "throttled", body
    assert body["params"]["retry_after"] > 0
    elsewhere = Http(srv.url, local_addr="127.0.6.2")  # another address has its own budget
    assert await elsewhere.login("Looper") == (200, {"username": "Looper"})
    for h in (owner, late, elsewhere):
        await h.close()


async def test_an_account_keeps_its_last_logins_and_its_newest_trusted_marks(game_server):
    srv = game_server()
    await (first := Http(srv.url, local_addr="127.0.6.3")).register("Keeper")
    browsers = [first]
    for _ in range(max(LOGINS_MAX, TRUST_MAX) + 4):  # a fresh browser: a new device, a login
        h = Http(srv.url, local_addr="127.0.6.3")
        assert await h.login("Keeper") == (200, {"username": "Keeper"})
        browsers.append(h)
    url = str(srv.options["database_url"])
    (uid,) = [r["uid"] for r in await rows(url, "SELECT uid FROM accounts WHERE name = 'Keeper'")]
    kept = await rows(url, f"SELECT hash FROM logins WHERE uid = '{uid}'")
    assert len(kept) == LOGINS_MAX
    assert await browsers[-1].me() == "Keeper", "the newest login stays"
    assert await first.me() is None, "the oldest, never used again, is gone"
    marks = db(str(srv.redis_url)).zcard("nv:trust:{" + uid + "}")
    assert marks == TRUST_MAX, "one address and the newest devices, not a key a login"
    for h in browsers:
        await h.close()
