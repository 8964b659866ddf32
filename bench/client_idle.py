"""What a page of the client costs the browser while nothing happens: Chromium's CPU, as a
share of one core, over --seconds of a blank page, the lobby, and a table where the player
holds the turn and does nothing (a practice match against the computer, whose stroke clock
runs).

    python -m bench.client_idle [--seconds 10] [--server-root DIR]

Runs a server of this tree (or of --server-root's, another commit's, to compare), opens
headless Chromium (/usr/bin/chromium, as the browser tests do) and reads the CPU time of
every Chromium process it started from /proc, before and after each idle span. A blank
page is Chromium's own floor. The last line is machine-readable.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import psutil
from playwright.sync_api import Page, sync_playwright

from bench.soak import ROOT, start_server, stop_redis

CHROMIUM = "/usr/bin/chromium"
TIMEOUT_MS = 60_000


def chromium_cpu() -> float:
    """CPU seconds so far of every Chromium process this process started."""
    total = 0.0
    for child in psutil.Process(os.getpid()).children(recursive=True):
        try:
            if "chrom" in child.name():
                times = child.cpu_times()
                total += times.user + times.system
        except psutil.Error:
            continue  # ended between the listing and the reading
    return total


def idle_share(seconds: float) -> float:
    """Chromium's CPU over `seconds` of doing nothing, as a share of one core."""
    before = chromium_cpu()
    time.sleep(seconds)  # the subject: what a page costs while nobody acts
    return (chromium_cpu() - before) / seconds


def in_the_lobby(page: Page, base: str) -> None:
    """A guest's name given, the lobby shown."""
    page.goto(base)
    page.fill("#name-input", "Maret")
    page.click("#name-form button[type=submit]")
    page.wait_for_selector("#screen-lobby:not([hidden])", timeout=TIMEOUT_MS)


def at_the_table(page: Page) -> None:
    """From the lobby into a practice match against the computer, the player holding the
    turn."""
    page.click("#computer-details summary")
    page.select_option("#computer-level", "1")
    page.check("#computer-form input[name=practice]")
    page.click("#computer-play")
    mine = "s.phase === 'play' && !s.moving && s.held === 0 && s.turn === s.room.you.seat"
    held = f"(() => {{ const s = window.__novuss?.state; return s && {mine}; }})()"
    page.wait_for_function(held, timeout=TIMEOUT_MS)


def measure(base: str, seconds: float) -> dict[str, float]:
    """Chromium's idle share of a core on a blank page, the lobby and the table."""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        page = browser.new_context(bypass_csp=True).new_page()
        page.goto("about:blank")
        shares = {"blank": idle_share(seconds)}
        in_the_lobby(page, base)
        shares["lobby"] = idle_share(seconds)
        at_the_table(page)
        shares["table"] = idle_share(seconds)
        browser.close()
    return shares


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="each idle span")
    parser.add_argument(
        "--server-root", type=Path, default=ROOT, help="the tree whose server and client run"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp)
        server, port = start_server(data, {"speed_factor": 4}, args.server_root.resolve())
        try:
            shares = measure(f"http://127.0.0.1:{port}", args.seconds)
        finally:
            server.terminate()
            server.wait(30)
            stop_redis(data)
    for what, share in shares.items():
        print(f"{what}: Chromium {share * 100:.1f} % of a core, idle")
    print(" ".join(f"{what}_cpu_pct={share * 100:.1f}" for what, share in shares.items()))


if __name__ == "__main__":
    main()
