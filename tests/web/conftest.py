"""Fixtures of the browser tests: the real game server serving web/, and Debian's
Chromium driven by Playwright. Each player gets his own browser context (his
own localStorage, so his own session token)."""

from __future__ import annotations

import fcntl
import os
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import msgpack
import pytest
from playwright.sync_api import Browser, Page, sync_playwright

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-quic",
]


@pytest.fixture(scope="package", autouse=True)
def client_built() -> None:
    """The client's build of the sources as they are (web/build.mjs; at once when it is), so
    that these tests drive what a user gets: the server serves the sources instead of a stale
    build, and would otherwise test those. One build at a time: the workers of
    `pytest -n 2 tests/web` each built into the same web/dist at once, and left it with no
    scripts (every page a 404's blank)."""
    web = ROOT / "web"
    with (web / "build.mjs").open("rb") as script:
        fcntl.flock(script, fcntl.LOCK_EX)  # held until the file closes
        subprocess.run(["node", "build.mjs"], cwd=web, check=True, stdout=subprocess.DEVNULL)


@pytest.fixture
def web_server(request: pytest.FixtureRequest) -> Iterator[str]:
    """A real game server (tests/conftest.py's game_server, on a real Redis) serving
    web/; yields its base URL. Motion plays at twice the real speed so the tests wait
    less; a dropped player keeps the seat the full 2 minutes. With NOVUSS_WEB_TEST_URL
    set, the tests drive that running server instead."""
    external = os.environ.get("NOVUSS_WEB_TEST_URL")
    if external:
        yield external.rstrip("/")
        return
    start = request.getfixturevalue("game_server")
    yield start(speed_factor=2, grace_seconds=120).url


@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    """Chromium, for the tests of this folder. Not for the session: between two of its sync
    calls Playwright marks its event loop as the thread's running loop (playwright/_impl/
    _greenlets.py, wait_for_future), and an async test run after the browser tests while
    Playwright was still up failed ("cannot be called from a running event loop"). Its package
    scope ends it, and that mark with it, when the last test of tests/web is done."""
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def new_page(browser: Browser) -> Iterator[Callable[..., Page]]:
    """Open a page in a fresh context (a separate player); closes them all afterwards.
    Page errors fail the test: the client must not throw."""
    contexts = []
    errors: list[str] = []

    def log_error(page: Page, frame: bytes | str) -> None:
        msg = msgpack.unpackb(frame) if isinstance(frame, bytes) else frame
        if isinstance(msg, dict) and msg.get("t") == "error":
            print(f"[page {id(page):x}] server error: {msg}")
        elif isinstance(msg, dict) and msg.get("t") == "left":  # out of a room: asked or not
            print(f"[page {id(page):x}] server: {msg}")

    def make(viewport: tuple[int, int] = (1280, 800), scale: float = 1, **kw: Any) -> Page:
        # the tests' own probes (wait_for_function with a string) are evaluated as strings,
        # which the server's Content Security Policy forbids a page: bypassed for them, not
        # for tests/web/test_security_headers.py, which runs the pages under the policy
        kw.setdefault("bypass_csp", True)
        ctx = browser.new_context(
            viewport={"width": viewport[0], "height": viewport[1]}, device_scale_factor=scale, **kw
        )
        contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        # Shown by pytest when a test fails: what the page said, the server's refusals, and
        # every `left` (a room closed under the page, say).
        page.on("console", lambda m: print(f"[page {id(page):x}] console {m.type}: {m.text}"))
        page.on("websocket", lambda ws: ws.on("framereceived", lambda f: log_error(page, f)))
        return page

    yield make
    for ctx in contexts:
        ctx.close()
    assert not errors, f"errors in the page: {errors}"


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
