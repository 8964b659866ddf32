"""The match record page links the match's notation (docs/notation.md): the link is worded
in the player's language and the server serves the notation behind it."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from tests.server.server_client import close_all, connected


async def resigned_match(ws_url: str) -> str:
    """Two players start a singles match and one resigns at once; the match's id."""
    a, b = await connected(ws_url, "Maret", "Jaan")
    try:
        await a.send("create", mode="singles", sets=1, clock=60, private=False)
        room = await a.expect("room")
        await b.send("join", room=room["id"])
        await b.expect("room")
        for c in (a, b):
            await c.send("ready", ready=True)
        for c in (a, b):
            while c.room is None or c.room["match"] is None:
                await c.inbox.get()
        await a.send("resign")
        result = await b.expect("result")
        return str(result["match"])
    finally:
        await close_all(a, b)


def test_the_record_page_links_the_notation_in_the_players_language(game_server, new_page):
    srv = game_server()
    # the players' websockets run on their own loop, away from Playwright's
    with ThreadPoolExecutor(1) as pool:
        mid = pool.submit(asyncio.run, resigned_match(srv.ws_url)).result(timeout=60)
    page = new_page(locale="et-EE")
    page.goto(f"{srv.url}/?match={mid}")
    page.wait_for_selector("#record-log li")
    assert page.is_visible("#record-notation")
    assert page.inner_text("#record-notation") == "Mäng notatsioonina (tekst)"
    assert page.get_attribute("#record-notation", "href") == f"/api/matches/{mid}.txt"
    notation = page.evaluate(
        "fetch(document.getElementById('record-notation').href).then(r => r.text())"
    )
    assert notation.startswith('[Game "novuss"]') and "\nresign 0\n" in notation, notation
    page.select_option("#lang", "lv")
    page.wait_for_selector("html[lang=lv]")  # its catalog loaded (js/i18n.js)
    assert page.inner_text("#record-notation") == "Spēle notācijā (teksts)"
