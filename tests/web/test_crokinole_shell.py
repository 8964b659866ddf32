"""The Crokinole table's shell in Chromium (issue 34): two players and a watcher with the
panel checked (turn, colour, names, score, discs left), the shot learnable (how to shoot,
the power while pulling, a tap leaves nothing), chat, a reload and a broken link mid-shot
resumed with every event applied once (by seq), a rematch; a 3-player 7 d game on a phone."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page

from tests.web.test_client_crokinole import shoot
from tests.web.test_client_lobby_crokinole import shoot_from
from tests.web.webtools import publish, server_room

TIMEOUT_MS = 20_000
ST = "window.crokinole"


def open_page(
    new_page: Callable[..., Page], base: str, name: str, query: str = "", **kw: Any
) -> Page:
    page = new_page(**kw)
    page.add_init_script(f"localStorage.setItem('novuss.name', '{name}')")
    page.goto(f"{base}/crokinole/{query}")
    page.wait_for_function(f"{ST} && {ST}.session !== null", timeout=TIMEOUT_MS)
    return page


def rows(page: Page) -> list[dict[str, str]]:
    found: list[dict[str, str]] = page.eval_on_selector_all(
        "#players li",
        "els => els.map(e => ({name: e.querySelector('.name').textContent,"
        " score: e.querySelector('.score').textContent, left: e.dataset.left,"
        " colour: e.dataset.colour}))",
    )
    return found


def consecutive(seqs: list[int]) -> bool:
    return all(b == a + 1 for a, b in itertools.pairwise(seqs))


def test_two_players_and_a_watcher_at_the_crokinole_table(web_server, new_page, artifacts):
    host = open_page(new_page, web_server, "Maret")
    host.select_option("#mode", "singles")
    host.click("#create")
    host.wait_for_function(f"{ST}.room && {ST}.board", timeout=TIMEOUT_MS)
    room = host.evaluate(f"{ST}.room.id")
    guest = open_page(new_page, web_server, "Jaan", f"?room={room}")
    guest.wait_for_function(f"{ST}.seat === 1", timeout=TIMEOUT_MS)
    watcher = open_page(new_page, web_server, "Ivo", f"?room={room}&watch=1")
    watcher.wait_for_function(f"{ST}.room && {ST}.seat === null", timeout=TIMEOUT_MS)
    host.wait_for_function("document.querySelector('#watchers').textContent === '1 watching'")
    for page in (host, guest):
        page.click("#ready")
    pages = (host, guest, watcher)
    for page in pages:
        page.wait_for_function(f"{ST}.phase === 'play'", timeout=TIMEOUT_MS)
    # who you are and your colour; the room's id is not shown
    assert host.inner_text("#me") == "Maret: you play red"
    assert guest.inner_text("#me") == "Jaan: you play black"
    assert watcher.inner_text("#me") == "You are watching"
    assert room not in host.inner_text("#bar")
    assert host.is_hidden("#setup")
    # names, colours, game points and discs left (002 1: 8 discs each in singles)
    assert rows(host) == [
        {"name": "Maret (you)", "score": "0", "left": "8", "colour": "0"},
        {"name": "Jaan", "score": "0", "left": "8", "colour": "1"},
    ]
    assert [r["name"] for r in rows(watcher)] == ["Maret", "Jaan"]
    turn = host.evaluate(f"{ST}.turn")
    shooter, other = (host, guest) if turn == 0 else (guest, host)
    names = ("Maret", "Jaan")
    assert shooter.inner_text("#turn") == "Your turn"
    assert other.inner_text("#turn") == f"{names[turn]} to shoot"
    assert watcher.inner_text("#turn") == f"{names[turn]} to shoot"
    # how to shoot is said on the board to the player whose turn it is, and only to him
    assert "pull back" in shooter.inner_text("#how")
    assert other.is_hidden("#how")

    # a tap without a pull: nothing shot, no disc left on the line
    box = shooter.locator("#board").bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] * 0.44, box["y"] + box["height"] * (0.95 if turn == 0 else 0.05)
    shooter.mouse.click(x, y)
    assert shooter.evaluate(f"{ST}.aim") is None
    assert shooter.is_hidden("#power")
    # the power shown while pulling, with its figure
    shooter.mouse.move(x, y)
    shooter.mouse.down()
    shooter.mouse.move(x, y + (40 if turn == 0 else -40))
    assert shooter.is_visible("#power")
    assert shooter.inner_text("#power-figure").startswith("Power ")
    assert int(shooter.inner_text("#power-figure").split()[1].rstrip("%")) > 0
    shooter.mouse.up()
    for page in pages:
        page.wait_for_function(
            f"{ST}.rulings === 1 && {ST}.turn === {1 - turn}", timeout=TIMEOUT_MS
        )
    assert shooter.is_hidden("#power")
    # the ruling names the shooter: "You" to him, his name to the others, with 002's words
    assert shooter.inner_text("#ruling").startswith("You: ")
    assert watcher.inner_text("#ruling").startswith(f"{names[turn]}: ")
    watcher.click("#ruling .why summary")
    assert watcher.inner_text("#ruling .why p").startswith("002 3 ")
    assert rows(watcher)[turn]["left"] == "7"
    assert other.inner_text("#turn") == "Your turn"

    # chat: a player's line reaches the other and the watcher, with his colour
    guest.fill(".chat-form input", "hei")
    guest.press(".chat-form input", "Enter")
    for page in (host, watcher):
        page.wait_for_selector(".chat-log li:has-text('hei')", timeout=TIMEOUT_MS)
    assert "Jaan" in host.inner_text(".chat-log") and "(black)" in host.inner_text(".chat-log")
    shot = artifacts / "crokinole-table.png"
    host.screenshot(path=str(shot))
    publish(shot, "crokinole-table.png")

    # mid-shot: the non-shooter reloads, the watcher's link breaks; each resumes with every
    # event applied once and in order (by seq)
    shooter, other = other, shooter
    turn = 1 - turn
    shoot(shooter, turn)
    for page in (other, watcher):
        page.wait_for_function(f"{ST}.phase === 'motion'", timeout=TIMEOUT_MS)
    snapshots = watcher.evaluate(f"{ST}.snapshots.length")
    other.reload()
    watcher.evaluate("window.crokinoleLink.drop()")
    for page in pages:
        page.wait_for_function(
            f"{ST}.phase === 'play' && {ST}.turn === {1 - turn}", timeout=TIMEOUT_MS
        )
    # the server's last event (the ruling, and the reloaded player's "back" after it)
    last = server_room(web_server, room)["seq"]
    for page in pages:
        page.wait_for_function(f"{ST}.last === {last}", timeout=TIMEOUT_MS)
    events = watcher.evaluate(f"{ST}.applied")
    assert consecutive(events) and events[-1] == last, events
    assert watcher.evaluate(f"{ST}.snapshots.length") == snapshots  # resumed from its last seq
    # the reloaded page: a snapshot, then the events after it, none twice
    snaps, events = other.evaluate(f"[{ST}.snapshots, {ST}.applied]")
    assert consecutive([snaps[-1], *events]) and max([snaps[-1], *events]) == last, (snaps, events)
    assert other.inner_text("#ruling .line").startswith(f"{names[turn]}: ")

    # a resignation ends it; both offer a rematch and a new game starts
    host.once("dialog", lambda dialog: dialog.accept())
    host.click("#resign")
    for page in pages:
        page.wait_for_selector("#result:not([hidden])", timeout=TIMEOUT_MS)
    assert host.inner_text("#result-title") == "You lost the match"
    assert guest.inner_text("#result-title") == "You won the match!"
    assert watcher.inner_text("#result-title") == "Jaan won"
    assert watcher.is_hidden("#rematch")
    for page in (host, guest):
        page.click("#rematch")
    for page in pages:
        page.wait_for_function(
            f"{ST}.phase === 'play' && document.querySelector('#result').hidden",
            timeout=TIMEOUT_MS,
        )
    assert [r["left"] for r in rows(watcher)] == ["8", "8"]


def test_three_players_each_alone_on_a_phone(web_server, new_page, artifacts):
    # 002 7 d: three colours, a quadrant each, 6 discs each; the page fits 390 px
    phone: dict[str, Any] = {"viewport": (390, 844), "has_touch": True, "is_mobile": True}
    host = open_page(new_page, web_server, "Anu", **phone)
    host.select_option("#mode", "3")
    host.click("#create")
    host.wait_for_function(f"{ST}.room && {ST}.board", timeout=TIMEOUT_MS)
    room = host.evaluate(f"{ST}.room.id")
    pages = [host]
    for seat, name in ((1, "Boris"), (2, "Cara")):
        page = open_page(new_page, web_server, name, f"?room={room}")
        page.wait_for_function(f"{ST}.seat === {seat}", timeout=TIMEOUT_MS)
        pages.append(page)
    for page in pages:
        page.click("#ready")
    for page in pages:
        page.wait_for_function(f"{ST}.phase === 'play'", timeout=TIMEOUT_MS)
    assert [r["left"] for r in rows(host)] == ["6", "6", "6"]
    assert [r["colour"] for r in rows(host)] == ["0", "1", "2"]
    assert pages[2].inner_text("#me") == "Cara: you play blue"
    turn = host.evaluate(f"{ST}.turn")
    shoot_from(pages[turn], turn)
    host.wait_for_function(f"{ST}.rulings === 1", timeout=TIMEOUT_MS)
    assert host.evaluate("document.documentElement.scrollWidth") <= 390
    shot = artifacts / "crokinole-phone.png"
    host.screenshot(path=str(shot), full_page=True)
    publish(shot, "crokinole-phone.png")


def test_quick_crokinole_from_its_page_under_the_name_given(web_server, new_page):
    # a name typed on the page is the session's (a new one), then quick match seats both
    pages = []
    for name in ("Anu", "Boris"):
        page = new_page()
        page.goto(web_server + "/crokinole/")
        page.wait_for_function(f"{ST} && {ST}.session !== null", timeout=TIMEOUT_MS)
        page.fill("#name", name)
        page.select_option("#mode", "singles")
        page.click("#quick")
        pages.append(page)
    for page in pages:
        page.wait_for_function(f"{ST}.phase === 'play'", timeout=TIMEOUT_MS)
    assert sorted(r["name"].removesuffix(" (you)") for r in rows(pages[0])) == ["Anu", "Boris"]
    assert pages[1].inner_text("#me").startswith("Boris: you play ")
