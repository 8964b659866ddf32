"""Helpers of the browser tests: drive the client like a player (names, buttons, mouse
drags on the table), read what a page believes through its read-only hook
(window.__novuss.state), ask the server directly, and check screenshots."""

from __future__ import annotations

import math
import struct
import zlib
from pathlib import Path
from typing import Any

import msgpack
from playwright.sync_api import Page
from websockets.sync.client import connect

TABLE = 1080.0
TIMEOUT_MS = 20_000


def state(page: Page) -> dict[str, Any]:
    return page.evaluate("window.__novuss.state")


def wait_state(page: Page, condition: str, timeout: float = TIMEOUT_MS) -> dict[str, Any]:
    """Wait until the JS expression `condition` over `s` (the page's state) is true."""
    js = f"(() => {{ const s = window.__novuss?.state; return s && ({condition}); }})()"
    page.wait_for_function(js, timeout=timeout)
    return state(page)


def enter(page: Page, base: str, name: str, path: str = "/") -> None:
    """Open the client and give a name."""
    page.goto(base + path)
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
    return state(page)["aim"]


def strike(page: Page, toward: tuple[float, float], pull_mm: float) -> None:
    """Press behind the striker on the line from `toward` (a world point) through it,
    and pull the cue back `pull_mm` further: direction and power by mouse."""
    a = state(page)["aim"]
    dx, dy = toward[0] - a["x"], toward[1] - a["y"]
    n = math.hypot(dx, dy)
    ux, uy = dx / n, dy / n
    press = (a["x"] - ux * 40, a["y"] - uy * 40)
    release = (a["x"] - ux * (40 + pull_mm), a["y"] - uy * (40 + pull_mm))
    drag(page, press, release, steps=15)


def server_room(base: str, room: str) -> dict[str, Any]:
    """The room as the server has it, seen by a fresh watcher over a raw websocket."""
    with connect(base.replace("http", "ws", 1) + "/ws") as ws:
        ws.send(msgpack.packb({"t": "hello", "name": "referee"}))
        ws.send(msgpack.packb({"t": "watch", "room": room}))
        while True:
            msg = msgpack.unpackb(ws.recv(timeout=10))
            if msg["t"] == "room":
                return msg


def read_png(path: Path) -> tuple[int, int, list[bytes]]:
    """Decode an 8-bit RGB(A) PNG (what Chromium writes) into rows of pixels."""
    data = path.read_bytes()
    pos, chunks = 8, []
    width = height = channels = 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        body = data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6), "an 8-bit RGB(A) PNG"
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            chunks.append(body)
        pos += 12 + length
    raw = zlib.decompress(b"".join(chunks))
    stride = width * channels
    rows: list[bytes] = []
    prev = bytearray(stride)
    for r in range(height):
        f = raw[r * (stride + 1)]
        line = bytearray(raw[r * (stride + 1) + 1 : (r + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = prev[i]
            c = prev[i - channels] if i >= channels else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 255
        rows.append(bytes(line) if channels == 3 else bytes(_rgb(line)))
        prev = line
    return width, height, rows


def _rgb(line: bytearray) -> bytearray:
    out = bytearray()
    for i in range(0, len(line), 4):
        out += line[i : i + 3]
    return out


def colours_in(path: Path, box: tuple[float, float, float, float], step: int = 7) -> set:
    """The distinct (coarsened) colours inside a box of the screenshot (fractions of it)."""
    width, height, rows = read_png(path)
    x0, y0, x1, y1 = (
        int(box[0] * width),
        int(box[1] * height),
        int(box[2] * width),
        int(box[3] * height),
    )
    seen = set()
    for y in range(y0, y1, step):
        row = rows[y]
        for x in range(x0, x1, step):
            r, g, b = row[3 * x : 3 * x + 3]
            seen.add((r >> 4, g >> 4, b >> 4))
    return seen


def pixel(path: Path, x: int, y: int) -> tuple[int, int, int]:
    _, _, rows = read_png(path)
    r, g, b = rows[y][3 * x : 3 * x + 3]
    return r, g, b
