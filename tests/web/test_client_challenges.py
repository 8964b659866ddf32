"""Challenges and the tab's notice in the browser (docs/client.md, "Challenges and notices"):
two registered players, one challenges the other by name from the lobby with the room's
settings, the other sees it (with those settings) and accepts, and the match starts once both
are ready; a refusal is worded under the form; while a tab is hidden its title says what
waits for the player (a challenge, their turn, their competition match), and comes back when
it is shown; a browser notification only after the player turned them on, the browser asked
on that click alone; a competition's page in the background waits to be seen before it takes
the player to the table."""

from __future__ import annotations

import secrets

from playwright.sync_api import Page

from tests.web.test_client_a11y import serious
from tests.web.test_client_accounts import register
from tests.web.test_client_tournament import (
    join_all,
    new_competition,
    open_registration,
    to_the_table,
)
from tests.web.webtools import server_room, wait_state

TITLE = "Novuss online"
# a Notification that records, standing in for the browser's (whose prompt a test cannot
# answer): asked how often, and what it showed
FAKE_NOTIFICATION = """
  window.__notes = { asked: 0, shown: [] };
  window.Notification = class {
    constructor(title) { window.__notes.shown.push(title); }
    static requestPermission() {
      window.__notes.asked += 1;
      window.Notification.permission = "granted";
      return Promise.resolve("granted");
    }
  };
  window.Notification.permission = "default";
"""


def unique(name: str) -> str:
    """A username no other test on a shared server took."""
    return f"{name}{secrets.token_hex(2)}"


def to_lobby(page: Page, base: str) -> None:
    page.goto(base + "/")
    page.wait_for_selector("#screen-lobby:not([hidden]) #challenge-form:not([hidden])")


def challenge(page: Page, name: str, sets: str = "1", rated: bool = False) -> None:
    page.fill("input[name=chal_to]", name)
    page.select_option("select[name=chal_sets]", sets)
    if rated:
        page.check("input[name=chal_rated]")
    page.click("#challenge-send")


def set_hidden(page: Page, hidden: bool) -> None:
    """The tab goes to the background (or comes back), as the browser tells a page."""
    page.evaluate(
        """hidden => {
            const state = hidden ? "hidden" : "visible";
            for (const [key, value] of [["hidden", hidden], ["visibilityState", state]])
              Object.defineProperty(document, key, { configurable: true, get: () => value });
            document.dispatchEvent(new Event("visibilitychange"));
        }""",
        hidden,
    )


def test_a_challenge_from_sending_to_the_matchs_start(web_server, new_page):
    base = web_server
    ada, ben = new_page(), new_page()
    a_name, b_name = unique("Ada"), unique("Ben")
    register(ada, base, a_name)
    register(ben, base, b_name)
    to_lobby(ada, base)
    # a refusal is worded under the form, in the page's language
    challenge(ada, unique("Nobody"))
    ada.wait_for_selector("#challenge-error:not([hidden])")
    assert ada.inner_text("#challenge-error") == "There is no registered player of that name."
    challenge(ada, b_name)  # not online yet
    ada.wait_for_selector("#challenge-error:has-text('not online')")
    to_lobby(ben, base)
    challenge(ada, b_name.lower(), sets="2", rated=True)
    ada.wait_for_selector(f"#challenge-status:has-text('{b_name}')")
    assert ada.is_hidden("#challenge-error") and ada.is_visible("#challenge-cancel")
    card = ben.wait_for_selector("#challenges:not([hidden]) li.challenge")
    text = card.inner_text()
    assert f"{a_name} challenges you" in text, text
    assert "Novuss · Singles · 2 sets · 30 s stroke clock · rated" in text, text
    assert "left" in text
    # both sides on screen, the form and the challenge waiting: nothing serious for axe-core
    assert serious(ada) == [] and serious(ben) == []
    ben.click("#challenges .chal-accept")
    for page in (ada, ben):
        s = wait_state(page, "s.screen === 'screen-room' && s.room.seats.every((x) => x)")
        assert [x["name"] for x in s["room"]["seats"]] == [a_name, b_name]
    settings = server_room(base, s["room"]["id"])
    assert (settings["sets"], settings["clock"], settings["rated"]) == (2, 30, True)
    assert ada.inner_text("#challenge-status") == "" and ben.is_hidden("#challenges")
    for page in (ada, ben):
        page.click("#ready-btn")
    for page in (ada, ben):
        wait_state(page, "s.screen === 'screen-match' && s.phase === 'play'")


def test_a_hidden_tab_says_what_waits_and_notifies_once_allowed(web_server, new_page):
    base = web_server
    ada, ben = new_page(), new_page()
    ben.add_init_script(FAKE_NOTIFICATION)
    a_name, b_name = unique("Ada"), unique("Ben")
    register(ada, base, a_name)
    register(ben, base, b_name)
    to_lobby(ada, base)
    to_lobby(ben, base)
    assert ben.evaluate("window.__notes.asked") == 0  # never asked on load
    ben.wait_for_selector("#notify:not([hidden])")
    assert ben.inner_text("#notify") == "notify me"
    ben.click("#notify")  # the player's click: the browser asks now
    ben.wait_for_selector("#notify[aria-pressed=true]")
    assert ben.evaluate("window.__notes.asked") == 1
    set_hidden(ben, True)
    challenge(ada, b_name)
    ben.wait_for_function(f"document.title === '(!) {a_name} challenges you — {TITLE}'")
    assert ben.evaluate("window.__notes.shown") == [f"{a_name} challenges you"]
    set_hidden(ben, False)
    ben.wait_for_function(f"document.title === '{TITLE}'")
    ben.click("#challenges .chal-accept")
    for page in (ada, ben):
        wait_state(page, "s.screen === 'screen-room' && s.room.seats.every((x) => x)")
        page.click("#ready-btn")
    s = wait_state(ben, "s.screen === 'screen-match' && s.phase === 'play'")
    # the player to strike first looks away; the other one's tab says nothing
    first, other = (ada, ben) if s["turn"] == 0 else (ben, ada)
    for page in (first, other):
        set_hidden(page, True)
    first.wait_for_function(f"document.title === '(!) Your turn — {TITLE}'")
    assert other.evaluate("document.title") == TITLE
    set_hidden(first, False)
    first.wait_for_function(f"document.title === '{TITLE}'")


def test_a_hidden_competition_page_says_the_match_is_ready_and_goes_once_shown(
    web_server, new_page
):
    base = web_server
    org, pia, pete = new_page(), new_page(), new_page()
    names = [unique(n) for n in ("Orga", "Pia", "Pete")]
    for page, name in zip((org, pia, pete), names, strict=True):
        register(page, base, name)
    url = new_competition(org, base, "Evening cup")
    open_registration(org)
    join_all(org, url, (pia, pete))
    title = pia.title()
    set_hidden(pia, True)  # Pia looks at another tab
    org.click("#start")
    pia.wait_for_function(
        f"document.title === '(!) Your tournament match is ready — {title}'", timeout=20_000
    )
    assert pia.url == url  # not taken away unseen
    to_the_table(pete, names[2])  # Pete's page, in front, goes at once
    set_hidden(pia, False)
    to_the_table(pia, names[1])


def test_a_hidden_crokinole_tab_says_whose_turn_it_is(web_server, new_page):
    host, guest = new_page(), new_page()
    host.goto(web_server + "/crokinole/")
    host.wait_for_function(
        "window.crokinole && document.querySelector('#status').dataset.state === 'open'"
    )
    title = host.title()
    host.click("#create")
    host.wait_for_function("window.crokinole.room && window.crokinole.board")
    room = host.evaluate("window.crokinole.room.id")
    guest.goto(f"{web_server}/crokinole/?room={room}")
    guest.wait_for_function(
        "window.crokinole && window.crokinole.room && window.crokinole.seat === 1"
    )
    for page in (host, guest):
        set_hidden(page, True)
        page.click("#ready")
    host.wait_for_function("window.crokinole.phase === 'play'")
    turn = host.evaluate("window.crokinole.turn")
    first, other = (host, guest) if turn == 0 else (guest, host)
    first.wait_for_function(f"document.title === '(!) Your turn — {title}'")
    other.wait_for_function("window.crokinole.phase === 'play'")
    assert other.title() == title
    set_hidden(first, False)
    first.wait_for_function(f"document.title === '{title}'")
