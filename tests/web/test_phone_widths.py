"""Every page on a phone (issue 34, docs/client.md "The phone"): at 360 and 390 CSS px wide,
with a phone's touch and viewport, no page scrolls sideways (the document no wider than the
screen), each reached with real content: the lobby with another player's open room, the
waiting room, the table against the computer, a finished match's record and its replay, a
member's profile, a competition's page. The header folds into a menu opened by its button,
closed by Escape (the focus back on the button) or by a choice made in it; axe-core finds
nothing serious in the lobby with it open."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.web.test_client_a11y import serious
from tests.web.test_client_accounts import register
from tests.web.test_replay_viewer import play_short_match
from tests.web.webtools import enter, wait_state

# a server of its own: a name (Orga) other tests take
pytestmark = pytest.mark.fresh_server

WIDTHS = (360, 390)
TIMEOUT = 30_000
# how much wider than the screen the document is, and the elements that stick out, to say why
OVERFLOW = """() => {
  const root = document.documentElement, width = root.clientWidth;
  const out = [...document.querySelectorAll("body *")]
    .filter((e) => e.getBoundingClientRect().right > width + 0.5 && e.getClientRects().length)
    .slice(0, 6)
    .map((e) => `${e.tagName}#${e.id}.${e.className} ${e.getBoundingClientRect().right}`);
  return { scroll: root.scrollWidth, client: width, out };
}"""


def fits(page: Page, what: str) -> None:
    """No sideways scroll: the document's scroll width within its client width."""
    o: dict[str, Any] = page.evaluate(OVERFLOW)
    assert o["scroll"] <= o["client"], f"{what}: {o}"


def phone(new_page: Any, width: int) -> Page:
    page: Page = new_page(viewport=(width, 780), scale=2, is_mobile=True, has_touch=True)
    return page


def test_every_page_fits_a_phone_without_sideways_scroll(game_server, new_page):
    srv = game_server(speed_factor=25)
    base = srv.url
    mid = play_short_match(srv.ws_url, 1)
    org = new_page()
    register(org, base, "Orga")  # a member: a profile, and the organiser of a competition
    org.goto(base + "/tournaments")
    org.locator("#create input[name=name]").fill("Spring cup at the club")
    org.locator("#create input[name=sets]").fill("1")
    org.locator("#create button[type=submit]").click()
    org.wait_for_url(re.compile(r"/tournaments/t[0-9a-f]+$"))
    competition = org.url.removeprefix(base)
    host = new_page()
    enter(host, base, "Host with a rather long name")
    host.click("#create-btn")  # an open room in everybody's lobby
    host.wait_for_selector("#screen-room:not([hidden])")

    pages = [
        ("/account", "#register-form"),
        ("/leaderboard", "#board"),
        ("/u/Orga", "#username:text('Orga')"),
        (f"/?match={mid}", "#record-log li"),
        (f"/m/{mid}", "#replay-title:text('Anu v Boris')"),
        ("/tournaments", "#list tbody tr"),
        (competition, "#status:not(:empty)"),
        ("/rules.html#p-21-1", "body[data-ready='1']"),
        ("/learn", "#lesson-list li"),
    ]
    for width in WIDTHS:
        page = phone(new_page, width)
        page.goto(base)
        page.wait_for_selector("#screen-name:not([hidden])")
        fits(page, f"the name form at {width}")
        enter(page, base, "Ann")
        page.wait_for_selector("#open-rooms li")
        fits(page, f"the lobby at {width}")
        header_folds(page, width)
        page.click("#create-btn")
        page.wait_for_selector("#screen-room:not([hidden])")
        fits(page, f"the waiting room at {width}")
        page.click("#room-leave")
        page.wait_for_selector("#screen-lobby:not([hidden])")
        page.click("#computer-details summary")
        page.click("#computer-play")
        wait_state(page, "s.screen === 'screen-match' && s.phase !== null")
        fits(page, f"the table at {width}")
        for path, ready in pages:
            page.goto(base + path)
            page.wait_for_selector(ready, state="attached", timeout=TIMEOUT)
            fits(page, f"{path} at {width}")
            if page.locator("#menu-button").count():
                expect(page.locator("#menu-button")).to_be_visible()
        # a Crokinole room of one's own (the lobby sends its player to its page); another
        # player, the first being still seated at the computer's table
        cro = phone(new_page, width)
        enter(cro, base, "Cora")
        cro.wait_for_selector("#screen-lobby:not([hidden])")
        cro.check("#create-form input[name=game][value=crokinole]")
        cro.click("#create-btn")
        cro.wait_for_url(re.compile(r"/crokinole/\?room="))
        cro.wait_for_selector("canvas")
        fits(cro, f"a Crokinole room at {width}")


def header_folds(page: Page, width: int) -> None:
    """The lobby's header at a phone's width: its links folded into the menu, which opens by
    its button, fits the screen, and closes by Escape and by a choice made in it."""
    button = page.locator("#menu-button")
    link = page.locator("#topbar-menu a[href='/leaderboard']")
    expect(button).to_be_visible()
    expect(button).to_have_attribute("aria-expanded", "false")
    expect(link).to_be_hidden()
    expect(page.locator("#conn")).to_be_visible()  # the connection's state is never folded
    button.click()
    expect(button).to_have_attribute("aria-expanded", "true")
    expect(link).to_be_visible()
    fits(page, f"the lobby's open menu at {width}")
    assert not serious(page), "axe-core: the lobby with its menu open"
    assert page.evaluate("document.activeElement.closest('#topbar-menu') !== null")  # in the menu
    page.keyboard.press("Escape")
    expect(button).to_have_attribute("aria-expanded", "false")
    expect(link).to_be_hidden()
    assert page.evaluate("document.activeElement.id") == "menu-button"
    page.keyboard.press("Enter")  # the keyboard opens it too
    expect(button).to_have_attribute("aria-expanded", "true")
    page.locator("#sound").click()  # a choice made: the menu closes
    expect(button).to_have_attribute("aria-expanded", "false")
    page.locator("#sound").evaluate("b => b.click()")  # the sound as it was
