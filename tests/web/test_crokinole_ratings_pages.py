"""Per-game ratings in Chromium (docs/accounts.md, "Ratings"): after a rated Crokinole match
between two accounts, played over real websockets, the leaderboard's Crokinole board lists
them and Novuss's does not; the profile shows the Crokinole rating beside Novuss's two, its
chart line, and the match row names the game, without a replay link."""

from __future__ import annotations

import asyncio
import concurrent.futures
from typing import Any

import pytest

from tests.accounts.account_client import (
    browsers,
    each_side_strikes,
    resign_match,
    seat_pair,
    until,
)
from tests.server.server_client import close_all
from tests.server.test_crokinole_e2e import flick

# a server of its own: the leaderboard in full (exactly Ada and Ben)
pytestmark = pytest.mark.fresh_server

TIMEOUT_MS = 30_000


def rated_crokinole_match(url: str, ws_url: str) -> None:
    """Ada and Ben register and play a rated Crokinole match; Ben resigns. Back once both
    profiles show it archived."""

    async def play() -> None:
        ha, hb = await browsers(url, "Ada", "Ben")
        a, b = await ha.player(ws_url), await hb.player(ws_url)
        await seat_pair(ws_url, a, b, rated=True, game="crokinole")
        await each_side_strikes(a, b, strike=flick)
        await resign_match(b, a)

        async def rated() -> Any:
            _, p = await hb.get("/api/players/ben")
            return p if p["ratings"]["crokinole-singles"] else None

        await until(rated, timeout=60.0, what="Ben's Crokinole rating")
        await close_all(a, b)
        for h in (ha, hb):
            await h.close()

    with concurrent.futures.ThreadPoolExecutor(1) as pool:  # Playwright's sync API owns this thread
        pool.submit(asyncio.run, play()).result(timeout=120)


def test_the_pages_show_crokinole_ratings_apart(game_server, new_page):
    srv = game_server()
    rated_crokinole_match(srv.url, srv.ws_url)
    page = new_page()
    page.goto(f"{srv.url}/leaderboard#crokinole-singles")
    page.wait_for_selector("#board tbody tr", timeout=TIMEOUT_MS)
    assert page.locator("#board tbody tr td:nth-child(2)").all_inner_texts() == ["Ada", "Ben"]
    assert "primary" in (page.get_attribute("[data-mode=crokinole-singles]", "class") or "")
    page.click("[data-mode=singles]")
    page.wait_for_selector("#empty:not([hidden])")
    assert page.locator("#board tbody tr").count() == 0
    page.click("[data-mode=crokinole-7d]")
    page.wait_for_selector("#empty:not([hidden])")
    assert page.evaluate("location.hash") == "#crokinole-7d"

    page.goto(f"{srv.url}/u/Ada")
    page.wait_for_selector("#matches tbody tr", timeout=TIMEOUT_MS)
    ratings = page.inner_text("#ratings")
    assert "Singles: unrated" in ratings and "Doubles: unrated" in ratings
    assert "Crokinole singles: 1" in ratings  # a number, provisional
    page.wait_for_selector("#chart svg circle[data-mode=crokinole-singles]")
    row = page.inner_text("#matches tbody tr")
    assert "Crokinole singles · rated" in row and "Ben" in row and "win" in row
    # a Crokinole match replays since its shots carry a state hash (issue 31; none before)
    assert page.locator("#matches tbody tr a.replay-link").count() == 1
    # the language menu rewords the game's name
    page.select_option("#lang", "et")
    page.wait_for_selector("html[lang=et]")  # its catalog loaded (js/i18n.js)
    page.wait_for_function(
        "document.querySelector('#ratings').textContent.includes(\"Crokinole'i\")"
    )
