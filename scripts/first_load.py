"""First-load figures of the web client (docs/client.md, "First load"): for the lobby (`/`,
a returning player with a name) and the table (a watcher opening a live match,
`/?room=<id>`), the requests and bytes of a cold load (what crossed the wire, and what it
would be gzipped) and the time to interactive in Chromium, over loopback and on a throttled
profile (Lighthouse's mobile: 150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up, the CPU
4 times slower).

    .venv/bin/python scripts/first_load.py            # starts a server of its own
    .venv/bin/python scripts/first_load.py --url http://127.0.0.1:8000

The last line is one JSON object with every figure."""

from __future__ import annotations

import argparse
import gzip
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import msgpack
from playwright.sync_api import Browser, sync_playwright
from websockets.sync.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
STARTUP_S = 120.0
THROTTLED = {"latency": 150, "download": 1.6e6 / 8, "upload": 750e3 / 8, "cpu": 4}
# interactive: the screen shown, its controls wired (the page's hook has the state), the
# table drawn once (its labels are laid out as it is drawn)
READY = {
    "lobby": "window.__novuss?.state?.screen === 'screen-lobby' && "
    "!document.querySelector('#create-btn').disabled",
    "table": "window.__novuss?.state?.screen === 'screen-match' && "
    "window.__novuss.state.labels.length > 0",
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def server(url: str | None) -> Iterator[str]:
    """The server to measure: `url`, or one started here (embedded Redis, a temporary dir)."""
    if url:
        yield url.rstrip("/")
        return
    port = free_port()
    with tempfile.TemporaryDirectory() as data:
        cmd = [sys.executable, "-m", "server", "--port", str(port), "--data-dir", data]
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        base = f"http://127.0.0.1:{port}"
        try:
            # its embedded PostgreSQL may take a minute to start on a loaded machine
            deadline = time.monotonic() + STARTUP_S
            while True:
                try:
                    urllib.request.urlopen(base + "/healthz", timeout=1)
                    break
                except OSError:
                    if time.monotonic() > deadline or proc.poll() is not None:
                        raise RuntimeError("the server did not start") from None
                    time.sleep(0.1)
            yield base
        finally:
            proc.terminate()
            proc.wait(10)


def _player(base: str, name: str) -> ClientConnection:
    ws = connect(base.replace("http", "ws", 1) + "/ws")  # closed by live_match
    ws.send(msgpack.packb({"t": "hello", "name": name}))
    return ws


def _until(ws: ClientConnection, kind: str) -> dict[str, Any]:
    while True:
        msg = msgpack.unpackb(ws.recv(timeout=10))
        if msg.get("t") == kind:
            return dict(msg)


@contextmanager
def live_match(base: str) -> Iterator[str]:
    """A singles match being played between two websocket players; its room id."""
    a, b = _player(base, "Maret"), _player(base, "Jaan")
    try:
        a.send(msgpack.packb({"t": "create", "mode": "singles", "sets": 4, "clock": 300}))
        room = str(_until(a, "room")["id"])
        b.send(msgpack.packb({"t": "join", "room": room}))
        _until(b, "room")
        for ws in (a, b):
            ws.send(msgpack.packb({"t": "ready", "ready": True}))
        yield room
    finally:
        a.close()
        b.close()


def measure(browser: Browser, url: str, ready: str, throttled: bool) -> dict[str, Any]:
    """One cold load of `url` in a fresh context (a remembered name): requests, bytes on the
    wire, bytes gzipped, and ms from navigation to `ready`."""
    # bypass_csp: Playwright evaluates the `ready` test by eval, which the pages' policy (no
    # 'unsafe-eval', server/edge/headers.py) refuses; what is loaded and when is the same
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    ctx.add_init_script("localStorage.setItem('novuss.name', 'Tiiu')")
    page = ctx.new_page()
    cdp = ctx.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    if throttled:
        cdp.send(
            "Network.emulateNetworkConditions",
            {
                "offline": False,
                "latency": THROTTLED["latency"],
                "downloadThroughput": THROTTLED["download"],
                "uploadThroughput": THROTTLED["upload"],
            },
        )
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": THROTTLED["cpu"]})
    wire: dict[str, float] = {}
    urls: dict[str, str] = {}
    cdp.on(
        "Network.requestWillBeSent", lambda e: urls.update({e["requestId"]: e["request"]["url"]})
    )
    cdp.on(
        "Network.loadingFinished", lambda e: wire.update({e["requestId"]: e["encodedDataLength"]})
    )
    start = time.perf_counter()
    page.goto(url, wait_until="commit")
    page.wait_for_function(ready, timeout=120_000, polling="raf")
    tti = (time.perf_counter() - start) * 1000
    page.wait_for_load_state("networkidle")
    http = {rid: u for rid, u in urls.items() if u.startswith("http")}
    gz = 0
    for u in http.values():
        with urllib.request.urlopen(u) as r:
            gz += len(gzip.compress(r.read(), 6))
    ctx.close()
    return {
        "requests": len(http),
        "bytes": int(sum(wire.get(rid, 0) for rid in http)),
        "gzip_bytes": gz,
        "tti_ms": round(tti),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", help="a running server (default: start one)")
    parser.add_argument("--runs", type=int, default=3, help="loads per figure (the median)")
    args = parser.parse_args(argv)
    out: dict[str, Any] = {}
    with server(args.url) as base, sync_playwright() as p:
        flags = ["--no-sandbox", "--disable-gpu"]
        browser = p.chromium.launch(executable_path=CHROMIUM, args=flags)
        with live_match(base) as room:
            pages = {"lobby": f"{base}/", "table": f"{base}/?room={room}"}
            for name, url in pages.items():
                for profile in ("loopback", "throttled"):
                    slow = profile == "throttled"
                    runs = [measure(browser, url, READY[name], slow) for _ in range(args.runs)]
                    runs.sort(key=lambda r: r["tti_ms"])
                    fig = dict(runs[len(runs) // 2])
                    fig["tti_ms_runs"] = [r["tti_ms"] for r in runs]
                    out[f"{name}_{profile}"] = fig
                    print(
                        f"{name:6} {profile:9} {fig['requests']:3} requests"
                        f"  {fig['bytes'] / 1024:7.1f} KiB on the wire"
                        f"  {fig['gzip_bytes'] / 1024:6.1f} KiB gzipped"
                        f"  interactive in {fig['tti_ms']} ms (runs {fig['tti_ms_runs']})"
                    )
        browser.close()
    out["cpu"] = os.cpu_count()
    print(json.dumps(out, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
