"""The lobby lists only rooms one can really join (issue 19): a public room whose creator's
page has gone away is taken off the list at once, though his seat is kept for a reload's
time (server/lobby/room.py `listed`, WAITING_GRACE); back within it, the room is listed
again; a creator who leaves closes it."""

from __future__ import annotations

import time

from playwright.sync_api import Page

from server.lobby.room import WAITING_GRACE
from tests.web.webtools import enter, state, wait_state

TIMEOUT = 30_000


def listed(page: Page, room: str) -> bool:
    """Whether the lobby on `page` lists the room as open."""
    return page.locator(row(room)).count() > 0


def row(room: str) -> str:
    """The lobby's row of a room."""
    return f'#open-rooms li[data-room="{room}"]'


def create_room(page: Page) -> str:
    """Create a public Novuss room from the lobby; its id."""
    page.wait_for_selector("#screen-lobby:not([hidden])", timeout=TIMEOUT)
    page.click("#create-btn")
    s = wait_state(page, "s.screen === 'screen-room' && s.room", TIMEOUT)
    return str(s["room"]["id"])


def test_a_room_whose_creator_went_away_is_not_offered(web_server, new_page):
    creator = new_page()
    other = new_page()
    enter(creator, web_server, "Kaur")
    enter(other, web_server, "Anu")
    room = create_room(creator)
    other.wait_for_selector("#screen-lobby:not([hidden])", timeout=TIMEOUT)
    other.wait_for_selector(row(room), timeout=TIMEOUT)

    # The creator's page goes away: off the list well before his seat's grace runs out.
    context = creator.context
    gone_at = time.monotonic()
    creator.close()
    other.wait_for_selector(row(room), state="detached", timeout=TIMEOUT)
    assert time.monotonic() - gone_at < WAITING_GRACE / 2
    assert other.is_visible("#open-empty")

    # Back within the grace (the same browser: his session resumes the seat): listed again.
    back = context.new_page()
    back.goto(web_server)
    wait_state(back, f"s.screen === 'screen-room' && s.room && s.room.id === '{room}'", TIMEOUT)
    other.wait_for_selector(row(room), timeout=TIMEOUT)

    # He leaves: the room closes and is not offered.
    back.click("#room-leave")
    other.wait_for_selector(row(room), state="detached", timeout=TIMEOUT)
    assert not listed(other, room)
    assert state(back)["room"] is None or state(back)["room"]["id"] != room
