"""SIGTERM stops the server within its stop time whatever Redis answers (issue 37: a server
whose Redis was full did not stop within 25 s). Here Redis answers nothing at all: the
embedded redis-server is frozen with SIGSTOP while a match is being played."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time

from tests.server.server_client import connected


async def test_sigterm_with_redis_frozen_stops_within_the_stop_time(game_server):
    srv = game_server(embedded=True, stop_seconds=3)
    a, b = await connected(srv.ws_url, "Anna", "Brita")
    await a.send("create", mode="singles", sets=1, clock=60, private=False)
    room = await a.expect("room")
    await b.send("join", room=room["id"])
    await b.expect("room", you={"role": "player", "seat": 1})
    redis_pid = int((srv.data_dir / "redis.pid").read_text().strip())
    os.kill(redis_pid, signal.SIGSTOP)
    try:
        for c in (a, b):  # commits that will never be answered
            await c.send("ready", ready=True)
        assert srv.proc is not None
        started = time.monotonic()
        srv.proc.send_signal(signal.SIGTERM)
        try:
            srv.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            raise AssertionError("the server did not stop on SIGTERM within 20 s") from None
        took = time.monotonic() - started
        assert took < 3 + 2, f"stopped after {took:.1f} s"
        assert "exiting without a clean stop" in srv.log()
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(redis_pid, signal.SIGCONT)
