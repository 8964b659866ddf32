"""The replay viewer in Chromium (/m/<id>, docs/notation.md "The replay viewer"): a short
match played over real websockets, then its replay opened: stepped by keys and buttons, a
stroke played at real speed, the positions drawn checked against the record (every disc where
the page's sampler leaves it hashes to the stroke's stored state hash; the table after each
step is the server's recomputed one), the ruling in words and the score, #stroke=N, the
language menu, a 404 page for an unknown match; reached from the match record page."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
from typing import Any
from urllib.request import urlopen

from playwright.sync_api import Page

from server.games.novuss.sim.result import Trajectory, state_hash
from server.games.novuss.sim.types import DiscRest
from tests.replay.test_notation_e2e import start_room
from tests.replay.test_replay_viewer_e2e import resign_at_rest
from tests.server.server_client import close_all, connected
from tests.web.webtools import frames_drawn, publish

TIMEOUT_MS = 30_000


def get(url: str) -> Any:
    with urlopen(url, timeout=10) as r:
        return json.loads(r.read())


def play_short_match(ws_url: str, strokes: int) -> str:
    """Two scripted players play `strokes` strokes and the first resigns: the match's id."""

    async def play() -> str:
        a, b = await connected(ws_url, "Anu", "Boris")
        await start_room(a, b, private=False)
        await asyncio.gather(a.play("singles", strokes=strokes), b.play("singles", strokes=strokes))
        mid = await resign_at_rest(a, b)
        await close_all(a, b)
        return mid

    with concurrent.futures.ThreadPoolExecutor(1) as pool:  # Playwright's sync API owns this thread
        return pool.submit(asyncio.run, play()).result(timeout=120)


def replay_state(page: Page) -> dict[str, Any]:
    state: dict[str, Any] = page.evaluate(
        "(() => { const r = window.__replay; return {index: r.index, steps: r.steps,"
        " moving: r.moving, stroke: r.stroke, discs: r.discs()}; })()"
    )
    return state


def wait_index(page: Page, index: int) -> dict[str, Any]:
    page.wait_for_function(
        f"window.__replay && window.__replay.index === {index} && !window.__replay.moving",
        timeout=TIMEOUT_MS,
    )
    frames_drawn(page)  # a display frame drawn at the step
    return replay_state(page)


def same_discs(drawn: list[dict[str, Any]], served: list[dict[str, Any]]) -> bool:
    key = lambda d: (d["id"], d["owner"], d["x"], d["y"])  # noqa: E731
    return sorted(map(key, drawn)) == sorted(map(key, served))


def test_replay_steps_and_plays_a_stroke_exactly(game_server, new_page, artifacts):
    srv = game_server(speed_factor=25)
    mid = play_short_match(srv.ws_url, 4)
    record = get(f"{srv.url}/api/matches/{mid}")
    rep = get(f"{srv.url}/api/matches/{mid}/replay")
    strokes = [e for e in record["log"] if e["kind"] == "stroke"]
    assert len(strokes) >= 4

    page = new_page()
    page.goto(f"{srv.url}/m/{mid}")
    start = wait_index(page, 0)
    assert page.inner_text("#replay-title") == "Anu v Boris"
    assert page.inner_text("#replay-check").startswith("✓")
    assert same_discs(start["discs"], rep["start"]["discs"])
    assert len(start["discs"]) == 16

    # a step forward by key: the table after stroke 1 as the server recomputed it, the
    # ruling in words, the score, the address names the stroke
    page.keyboard.press("ArrowRight")
    one = wait_index(page, 1)
    assert same_discs(one["discs"], rep["steps"][0]["discs"])
    assert "Stroke 1" in page.inner_text("#replay-position")
    assert page.locator("#replay-ruling li").count() >= 1
    assert "Anu 0 : 0 Boris" in page.inner_text("#replay-score")
    assert page.evaluate("location.hash") == "#stroke=1"
    page.click("#replay-next")
    wait_index(page, 2)
    page.keyboard.press("ArrowLeft")
    wait_index(page, 1)

    # play stroke 1 again at real speed: it moves, then rests where the server says
    n = strokes[0]["stroke"]
    motion = get(f"{srv.url}/api/matches/{mid}/replay/{n}")
    page.keyboard.press("Enter")
    page.wait_for_function("window.__replay.moving", timeout=TIMEOUT_MS)
    seen = replay_state(page)
    assert seen["stroke"] == n
    # the page's sampler against the server's trajectory, mid-stroke
    paths = [[d[0], d[1], -1 if d[0] == 0 else d[2], *d[3:]] for d in motion["paths"]]
    traj = Trajectory.from_compact(
        {"v": 1, "decel": motion["decel"], "duration": motion["duration"], "discs": paths}
    )
    half = motion["duration"] / 2
    sampled = page.evaluate(f"window.__replay.sample({n}, {half})")
    expected = {d.id: (d.x, d.y) for d in traj.sample(half) if d.where == "table"}
    assert {d["id"]: (d["x"], d["y"]) for d in sampled} == expected
    # every disc where the page leaves it: exactly the record's stored state hash
    resting = page.evaluate(f"window.__replay.resting({n})")
    final = [DiscRest(d["id"], d["x"], d["y"], d["where"], "puck", 0) for d in resting]
    assert state_hash(final) == strokes[0]["hash"]
    page.wait_for_function("!window.__replay.moving", timeout=TIMEOUT_MS)
    after = wait_index(page, 1)
    assert same_discs(after["discs"], rep["steps"][0]["discs"])

    # the last step and the scrubber; the result in words
    page.keyboard.press("End")
    last = wait_index(page, len(rep["steps"]))
    assert last["index"] == len(rep["steps"])
    assert "Boris won" in page.inner_text("#replay-score")
    # Space plays through, stroke after stroke, and pauses
    page.keyboard.press("Home")
    wait_index(page, 0)
    page.keyboard.press("Space")
    page.wait_for_function("window.__replay.moving && window.__replay.stroke === 1")
    page.wait_for_function("window.__replay.index >= 2", timeout=TIMEOUT_MS)
    assert page.get_attribute("#replay-play", "aria-label") == "Pause"
    page.keyboard.press("Space")
    assert page.get_attribute("#replay-play", "aria-label") == "Play"
    page.fill("#replay-scrub", "2")
    wait_index(page, 2)

    # #stroke=N opens there; the language menu rewords it
    page.goto(f"{srv.url}/m/{mid}#stroke=3")
    wait_index(page, next(i + 1 for i, s in enumerate(rep["steps"]) if s["stroke"] == 3))
    # the share button copies the link to the stroke shown (issue 36)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.click("#replay-share")
    page.wait_for_function("document.querySelector('#replay-shared').textContent !== ''")
    assert page.inner_text("#replay-shared") == "Link copied."
    assert page.evaluate("navigator.clipboard.readText()") == f"{srv.url}/m/{mid}#stroke=3"
    page.select_option("#lang", "et")
    page.wait_for_selector("html[lang=et]")  # its catalog loaded (js/i18n.js)
    page.wait_for_function(
        "document.querySelector('#replay-position').textContent.includes('Samm')"
    )
    assert "geim" in page.inner_text("#replay-score")  # "1. geim": the set, in Estonian
    page.select_option("#lang", "en")
    page.wait_for_selector("html[lang=en]")  # its catalog loaded (js/i18n.js)
    page.evaluate("document.activeElement.blur(); window.scrollTo(0, 0)")
    shot = artifacts / "replay-viewer.png"
    page.screenshot(path=str(shot), full_page=True)
    publish(shot, "replay-viewer.png")

    # reached from the match record page
    page.goto(f"{srv.url}/?match={mid}")
    page.wait_for_selector("#record-replay[href]")
    assert page.get_attribute("#record-replay", "href") == f"/m/{mid}"

    # an unknown match: a 404 page saying so
    missing = new_page()
    response = missing.goto(f"{srv.url}/m/nosuchmatch")
    assert response is not None and response.status == 404
    missing.wait_for_function("window.__replay && window.__replay.error === 404")
    assert "No such match" in missing.inner_text("#replay-summary")
