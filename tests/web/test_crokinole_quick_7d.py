"""Quick match of 3 players each alone from the Crokinole page in Chromium (issue 34,
002 7 d): three pages queue with "3: each alone", the first told what it waits for, and all
three land at one table of three whose game starts."""

from __future__ import annotations

from tests.web.test_crokinole_shell import ST, TIMEOUT_MS, open_page, rows


def test_three_pages_quick_match_a_table_of_three_each_alone(web_server, new_page):
    pages = [open_page(new_page, web_server, name) for name in ("Anu", "Boris", "Cara")]
    first = pages[0]
    first.select_option("#mode", "3")
    first.click("#quick")
    # the server's `queued` names the table asked for (not a two-sided singles match)
    first.wait_for_function(
        "document.querySelector('#queue').textContent === 'Waiting for a Crokinole match of 3"
        " players, each alone: 1 player in the queue'",
        timeout=TIMEOUT_MS,
    )
    for page in pages[1:]:
        page.select_option("#mode", "3")
        page.click("#quick")
    for page in pages:  # seated ready: the game starts at once
        page.wait_for_function(f"{ST}.phase === 'play'", timeout=TIMEOUT_MS)
    assert len({page.evaluate(f"{ST}.room.id") for page in pages}) == 1
    assert sorted(page.evaluate(f"{ST}.seat") for page in pages) == [0, 1, 2]
    room = first.evaluate(f"{ST}.room")
    assert room["options"] == {"players": 3, "scoring": "tournament"}
    assert [s["team"] for s in room["seats"]] == [0, 1, 2]  # 002 7 d: each alone
    names = sorted(r["name"].removesuffix(" (you)") for r in rows(first))
    assert names == ["Anu", "Boris", "Cara"]
