"""Learning the rules at the table (issue 19), in Chromium: pressing a puck (a click, or the
keyboard's focus in the puck list) says beside the aim whether it may be struck first
directly and why, with its paragraph (004 § 21 (1), (3), § 24 (1) 2)); a ruling's "why"
opens the paragraph's words and its link lands on the paragraph on the rules page, in the
player's language (English for Latvian, there being no Latvian text); the turn and each
ruling reach screen readers through the aria-live region; every control has a name."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

from server.games.novuss.rules.cites import parse_cite
from tests.web.test_client_aiming import TABLE, mover, quick_pair
from tests.web.webtools import page_xy, publish, state, to_world, wait_state

RULES = json.loads(
    (Path(__file__).resolve().parents[2] / "web" / "rules" / "rules.json").read_text("utf-8")
)
CENTRE = (TABLE / 2, TABLE / 2)
FREE = (300.0, 700.0)
ZONE = (380.0, 62.0)  # in the own edge zone, clear of the striker and the far pucks
# The roles a player operates; each must have a name (WAI-ARIA: an accessible name).
CONTROLS = {"button", "link", "combobox", "textbox", "checkbox", "radio", "spinbutton"}


def press(page: Page, xy: tuple[float, float]) -> dict[str, Any]:
    """Click a puck at a world point; the page's explanation of it, once shown."""
    page.mouse.click(*page_xy(page, *xy))
    s = wait_state(page, "s.explained !== null")
    explained = s["explained"]
    assert isinstance(explained, dict)
    return explained


def note(page: Page) -> str:
    """The word beside the aim, as shown."""
    page.wait_for_selector("#aim-note:not([hidden])")
    text = page.text_content("#aim-note")
    assert text is not None
    return text


def paragraph(anchor: str, lang: str) -> str:
    """A paragraph's (or point's) text on the rules page, from the extracted data."""
    for sec in RULES["004"]:
        for p in sec["paragraphs"]:
            if p["id"] == anchor:
                return str(p[lang])
            for q in p["points"]:
                if q["id"] == anchor:
                    return str(q[lang])
    raise AssertionError(f"no {anchor}")


def nameless_controls(page: Page) -> list[str]:
    """Controls in the page's accessibility tree (Chromium's own) without a name."""
    cdp = page.context.new_cdp_session(page)
    tree = cdp.send("Accessibility.getFullAXTree")
    out: list[str] = []
    for n in tree["nodes"]:
        role = n.get("role", {}).get("value")
        if n.get("ignored") or role not in CONTROLS:
            continue
        if not str(n.get("name", {}).get("value", "")).strip():
            out.append(f"{role} {n.get('backendDOMNodeId')}")
    cdp.detach()
    return out


def test_pressing_a_puck_says_whether_it_may_be_struck_directly(web_server, new_page, artifacts):
    # Display only: the player's pucks in the centre circle, free, and in the own zone.
    patch, spots = mover([CENTRE, FREE, ZONE])
    me, _, _ = quick_pair(web_server, new_page, patch)
    side = state(me)["side"]
    ids = {xy: pid for pid, xy in spots.items()}
    centre, free, zone = (ids[to_world(side, *xy)] for xy in (CENTRE, FREE, ZONE))

    # Blind in the centre circle: not directly, by a rebound (004 § 21 (1), (3)).
    e = press(me, spots[centre])
    assert e["id"] == centre and e["reason"] == "blind_circle" and e["playable"] is False, e
    assert e["cite"] == "004 § 21 (1), (3)"
    said = note(me)
    assert "blind" in said and "centre circle" in said and "rebound" in said, said
    assert "(004 § 21 (1), (3))" in said, said
    assert me.get_attribute("#aim-note a", "href") == "/rules.html#p-21-1"
    me.screenshot(path=str(artifacts / "puck-explained.png"))
    publish(artifacts / "puck-explained.png", "client-puck-explained.png")
    # The guide line agrees: the aim is at it and its first touch is a foul.
    assert state(me)["preview"] == {"kind": "puck", "id": centre, "legal": False, "reason": "blind"}

    # An own free puck: directly (004 § 21 (1)); the click still aims at it.
    e = press(me, spots[free])
    assert e["id"] == free and e["reason"] == "own_free" and e["playable"] is True, e
    said = note(me)
    assert "free" in said and "directly" in said and "(004 § 21 (1))" in said, said
    assert state(me)["preview"] == {"kind": "puck", "id": free, "legal": True, "reason": "own"}

    # In the own edge zone, its hole inside the line: blind.
    e = press(me, spots[zone])
    assert e["id"] == zone and e["reason"] == "blind_zone", e
    assert "edge zone" in note(me)

    # An opponent's puck (004 § 24 (1) 2)).
    s = state(me)
    you, aim = s["room"]["you"]["seat"], s["aim"]
    theirs = max(
        (d for d in s["discs"] if d["owner"] != you and d["id"] != 0),
        key=lambda d: (d["x"] - aim["x"]) ** 2 + (d["y"] - aim["y"]) ** 2,
    )
    e = press(me, (theirs["x"], theirs["y"]))
    assert e["reason"] == "opponent" and e["cite"] == "004 § 24 (1) 2)", e

    # By keyboard: focusing a puck in the list presses it.
    me.focus(f'#puck-list button[data-puck="{free}"]')
    s = wait_state(me, f"s.explained && s.explained.id === {free}")
    assert s["explained"]["reason"] == "own_free"
    assert me.is_visible(f'#puck-list button[data-puck="{free}"]')
    assert "Your puck" in (me.text_content(f'#puck-list button[data-puck="{free}"]') or "")

    # In Estonian, the seed's terms: suluseib, pörkelöök.
    me.select_option("#lang", "et")
    me.wait_for_selector("html[lang=et]")  # its catalog loaded (js/i18n.js)
    press(me, spots[centre])
    said = note(me)
    assert "suluseib" in said and "pörkelöögiga" in said, said


def test_a_ruling_s_why_opens_its_paragraph_and_links_to_the_rules_page(web_server, new_page):
    me, other, _ = quick_pair(web_server, new_page)
    you = state(me)["room"]["you"]["seat"]
    me.click("#pass-btn")  # a penalty puck for declining to strike (004 § 24 (1) 7))
    wait_state(me, f"s.ruling && s.ruling.seat === {you} && s.turn !== {you}")
    me.wait_for_selector("#ruling .why summary")
    cite = me.text_content("#ruling .line cite")
    assert cite, "the ruling's line cites its paragraph"
    anchor = parse_cite(cite)[0].anchor
    me.click("#ruling .why summary")
    me.wait_for_function("document.querySelector('#ruling .why p').textContent.length > 10")
    words = me.text_content("#ruling .why p") or ""
    assert paragraph(anchor, "en")[:40] in words, (anchor, words)
    assert me.get_attribute("#ruling .why a", "href") == f"/rules.html#{anchor}"
    # The cite itself links there too.
    assert me.get_attribute("#ruling .line cite a", "href") == f"/rules.html#{anchor}"

    # The turn and the ruling, announced.
    line = me.evaluate("document.querySelector('#ruling .line').firstChild.textContent")
    me.wait_for_function(
        "([a, b]) => { const t = document.getElementById('announce').textContent;"
        " return t.includes(a) && t.includes(b); }",
        arg=[line, "Mart"],
    )
    assert me.get_attribute("#announce", "aria-live") == "polite"
    other.wait_for_function("document.getElementById('announce').textContent.includes('Your turn')")

    # The link opens the rules page on the paragraph.
    with me.context.expect_page() as opened:
        me.click("#ruling .why a")
    rules = opened.value
    rules.wait_for_selector("body[data-ready='1']")
    assert rules.evaluate("location.hash") == f"#{anchor}"
    target = rules.locator(f"#{anchor}")
    assert "landed" in (target.get_attribute("class") or "")
    assert target.is_visible()
    box = target.bounding_box()
    viewport = rules.viewport_size
    assert box is not None and viewport is not None
    assert 0 <= box["y"] < viewport["height"], box
    assert paragraph(anchor, "en")[:40] in (target.text_content() or "")
    # Estonian: the original; Latvian: the English, with a note saying so.
    rules.select_option("#lang", "et")
    rules.wait_for_selector("html[lang=et]")  # its catalog loaded (js/i18n.js)
    assert paragraph(anchor, "et")[:40] in (target.text_content() or "")
    assert rules.is_hidden("#rules-lv-note")
    rules.select_option("#lang", "lv")
    rules.wait_for_selector("html[lang=lv]")  # its catalog loaded (js/i18n.js)
    assert paragraph(anchor, "en")[:40] in (rules.locator(f"#{anchor}").text_content() or "")
    assert rules.is_visible("#rules-lv-note")
    assert nameless_controls(rules) == []


def test_every_control_has_a_name(web_server, new_page):
    me, _, _ = quick_pair(web_server, new_page)
    wait_state(me, "s.aim !== null")
    assert nameless_controls(me) == []
    me.focus("#puck-list button")  # the puck list shown, its buttons named
    assert nameless_controls(me) == []


def test_the_account_pages_speak_the_chosen_language(web_server, new_page):
    page = new_page()
    page.goto(web_server + "/leaderboard")
    page.wait_for_selector("#lang option", state="attached")
    assert page.inner_text("h1") == "Leaderboard"
    page.select_option("#lang", "et")
    page.wait_for_selector("html[lang=et]")  # its catalog loaded (js/i18n.js)
    assert page.inner_text("h1") == "Edetabel"
    page.wait_for_function("document.getElementById('page-of').textContent === 'lehekülg 1/1'")
    # remembered, and shared with the other pages
    page.goto(web_server + "/account")
    page.wait_for_selector("#guest:not([hidden])")
    assert page.inner_text("#login-form h2") == "Logi sisse"
    assert page.title() == "Konto · Novuss online"
    page.select_option("#lang", "lv")
    page.wait_for_selector("html[lang=lv]")  # its catalog loaded (js/i18n.js)
    assert page.inner_text("#register-form button") == "Reģistrēties"
    assert nameless_controls(page) == []
    page.goto(web_server + "/u/Nobody")
    page.wait_for_function("document.getElementById('username').textContent !== '…'")
    assert page.inner_text("#username") == "Tāda spēlētāja nav"
    assert page.inner_text("#figures th:nth-child(2)") == "Spēles"


def test_the_word_about_a_puck_says_when_the_striker_would_meet_another_first(web_server, new_page):
    # Two own free pucks in line with the striker's first place, the far one behind the near.
    near_xy, far_xy = (TABLE / 2, 300.0), (TABLE / 2, 780.0)
    patch, spots = mover([near_xy, far_xy])
    me, _, _ = quick_pair(web_server, new_page, patch)
    side = state(me)["side"]
    ids = {xy: pid for pid, xy in spots.items()}
    near, far = (ids[to_world(side, *xy)] for xy in (near_xy, far_xy))
    # The far one may be struck directly (004 § 21 (1)), but on this line the near one is
    # met first: the word says so, as the guide line shows.
    e = press(me, spots[far])
    assert e["id"] == far and e["reason"] == "own_free", e
    assert state(me)["preview"]["id"] == near
    said = note(me)
    assert "free" in said and "another puck first" in said, said
    # and it says that first: read first, "free: you may strike it directly" was taken for
    # a word about the stroke, and a player struck the foul the line showed
    assert said.startswith("On this line the striker meets another puck first"), said
    # The near one: nothing in the way, nothing more said.
    e = press(me, spots[near])
    assert e["id"] == near and e["reason"] == "own_free", e
    me.wait_for_function(
        "(n => n.textContent.includes('free') && !n.textContent.includes('another puck first'))"
        "(document.getElementById('aim-note'))"
    )
    assert state(me)["preview"]["id"] == near
