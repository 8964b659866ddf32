"""Accounts in the browser: register on the account page, play a rated match from the lobby
(ratings beside the names), resign it, and read both profiles (the match, the result, the
rating chart) and the leaderboard (docs/accounts.md)."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from playwright.sync_api import Page, expect

from tests.web.webtools import each_side_strikes, enter, server_room, wait_state

# a server of its own: the leaderboard in full, and names (Ada, Ben) other tests may take
pytestmark = pytest.mark.fresh_server

PASSWORD = "a fine long password"


def register(page: Page, base: str, name: str) -> None:
    """Register on /account and see the welcome."""
    page.goto(base + "/account")
    page.fill("#register-form input[name=username]", name)
    page.fill("#register-form input[name=password]", PASSWORD)
    page.click("#register-form button[type=submit]")
    page.wait_for_selector("#member:not([hidden])")
    assert name in page.inner_text("#message") and page.inner_text("#me") == name


def test_register_play_rated_and_read_the_profile(web_server, new_page):
    base = web_server
    ada, ben = new_page(), new_page()
    # a refusal is shown in words, and changes nothing
    ada.goto(base + "/account")
    ada.fill("#register-form input[name=username]", "Ada")
    ada.fill("#register-form input[name=password]", "short")
    ada.click("#register-form button[type=submit]")
    ada.wait_for_selector("#register-message:not([hidden])")
    assert "at least 10 characters" in ada.inner_text("#register-message")
    assert ada.is_hidden("#member")
    register(ada, base, "Ada")
    register(ben, base, "Ben")

    # the table's client plays as the account, asking no name (issue 36: a fresh browser
    # asked one, and ignored it); the header links to the profile
    ada.goto(base + "/")
    ada.wait_for_selector("#screen-lobby:not([hidden])")
    assert ada.inner_text("#me-name") == "Ada"
    assert ada.is_hidden("#screen-name") and ada.is_hidden("#rename")
    assert ada.get_attribute("#account-link", "href") == "/u/Ada"
    ada.check("input[name=rated]")
    ada.click("#create-btn")
    s = wait_state(ada, "s.screen === 'screen-room' && s.room.seats[0]")
    assert server_room(base, s["room"]["id"])["rated"] is True
    assert "rated game" in ada.inner_text("#room-title")  # the room says it is rated (issue 36)
    enter(ben, base, "Ben")
    ben.click(f"li[data-room='{s['room']['id']}'] button.primary")
    wait_state(ben, "s.screen === 'screen-room' && s.room.seats.every((x) => x)")
    assert "Ada (1500?)" in ben.inner_text(".seat0 .who")
    for page in (ada, ben):
        page.click("#ready-btn")
    for page in (ada, ben):
        wait_state(page, "s.screen === 'screen-match' && s.phase === 'play'")
    # the table's own rail names carry the ratings too, as the lobby and the waiting room
    names = wait_state(ben, "s.labels.filter((l) => l.what === 'name').length === 2")["labels"]
    shown = sorted(label["text"].removeprefix("▶ ") for label in names if label["what"] == "name")
    assert shown == ["Ada (1500?)", "Ben (1500?)"]
    assert "rated game" in ben.inner_text("#set-line")
    each_side_strikes(ada, ben)  # a match one side never played is rated for nobody
    ada.on("dialog", lambda d: d.accept())
    ada.click("#resign-btn")
    wait_state(ben, "s.phase === 'over'", timeout=30_000)
    # the result says how it was won, and (once the match is rated) the rating's change
    assert "by resignation" in ben.inner_text("#result-detail")
    ben.wait_for_selector("#result-rating:not([hidden])", timeout=30_000)
    assert re.fullmatch(r"Your rating: [\d,]+ \(\+\d+\)", ben.inner_text("#result-rating"))
    ada.wait_for_selector("#result-rating:not([hidden])", timeout=30_000)
    assert re.fullmatch(r"Your rating: [\d,]+ \(−\d+\)", ada.inner_text("#result-rating"))
    # going to "/" after the match: the lobby, not the old result (issue 36)
    ada.goto(base + "/")
    wait_state(ada, "s.screen === 'screen-lobby' && s.room === null")
    assert ada.is_hidden("#result")

    # Ben's profile: the match against Ada, won, and the rating chart
    ben.goto(base + "/u/Ben")
    ben.wait_for_selector("#matches tbody tr", timeout=15_000)
    row = ben.inner_text("#matches tbody tr")
    assert "Ada" in row and "win" in row and "rated" in row
    ben.wait_for_selector("#chart svg circle[data-mode=singles]")
    assert "Singles:" in ben.inner_text("#ratings") and "unrated" in ben.inner_text("#ratings")
    assert ben.inner_text("#figures tbody tr").split("\t")[:4] == ["Singles", "1", "1", "0"]
    # the leaderboard: Ben above Ada, links to the profiles
    ben.goto(base + "/leaderboard")
    ben.wait_for_selector("#board tbody tr")
    names = ben.locator("#board tbody tr td:nth-child(2)").all_inner_texts()
    assert names == ["Ben", "Ada"]
    ben.click("#board a:has-text('Ada')")
    ben.wait_for_selector("#matches tbody tr")
    assert "loss" in ben.inner_text("#matches tbody tr")


def test_logging_out_elsewhere_ends_the_tables_login_at_once(web_server, new_page):
    """The account page's log out (here: its API, from another tab of the same browser)
    closes the table's open websocket at once: the page says so in words and comes back as a
    guest, asked a name other than the account's (docs/accounts.md, "When a login ends")."""
    base = web_server
    page = new_page()
    register(page, base, "Cora")
    enter(page, base, "Cora")
    page.wait_for_selector("#screen-lobby:not([hidden])")
    assert page.get_attribute("#account-link", "href") == "/u/Cora"
    session = wait_state(page, "s.connected")["session"]
    other = page.context.new_page()
    other.goto(base + "/account")
    status = other.evaluate(
        """async () => (await fetch('/api/account/logout', {method: 'POST',
             headers: {'Content-Type': 'application/json'}, body: '{}'})).status"""
    )
    assert status == 200
    page.wait_for_selector("#toast:not([hidden])")
    assert "logged out" in page.inner_text("#toast")
    # a guest now, who may not be called Cora (issue 37): the page asks for a name, saying why
    page.wait_for_selector("#name-error:not([hidden])")
    assert "registered player" in page.inner_text("#name-error")
    page.fill("#name-input", "Cora's friend")
    page.click("#name-form button[type=submit]")
    wait_state(page, f"s.connected && s.session && s.session !== '{session}'")
    page.wait_for_function("document.querySelector('#account-link').getAttribute('href') === "
                           "'/account'")  # fmt: skip
    assert page.inner_text("#me-name") == "Cora's friend"


def test_a_players_own_private_matches_are_on_his_profile(web_server, new_page):
    """Issue 36, 5: a private match was counted in the figures but listed nowhere; now its
    players see it on their own profile (with its record), and nobody else does."""
    base = web_server
    # Dora's browser is British: dates day first, in 24 hours (issue 36: US forms under en-GB)
    dora, eino = new_page(locale="en-GB", timezone_id="UTC"), new_page()
    register(dora, base, "Dora")
    register(eino, base, "Eino")
    enter(dora, base, "Dora")
    dora.wait_for_selector("#screen-lobby:not([hidden])")
    dora.check("input[name=private]")
    dora.click("#create-btn")
    dora.wait_for_selector("#invite-box:not([hidden])")
    eino.goto(dora.input_value("#invite-link"))  # logged in: no name asked
    for page in (dora, eino):
        wait_state(page, "s.screen === 'screen-room' && s.room.seats.every((x) => x)")
        page.click("#ready-btn")
    for page in (dora, eino):
        wait_state(page, "s.screen === 'screen-match' && s.phase === 'play'")
    dora.on("dialog", lambda d: d.accept())
    dora.click("#resign-btn")
    wait_state(eino, "s.phase === 'over'", timeout=30_000)

    dora.goto(base + "/u/Dora")
    dora.wait_for_selector("#private-section:not([hidden])", timeout=30_000)
    row = dora.inner_text("#private-matches tbody tr")
    assert "Eino" in row and "loss" in row
    today = datetime.now(UTC)
    assert re.match(rf"{today.day} {today:%b} {today.year}, \d\d:\d\d\t", row), row
    assert dora.is_visible("#no-matches")  # the public list has none
    dora.click("#private-matches tbody tr a")  # its record opens without the invite
    dora.wait_for_selector("#screen-record:not([hidden])", timeout=15_000)
    # the record page: a logged-in player's header links to his profile, not "log in"
    expect(dora.locator("#account-link")).to_have_attribute("href", "/u/Dora")
    expect(dora.locator("#record-summary")).to_contain_text(f"{today:%d/%m/%Y}, ")
    # Eino, on Dora's profile, sees no private section
    eino.goto(base + "/u/Dora")
    eino.wait_for_selector("#figures tbody tr", timeout=15_000)
    assert eino.is_hidden("#private-section")
