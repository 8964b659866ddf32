"""The explanation for those not striking (issue 19): the other player and a watcher press a
puck and the table says whether the player to strike may strike it directly now and why,
with its paragraph (004 § 21 (1), § 24 (1) 2)), by mouse and by the keyboard's puck list, in
their language; the rulings and their "why" reach the watcher too."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

from tests.web.test_client_aiming import quick_pair
from tests.web.webtools import page_xy, state, wait_state

TIMEOUT = 30_000


def press(page: Page, disc: dict[str, Any]) -> dict[str, Any]:
    """Click a puck on a page where someone else is to strike; the page's explanation."""
    page.mouse.click(*page_xy(page, disc["x"], disc["y"]))
    s = wait_state(page, f"s.watched && s.watched.id === {disc['id']}")
    watched = s["watched"]
    assert isinstance(watched, dict)
    page.wait_for_selector("#watch-note:not([hidden])")
    return watched


def test_the_other_player_and_a_watcher_hear_why_for_the_striker(web_server, new_page):
    me, other, _ = quick_pair(web_server, new_page)
    s = state(me)
    striker = s["room"]["you"]["seat"]
    room = s["room"]["id"]
    mine = next(d for d in s["discs"] if d["id"] and d["owner"] == striker)
    theirs = next(d for d in s["discs"] if d["id"] and d["owner"] != striker)

    # The other player: the striker's own puck is free for her (004 § 21 (1)) ...
    e = press(other, mine)
    assert e["reason"] == "own_free" and e["whose"] == "mine" and e["cite"] == "004 § 21 (1)", e
    said = other.text_content("#watch-note") or ""
    assert "Liis's puck: free, Liis may strike it directly" in said, said
    assert other.get_attribute("#watch-note a", "href") == "/rules.html#p-21-1"
    assert other.get_attribute("#watch-note", "role") == "status"
    # ... and his own puck is an opponent's for her (004 § 24 (1) 2)).
    e = press(other, theirs)
    assert e["reason"] == "opponent" and e["cite"] == "004 § 24 (1) 2)", e
    assert "Liis" in (other.text_content("#watch-note") or "")
    assert state(other)["aim"] is None  # pressing aimed nothing: the striker is not his

    # A watcher, in Latvian, by the keyboard's puck list.
    watcher = new_page()
    watcher.goto(web_server)
    watcher.fill("#name-input", "Anna")
    watcher.click("#name-form button[type=submit]")
    watcher.wait_for_selector("#screen-lobby:not([hidden])", timeout=TIMEOUT)
    watcher.goto(f"{web_server}/?room={room}")
    wait_state(watcher, "s.screen === 'screen-match' && s.phase === 'play'", TIMEOUT)
    assert state(watcher)["room"]["you"]["role"] == "watcher"
    watcher.select_option("#lang", "lv")
    watcher.wait_for_selector("html[lang=lv]")  # its catalog loaded (js/i18n.js)
    button = f'#puck-list button[data-puck="{mine["id"]}"]'
    watcher.wait_for_selector(button, state="attached")
    assert (watcher.text_content(button) or "").startswith("Spēlētāja Liis kauliņš")
    watcher.focus(button)
    wait_state(watcher, f"s.watched && s.watched.id === {mine['id']}")
    said = watcher.text_content("#watch-note") or ""
    assert "Spēlētāja Liis kauliņš: gaišais" in said, said

    # The striker's ruling reaches the watcher with its "why".
    me.click("#pass-btn")  # a penalty puck for declining to strike (004 § 24 (1) 7))
    wait_state(watcher, f"s.ruling && s.ruling.seat === {striker}", TIMEOUT)
    watcher.wait_for_selector("#ruling .why summary", timeout=TIMEOUT)
    assert "soda kauliņš" in (watcher.text_content("#ruling") or "").lower()
    watcher.click("#ruling .why summary")
    watcher.wait_for_function("document.querySelector('#ruling .why p').textContent.length > 10")
    # Now Mart strikes: the watcher's explanations are for him.
    theirs_now = next(d for d in state(watcher)["discs"] if d["id"] and d["owner"] != striker)
    e = press(watcher, theirs_now)
    assert e["whose"] == "mine" and "Mart" in (watcher.text_content("#watch-note") or "")
