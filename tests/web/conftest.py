"""Fixtures of the browser tests: a real Redis, the real game server serving web/, and
Debian's Chromium driven by Playwright. Each player gets his own browser context (his
own localStorage, so his own session token)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.error import URLError
from urllib.request import urlopen

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


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_until(check: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.1)
    raise TimeoutError(f"timed out waiting for {what}")


def _port_open(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return True
    except OSError:
        return False


def _healthy(url: str) -> bool:
    try:
        with urlopen(f"{url}/healthz", timeout=0.5) as r:
            return r.status == 200
    except (URLError, OSError):
        return False


def _stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@pytest.fixture(scope="session")
def web_redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real redis-server on a free port, for this test session only."""
    exe = shutil.which("redis-server", path=f"{ROOT / '.venv' / 'bin'}:{os.environ['PATH']}")
    if exe is None:
        pytest.skip("redis-server not found")
    port = _free_port()
    data = tmp_path_factory.mktemp("redis")
    proc = subprocess.Popen(
        [exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        cwd=data,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _wait_until(lambda: _port_open(port), 10, "redis-server")
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        _stop(proc)


@pytest.fixture(scope="session")
def web_server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """`python -m server` on a free port, serving web/; yields its base URL. With
    NOVUSS_WEB_TEST_URL set, the tests drive that running server instead."""
    external = os.environ.get("NOVUSS_WEB_TEST_URL")
    if external:
        yield external.rstrip("/")
        return
    web_redis = request.getfixturevalue("web_redis")
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    log = (tmp_path_factory.mktemp("server") / "server.log").open("w")
    # Motion plays at twice the real speed: the tests wait for less.
    args = ["--host", "127.0.0.1", "--port", str(port), "--redis-url", web_redis]
    proc = subprocess.Popen(
        [sys.executable, "-m", "server", *args, "--speed-factor", "2"],
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        _wait_until(lambda: _healthy(url) or proc.poll() is not None, 20, "the game server")
        if proc.poll() is not None:
            raise RuntimeError(f"the game server exited: see {log.name}")
        yield url
    finally:
        _stop(proc)
        log.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
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

    def make(viewport: tuple[int, int] = (1280, 800), scale: float = 1, **kw) -> Page:
        ctx = browser.new_context(
            viewport={"width": viewport[0], "height": viewport[1]}, device_scale_factor=scale, **kw
        )
        contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        return page

    yield make
    for ctx in contexts:
        ctx.close()
    assert not errors, f"errors in the page: {errors}"


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
