"""A quick match says its terms before it starts (issue 36): in the lobby, once queued, a
logged-in player reads that it is rated and the ratings in reach at once (a new account's
1500 ± 50: "rated, opponents about 1450–1550"), a guest that it is unrated; in Estonian too
(docs/protocol.md, `queued`; docs/accounts.md, "Quick match by rating")."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.web.test_client_accounts import register
from tests.web.webtools import enter

# a server of its own: a quick-match queue of this test's players only; a name (Ada)
pytestmark = pytest.mark.fresh_server


def test_the_quick_match_says_rated_and_the_range_or_unrated(web_server, new_page):
    base = web_server
    ada, gus = new_page(), new_page()
    register(ada, base, "Ada")
    ada.goto(base + "/")
    ada.wait_for_selector("#screen-lobby:not([hidden])")
    ada.select_option("#quick-computer", "0")  # nobody comes: she stays queued
    ada.click("#quick-singles")
    expect(ada.locator("#quick-status")).to_contain_text("rated, opponents about 1450–1550")
    # a guest queued (for doubles: a guest would be seated with Ada at once in singles)
    enter(gus, base, "Gus")
    gus.wait_for_selector("#screen-lobby:not([hidden])")
    gus.select_option("#quick-computer", "0")
    gus.click("#quick-doubles")
    expect(gus.locator("#quick-status")).to_contain_text("unrated")
    assert "opponents" not in gus.inner_text("#quick-status")
    # the words follow the language menu
    ada.select_option("#lang", "et")
    expect(ada.locator("#quick-status")).to_contain_text("reitinguga, vastased umbes 1450–1550")
    for page in (ada, gus):
        page.click("#quick-cancel")
        expect(page.locator("#quick-status")).to_be_empty()
