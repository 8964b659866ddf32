"""A private rated match moves the ratings, but the public profile's rating history names no
match of it and says only its day (issue 37: private matches' ids and times were public)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.accounts.account_client import browsers, each_side_strikes, resign_match, until

pytestmark = pytest.mark.asyncio


async def test_a_private_rated_match_is_not_named_in_the_public_history(game_server):
    srv = game_server()
    ha, hb = await browsers(srv.url, "Wiljar", "Xenia")
    a, b = await ha.player(srv.ws_url), await hb.player(srv.ws_url)
    await a.send("create", mode="singles", sets=1, clock=60, private=True, rated=True)
    room = await a.expect("room")
    await b.send("join", invite=room["invite"])
    await b.expect("room", you={"role": "player", "seat": 1})
    for c in (a, b):
        await c.send("ready", ready=True)
    for c in (a, b):
        while c.room is None or c.room["match"] is None:
            await c.expect("room")
    await each_side_strikes(a, b)
    mid = await resign_match(b, a)

    async def rated() -> dict[str, Any] | None:
        _, p = await ha.get("/api/players/wiljar")
        return p if p["ratings"]["singles"] else None

    profile = await until(rated, what="Wiljar's rating")
    (point,) = profile["history"]["singles"]
    assert point["rating"] == profile["ratings"]["singles"]["rating"] > 1500
    assert point["match"] is None and point["at"] % 86400 == 0
    assert mid not in str(profile)
    for h in (ha, hb):
        await h.close()
