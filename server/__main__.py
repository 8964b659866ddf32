"""python -m server: run the game server (web client, websocket, embedded Redis by default)."""

from __future__ import annotations

import asyncio
import logging
import sys

import uvloop
from aiohttp import web

from server import gc_policy
from server.app import make_app
from server.config import parse_config


def main(argv: list[str] | None = None) -> None:
    """Parse the options, print the URL and serve until interrupted."""
    config = parse_config(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    logging.getLogger("aiohttp.access").setLevel(logging.WARNING)
    url = f"http://{config.host}:{config.port}/"

    def announce(*_args: object) -> None:
        print(f"Novuss online at {url}", flush=True)

    # uvloop: sockets, timers and the write path in C, where the fan-out spends its time
    loop = uvloop.new_event_loop() if config.event_loop == "uvloop" else asyncio.new_event_loop()
    gc_policy.tune()
    web.run_app(make_app(config), host=config.host, port=config.port, print=announce, loop=loop)


if __name__ == "__main__":
    main(sys.argv[1:])
