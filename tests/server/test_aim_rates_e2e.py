"""Aim previews at two rates (server/net/aims.py, docs/protocol.md "aim"): the opponent up to
15 a second, the watchers at most 5, coalesced, always ending on the newest preview."""

from __future__ import annotations

import asyncio
import time

from server.net.aims import WATCHER_RATE
from tests.server.server_bot import choose_shot
from tests.server.test_server_match_e2e import watched_singles

AIMS = 40
PACE = 0.05  # 20 previews a second from the striker: more than either rate lets through


async def test_watchers_get_at_most_five_previews_a_second_and_end_on_the_newest(game_server):
    srv = game_server()
    striker, other, watchers, _ = await watched_singles(srv, "W1", "W2")
    started = time.monotonic()
    for i in range(AIMS):
        await striker.send("aim", x=500.0 + i, y=60.0, angle=1.5, power=0.5)
        await asyncio.sleep(PACE)  # the subject: the striker's pace
    newest = 500.0 + AIMS - 1
    await other.expect("aim", x=newest)
    for w in watchers:
        await w.expect("aim", x=newest)  # the newest always comes, at the watchers' turn
    took = time.monotonic() - started
    for w in watchers:
        await w.sync()  # nothing after the newest
        got = [m for m in w.seen if m["t"] == "aim"]
        assert got[-1]["x"] == newest, "the watchers end on the newest preview"
        assert [m["x"] for m in got] == sorted(m["x"] for m in got), "never an older one after"
        assert 2 <= len(got) <= took * WATCHER_RATE + 2, (len(got), took)
    opponent = [m for m in other.seen if m["t"] == "aim"]
    assert len(opponent) <= took * 15 + 2, (len(opponent), took)
    assert len(opponent) > took * WATCHER_RATE + 2, "the opponent gets them at his own rate"


async def test_a_preview_waiting_for_the_watchers_is_dropped_by_the_stroke(game_server):
    srv = game_server()
    striker, other, (w,), _ = await watched_singles(srv, "W")
    assert striker.room is not None and striker.seat is not None
    side = striker.sides[striker.seat]
    assert side is not None
    x, y, angle, speed = choose_shot(
        striker.discs, striker.seat, side, striker.room["table"], "singles"
    )
    await striker.send("aim", x=x, y=y, angle=angle, power=0.5)
    await w.expect("aim", x=x)
    await striker.send("aim", x=x, y=y, angle=angle, power=0.6)
    await other.expect("aim", power=0.6)  # through to the opponent; the watchers' waits
    await striker.send("strike", x=x, y=y, angle=angle, speed=speed)
    await w.expect("stroke")
    await w.expect("ruling")
    await w.sync()
    after = w.seen[next(i for i, m in enumerate(w.seen) if m["t"] == "stroke") :]
    assert not [m for m in after if m["t"] == "aim"], "no preview of an aim already struck"
