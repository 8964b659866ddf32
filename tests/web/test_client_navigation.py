"""The browser's Back and Forward on the main page (issue 34, docs/client.md "Addresses and
Back"): each screen has its address; Back from the waiting room leaves the room as its Leave
button does, Back from the name form opened by "change name" returns to the lobby with the
session kept, Forward reopens that form but not a room left; a reload keeps the room; Back
from the table in a match still played asks first (leaving resigns), staying keeps the table
and its address, leaving resigns and shows the lobby."""

from __future__ import annotations

import re

from playwright.sync_api import Dialog, Page

from tests.web.test_client_aiming import quick_pair
from tests.web.webtools import enter, state, wait_state

LOBBY = "s.screen === 'screen-lobby'"


def path(page: Page) -> str:
    """The address bar without the server's origin."""
    return str(page.evaluate("location.pathname + location.search"))


def test_back_leaves_the_lobbys_sub_screens(web_server, new_page):
    page = new_page()
    enter(page, web_server, "Ada")
    s = wait_state(page, LOBBY + " && s.connected")
    session = s["session"]
    assert path(page) == "/"

    # the waiting room: its own address, kept by a reload; Back leaves the room
    page.click("#create-btn")
    room = wait_state(page, "s.screen === 'screen-room'")["room"]["id"]
    assert path(page) == f"/?room={room}"
    page.reload()
    wait_state(page, f"s.screen === 'screen-room' && s.room?.id === '{room}'")
    assert path(page) == f"/?room={room}"
    page.go_back()
    wait_state(page, LOBBY + " && s.room === null")  # the server's `left` taken
    assert path(page) == "/"
    # Forward into the room left: the lobby stays, at its own address
    page.go_forward()
    page.wait_for_function("location.search === ''")
    assert state(page)["screen"] == "screen-lobby" and state(page)["room"] is None

    # the name form opened by "change name": Back is the lobby again, the same session
    page.click("#rename")
    page.wait_for_selector("#screen-name:not([hidden])")
    assert path(page) == "/?screen=name"
    assert page.input_value("#name-input") == "Ada"
    page.go_back()
    s = wait_state(page, LOBBY)
    assert path(page) == "/" and s["session"] == session and s["connected"]
    assert page.inner_text("#me-name") == "Ada"
    page.go_forward()
    page.wait_for_selector("#screen-name:not([hidden])")
    assert path(page) == "/?screen=name"
    # a name given there: a new session under it, the lobby at its own address
    page.fill("#name-input", "Bea")
    page.click("#name-form button[type=submit]")
    s = wait_state(page, LOBBY + f" && s.connected && s.session !== '{session}'")
    page.wait_for_function("location.search === ''")
    assert page.inner_text("#me-name") == "Bea"


def test_back_from_the_table_asks_then_leaves_as_the_leave_button(web_server, new_page):
    me, other, _ = quick_pair(web_server, new_page)
    room = state(me)["room"]["id"]
    assert path(me) == f"/?room={room}"

    # staying: the table and its address kept, the match still played
    me.once("dialog", lambda d: d.dismiss())
    me.go_back()
    me.wait_for_function(f"location.search === '?room={room}'")
    s = state(me)
    assert s["screen"] == "screen-match" and s["phase"] != "over" and s["room"]["id"] == room

    # leaving: asked again, accepted; the match resigned, the lobby shown at "/"
    asked: list[str] = []

    def accept(d: Dialog) -> None:
        asked.append(d.message)
        d.accept()

    me.once("dialog", accept)
    me.go_back()
    wait_state(me, LOBBY + " && s.room === null")
    assert path(me) == "/"
    assert asked and re.search(r"resign", asked[0], re.I), asked
    s = wait_state(other, "s.result !== null")
    assert s["phase"] == "over"
