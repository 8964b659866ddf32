"""python -m server: run the game server (web client, websocket, embedded Redis by default)."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys

import uvloop
from aiohttp import web

from server import gc_policy
from server.app import DOOR, make_app
from server.config import Config, parse_config
from server.edge import logs as bad_requests
from server.store.postgres import PostgresError

log = logging.getLogger("novuss.main")


def main(argv: list[str] | None = None) -> None:
    """Parse the options, print the URL and serve until interrupted."""
    config = parse_config(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    logging.getLogger("aiohttp.access").setLevel(logging.WARNING)
    bad_requests.install()  # one line per request that cannot be parsed
    # uvloop: sockets, timers and the write path in C, where the fan-out spends its time
    loop = uvloop.new_event_loop() if config.event_loop == "uvloop" else asyncio.new_event_loop()
    gc_policy.tune()
    asyncio.set_event_loop(loop)
    try:
        loop.run_until_complete(serve(config))
    finally:
        loop.close()


async def serve(config: Config) -> None:
    """Serve until SIGINT or SIGTERM, every connection counted at the door
    (server/net/door.py)."""
    # aiohttp's keep-alive timer runs from the accept and from each answer until a request
    # has been read: it is the time a client has to send one
    try:
        app = make_app(config)
        runner = web.AppRunner(app, keepalive_timeout=config.header_timeout)
        await runner.setup()
    except PostgresError as e:  # one line, and a non-zero exit
        print(f"novuss: {e}", file=sys.stderr, flush=True)
        raise SystemExit(2) from None
    assert runner.server is not None
    app[DOOR].attach(runner.server)
    # what the start made (the app, the hub, the stores' clients, modules imported on the
    # way) frozen too before the first client: else the clock's first collection walked it
    # all, a pause of 178 ms (load 12) seconds after the start (bench.abuse --only ...)
    gc_policy.tune()
    site = web.TCPSite(runner, config.host, config.port, backlog=1024)
    await site.start()
    print(f"Novuss online at http://{config.host}:{config.port}/", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        # A second signal, or the stop's time run out, ends the process at once: a clean stop
        # waits on Redis (commits, leases, the embedded Redis saving), and a Redis at its
        # memory limit or stalled held it past 25 s (issue 37). What is lost is what was
        # never committed; the rooms reload from their last commit, as after a SIGKILL.
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, _exit_now, "a second signal")
        try:
            async with asyncio.timeout(config.stop_seconds):
                await runner.cleanup()
        except TimeoutError:
            _exit_now(f"not stopped within {config.stop_seconds:g} s")


def _exit_now(why: str) -> None:
    """End the process now (its worker threads and processes with it)."""
    log.error("%s: exiting without a clean stop", why)
    logging.shutdown()
    os._exit(1)


if __name__ == "__main__":
    main(sys.argv[1:])
