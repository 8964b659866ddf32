"""The replay viewer plays a Crokinole match in Chromium (/m/<id>, docs/crokinole.md "Records
and replays"): a match of a round and a shot more played over real websockets and resigned,
then its replay opened: the board drawn, the discs after each step the server's recomputed
ones, a shot played at real speed along the physics' segments (the page's sampler against
server/games/crokinole/physics.py `positions_at`), and every disc where the page leaves it
hashing exactly to the shot's stored state hash; the round's count and the result in words."""

from __future__ import annotations

import asyncio
import concurrent.futures
import math
from typing import Any

from playwright.sync_api import Page

from server.games.crokinole.judge import judge_shot
from server.games.crokinole.match import OFFSET
from server.games.crokinole.physics import Final, state_hash
from server.games.crokinole.replay import recompute
from server.games.crokinole.rules import State
from tests.replay.test_notation_e2e import start_room
from tests.replay.test_replay_viewer_e2e import resign_at_rest, shoot_crokinole
from tests.server.server_client import close_all, connected
from tests.web.test_replay_viewer import get, replay_state, same_discs
from tests.web.webtools import publish

TIMEOUT_MS = 30_000
SHOTS = 17  # round 1's sixteen discs (002 1), then the first of round 2


def play_crokinole(ws_url: str) -> str:
    """Kro (seat 0) and Kinole shoot SHOTS shots at the 20-hole; Kro resigns: the match's id."""

    async def play() -> str:
        a, b = await connected(ws_url, "Kro", "Kinole")
        await start_room(a, b, private=False, game="crokinole")
        await asyncio.gather(shoot_crokinole(a, SHOTS), shoot_crokinole(b, SHOTS))
        mid = await resign_at_rest(a, b)
        await close_all(a, b)
        return mid

    with concurrent.futures.ThreadPoolExecutor(1) as pool:  # Playwright's sync API owns this thread
        return pool.submit(asyncio.run, play()).result(timeout=180)


def at_step(page: Page, index: int) -> dict[str, Any]:
    """The viewer at rest at step `index`, once a display frame has drawn it."""
    page.wait_for_function(
        f"window.__replay && window.__replay.index === {index} && !window.__replay.moving",
        timeout=TIMEOUT_MS,
    )
    page.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    return replay_state(page)


def pixel(page: Page, x: float, y: float) -> list[int]:
    """The canvas's colour at world (x, y) mm (js/crokinole-draw.js's scale: 20 mm margin)."""
    rgba: list[int] = page.evaluate(
        """([x, y]) => {
            const c = document.getElementById('replay-canvas');
            const b = window.__replayBoard;
            const s = c.width / (b.size + 40);
            const d = c.getContext('2d').getImageData(Math.round((x + 20) * s),
                Math.round(c.height - (y + 20) * s), 1, 1).data;
            return [d[0], d[1], d[2]];
        }""",
        [x, y],
    )
    return rgba


def test_the_replay_viewer_plays_a_crokinole_match(game_server, new_page, artifacts):
    srv = game_server(speed_factor=25)
    mid = play_crokinole(srv.ws_url)
    record = get(f"{srv.url}/api/matches/{mid}")
    rep = get(f"{srv.url}/api/matches/{mid}/replay")
    shots = [e for e in record["log"] if e["kind"] == "stroke"]
    assert len(shots) == SHOTS and rep["mismatches"] == 0 and rep["table"]["game"] == "crokinole"

    page = new_page()
    page.goto(f"{srv.url}/m/{mid}")
    start = at_step(page, 0)
    assert page.inner_text("#replay-title") == "Kro v Kinole"
    assert page.inner_text("#replay-check").startswith("✓")
    assert start["discs"] == [] == rep["start"]["discs"]  # 002 1: every disc off the board
    page.evaluate("window.__replayBoard = " + repr(rep["table"]).replace("'", '"'))
    b = rep["table"]
    # the board is drawn: the 20-hole at the centre, the playing surface between the rings
    assert pixel(page, OFFSET, OFFSET) == [0x3B, 0x2A, 0x18]
    ring = (b["ring10_radius"] + b["shooting_radius"]) / 2
    assert pixel(page, OFFSET + ring * math.cos(0.3), OFFSET + ring * math.sin(0.3)) == [
        0xE8,
        0xD3,
        0xA6,
    ]

    # step by step: the board after each shot as the server recomputed it, the ruling in words
    page.keyboard.press("ArrowRight")
    one = at_step(page, 1)
    assert same_discs(one["discs"], rep["steps"][0]["discs"])
    assert "Stroke 1" in page.inner_text("#replay-position")
    ruling = page.inner_text("#replay-ruling")
    assert f"({shots[0]['ruling']['rule']})" in ruling  # its paragraph of seed 002
    assert "round 1" in page.inner_text("#replay-score")
    page.click("#replay-next")
    two = at_step(page, 2)
    assert same_discs(two["discs"], rep["steps"][1]["discs"])

    # shot 2 played again at real speed: it moves along the physics' segments, then every
    # disc rests exactly where the server's physics left it (the stored state hash)
    n = shots[1]["stroke"]
    motion = get(f"{srv.url}/api/matches/{mid}/replay/{n}")
    page.keyboard.press("Enter")
    page.wait_for_function(f"window.__replay.moving && window.__replay.stroke === {n}")
    replayed = recompute(record)
    before, seat, shot = replayed.before[n]
    assert isinstance(before, State)
    _, _, result = judge_shot(
        before, seat, shot["x"] - OFFSET, shot["y"] - OFFSET, shot["angle"], shot["speed"]
    )
    for at in (0.2 * result.duration, 0.5 * result.duration):
        sampled = page.evaluate(f"window.__replay.sample({n}, {at})")
        expected = result.positions_at(at, before.board.decel)
        assert {d["id"] for d in sampled} == set(expected)
        for d in sampled:
            ex, ey = expected[d["id"]]
            assert math.hypot(d["x"] - OFFSET - ex, d["y"] - OFFSET - ey) < 1e-6
    resting = page.evaluate(f"window.__replay.resting({n})")
    finals = [Final(d["id"], d["where"], d["x"], d["y"], False) for d in resting]
    assert state_hash(finals) == shots[1]["hash"] == motion["hash"]
    after = at_step(page, 2)
    assert same_discs(after["discs"], rep["steps"][1]["discs"])
    page.fill("#replay-scrub", "15")
    at_step(page, 15)
    page.evaluate("document.activeElement.blur(); window.scrollTo(0, 0)")
    shot_png = artifacts / "replay-viewer-crokinole.png"
    page.screenshot(path=str(shot_png), full_page=True)
    publish(shot_png, "replay-viewer-crokinole.png")

    # the round's last shot: the board cleared, round 2 (002 2 c, 4 f); the result in words
    page.fill("#replay-scrub", "16")
    sixteen = at_step(page, 16)
    assert sixteen["discs"] == [] and "round 2" in page.inner_text("#replay-score")
    page.evaluate("document.activeElement.blur()")  # the keys go to the page, not the slider
    page.keyboard.press("End")
    at_step(page, len(rep["steps"]))
    assert "Kinole won" in page.inner_text("#replay-score")
    # Space plays through from the start, shot after shot
    page.keyboard.press("Home")
    at_step(page, 0)
    page.keyboard.press("Space")
    page.wait_for_function("window.__replay.moving && window.__replay.stroke === 1")
    page.wait_for_function("window.__replay.index >= 2", timeout=TIMEOUT_MS)
    page.keyboard.press("Space")
    assert page.get_attribute("#replay-play", "aria-label") == "Play"
