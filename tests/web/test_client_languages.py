"""The client in Estonian (issue 19): switched in the header, the lobby's words are
Estonian; after a stroke the ruling is worded in Estonian from its codes while the other
player's page reads English; the choice survives a reload."""

from __future__ import annotations

import re

from tests.web.webtools import enter, place_striker, state, strike, to_world, wait_state


def test_estonian_lobby_and_ruling_and_the_choice_survives_a_reload(web_server, new_page):
    base = web_server
    maret = new_page()
    jaan = new_page()

    enter(maret, base, "Maret")
    maret.wait_for_selector("#screen-lobby:not([hidden])")
    assert maret.inner_text("#create-form h2") == "New room"  # the browser says English
    maret.select_option("#lang", "et")
    maret.wait_for_selector("html[lang=et]")  # its catalog loaded (js/i18n.js)
    assert maret.inner_text("#create-form h2") == "Uus tuba"
    assert maret.inner_text("#create-btn") == "Loo tuba"
    # main's Crokinole options (seed 002 4 f) through the same catalogs
    assert maret.text_content("select[name=scoring] option[value=tournament]") == (
        "Turniir: 4 vooru, vooru eest 2 / 1 / 0 punkti (4 f)"
    )
    assert maret.evaluate("document.documentElement.lang") == "et"

    maret.reload()
    maret.wait_for_selector("#screen-lobby:not([hidden])")
    assert maret.inner_text("#create-form h2") == "Uus tuba", "the choice is remembered"
    assert maret.input_value("#lang") == "et"

    maret.select_option("select[name=sets]", "1")
    maret.click("#create-btn")
    maret.wait_for_selector("#screen-room:not([hidden])")
    room_id = state(maret)["room"]["id"]
    assert "Üksikmäng · 1 geim" in maret.inner_text("#room-title")
    maret.click("#ready-btn")

    enter(jaan, base, "Jaan")
    row = jaan.locator(f"#open-rooms li[data-room='{room_id}']")
    row.wait_for()
    row.get_by_role("button", name="Join").click()
    jaan.wait_for_selector("#screen-room:not([hidden])")
    jaan.click("#ready-btn")
    for page in (maret, jaan):
        wait_state(page, "s.screen === 'screen-match' && s.phase === 'play'")

    pages = {state(p)["room"]["you"]["seat"]: p for p in (maret, jaan)}
    turn = wait_state(maret, "s.phase === 'play' && !s.moving && s.held === 0")["turn"]
    shooter = pages[turn]
    side = wait_state(shooter, "s.aim !== null")["side"]
    for u in (400.0, 300.0, 700.0):
        if place_striker(shooter, u, 60.0)["legal"]:
            break
    strike(shooter, to_world(side, 540.0, 1000.0), pull_mm=140.0)
    for page in (maret, jaan):
        wait_state(page, "!s.moving && s.ruling?.stroke === 1")
    lines = state(maret)["ruling"]["lines"]
    assert all(set(line) == {"code", "args", "cite", "text"} for line in lines), lines

    estonian = maret.inner_text("#ruling")
    english = jaan.inner_text("#ruling")
    assert re.match(r"(Otselöök|Pörkelöök)", estonian), estonian
    assert re.match(r"(Direct|Rebound) stroke", english), english
    assert maret.inner_text("#hud .turn") in ("Sinu kord: aseta löögiketas ja löö", "Lööb Jaan")

    # Switched back at any time, the ruling already on screen is reworded.
    maret.select_option("#lang", "lv")
    maret.wait_for_selector("html[lang=lv]")  # its catalog loaded (js/i18n.js)
    assert re.match(r"(Tiešs|Atsitiena) sitiens", maret.inner_text("#ruling"))
    maret.select_option("#lang", "en")
    maret.wait_for_selector("html[lang=en]")  # its catalog loaded (js/i18n.js)
    reworded = maret.inner_text("#ruling")
    assert re.match(r"(Direct|Rebound) stroke", reworded) and reworded != estonian
    assert reworded.count("\n") == english.count("\n"), "line for line the same ruling"
    # each in the reader's person (issue 36): the striker's own stroke in the second
    yours = reworded if shooter is maret else english
    assert re.search(r"\byour?\b", yours), yours
