"""Helpers of the browser tests: drive the client like a player (names, buttons, mouse
drags on the table), read what a page believes through its read-only hook
(window.__novuss.state), ask the server directly, and check screenshots."""

from __future__ import annotations

import base64
import math
import os
import shutil
from pathlib import Path
from typing import Any

import msgpack
from playwright.sync_api import Page
from websockets.sync.client import connect

TABLE = 1080.0
# Bounds a failure only (every wait ends at its event): two pages paired by a quick match took
# more than 20 s to reach their table beside `python -m bench.load --matches 200` and three
# test workers (load average 14), failing a CI run that was otherwise green.
TIMEOUT_MS = 45_000
DOCS_IMG = Path(__file__).resolve().parents[2] / "docs" / "img"


def publish(shot: Path, name: str) -> None:
    """Copy a screenshot to docs/img/`name` when NOVUSS_UPDATE_SCREENSHOTS is set (or the
    picture is missing), so that a plain test run leaves git clean."""
    target = DOCS_IMG / name
    if os.environ.get("NOVUSS_UPDATE_SCREENSHOTS") or not target.exists():
        shutil.copy(shot, target)


def state(page: Page) -> dict[str, Any]:
    """What the page believes (its read-only hook), once it has a state."""
    s = page.evaluate("window.__novuss.state")
    assert isinstance(s, dict), f"the page has no state yet: {s!r}"
    return s


def frames_drawn(page: Page, frames: int = 2) -> None:
    """Until the page has drawn `frames` more display frames (requestAnimationFrame)."""
    page.evaluate(
        """n => new Promise(done => {
            const step = () => (n-- <= 0 ? done() : requestAnimationFrame(step));
            requestAnimationFrame(step);
        })""",
        frames,
    )


def wait_state(page: Page, condition: str, timeout: float = TIMEOUT_MS) -> dict[str, Any]:
    """Wait until the JS expression `condition` over `s` (the page's state) is true."""
    js = f"(() => {{ const s = window.__novuss?.state; return s && ({condition}); }})()"
    page.wait_for_function(js, timeout=timeout)
    return state(page)


def enter(page: Page, base: str, name: str, path: str = "/") -> None:
    """Open the client and give a name: a guest is asked for one; a logged-in player is
    asked none (he plays under his account's name, shown at once in the header)."""
    page.goto(base + path)
    page.wait_for_selector("#screen-name:not([hidden]), #me-name:not(:empty)")
    if page.is_visible("#screen-name"):
        page.fill("#name-input", name)
        page.click("#name-form button[type=submit]")


def to_world(side: str, u: float, v: float) -> tuple[float, float]:
    """A point in the local frame of the player at `side` (his own rail at v = 0)."""
    return {
        "S": (u, v),
        "N": (TABLE - u, TABLE - v),
        "W": (v, TABLE - u),
        "E": (TABLE - v, u),
    }[side]


def page_xy(page: Page, x: float, y: float) -> tuple[float, float]:
    """Where a world point of the table is on the page, in CSS pixels."""
    px, py = page.evaluate("([x, y]) => window.__novuss.toPage(x, y)", [x, y])
    return px, py


def drag(page: Page, start: tuple[float, float], end: tuple[float, float], steps: int = 12) -> None:
    """A mouse drag between two world points of the table."""
    x0, y0 = page_xy(page, *start)
    x1, y1 = page_xy(page, *end)
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move(x1, y1, steps=steps)
    page.mouse.up()


def place_striker(page: Page, u: float, v: float = 60.0) -> dict[str, Any]:
    """Drag the striker to (u, v) of the player's own frame; returns the aim after."""
    s = wait_state(page, "s.aim !== null")
    side = s["side"]
    drag(page, (s["aim"]["x"], s["aim"]["y"]), to_world(side, u, v))
    aim = state(page)["aim"]
    assert isinstance(aim, dict), "a placed striker is aimed"
    return aim


def px_per_mm(page: Page) -> float:
    """The table's scale on the page."""
    x0, y0 = page_xy(page, 0.0, 0.0)
    x1, y1 = page_xy(page, 100.0, 0.0)
    return math.hypot(x1 - x0, y1 - y0) / 100.0


def strike(page: Page, toward: tuple[float, float], pull_mm: float) -> None:
    """Press behind the striker on the line from `toward` (a world point) through it,
    clear of the area that grabs the striker, and pull the cue back `pull_mm` further:
    direction and power by mouse."""
    a = state(page)["aim"]
    dx, dy = toward[0] - a["x"], toward[1] - a["y"]
    n = math.hypot(dx, dy)
    ux, uy = dx / n, dy / n
    back = max(40.0, 50.0 / px_per_mm(page))
    press = (a["x"] - ux * back, a["y"] - uy * back)
    release = (a["x"] - ux * (back + pull_mm), a["y"] - uy * (back + pull_mm))
    drag(page, press, release, steps=15)


def each_side_strikes(*pages: Page) -> None:
    """Whoever holds the turn places the striker on a free spot of his zone and strikes up
    the table, until each page's player has struck once, each stroke's ruling seen by all: a
    rated match moves ratings only if every side struck (server/history/summary.py)."""
    by_seat = {state(p)["room"]["you"]["seat"]: p for p in pages}
    struck: set[int] = set()
    while struck != set(by_seat):
        s = wait_state(pages[0], "s.phase === 'play' && !s.moving && s.held === 0")
        turn, done = s["turn"], (s.get("ruling") or {}).get("stroke") or 0
        shooter = by_seat[turn]
        side = wait_state(shooter, "s.aim !== null")["side"]
        for u in (400.0, 300.0, 700.0, 200.0, 800.0):
            if place_striker(shooter, u, 60.0)["legal"]:
                break
        strike(shooter, to_world(side, 540.0, 1000.0), pull_mm=140.0)
        for page in pages:
            wait_state(page, f"!s.moving && s.ruling?.stroke === {done + 1}")
        struck.add(turn)


def server_room(base: str, room: str) -> dict[str, Any]:
    """The room as the server has it, seen by a fresh watcher over a raw websocket."""
    with connect(base.replace("http", "ws", 1) + "/ws") as ws:
        ws.send(msgpack.packb({"t": "hello", "name": "Onlooker"}))
        ws.send(msgpack.packb({"t": "watch", "room": room}))
        while True:
            msg = msgpack.unpackb(ws.recv(timeout=10))
            assert isinstance(msg, dict), "every message is a map"
            if msg["t"] == "room":
                return msg


COLOURS_JS = """async ({data, box, step}) => {
  const img = new Image();
  img.src = "data:image/png;base64," + data;
  await img.decode();
  const c = new OffscreenCanvas(img.width, img.height);
  const g = c.getContext("2d");
  g.drawImage(img, 0, 0);
  const [x0, y0, x1, y1] = [box[0] * img.width, box[1] * img.height, box[2] * img.width,
    box[3] * img.height].map(Math.floor);
  const d = g.getImageData(x0, y0, x1 - x0, y1 - y0).data;
  const seen = new Set();
  for (let i = 0; i < d.length; i += 4 * step) {
    seen.add([d[i] >> 4, d[i + 1] >> 4, d[i + 2] >> 4].join());
  }
  return [...seen];
}"""


def colours_in(
    page: Page, path: Path, box: tuple[float, float, float, float]
) -> set[tuple[int, ...]]:
    """The distinct colours (coarsened to 4 bits a channel) inside a box of a screenshot,
    given as fractions of its size; the browser decodes the PNG."""
    data = base64.b64encode(path.read_bytes()).decode()
    found = page.evaluate(COLOURS_JS, {"data": data, "box": list(box), "step": 5})
    return {tuple(int(v) for v in c.split(",")) for c in found}
