"""What one client can make the server keep is bounded (docs/reliability.md, "What a client
can make the server keep"): new sessions per address, sessions that expire when unused, the
real client address behind a trusted proxy only, and Redis's memory watched against its
limit, with new sessions and rooms refused before Redis would refuse a live match's writes."""

from __future__ import annotations

import asyncio
import hashlib
import json
from typing import Any
from urllib.error import HTTPError
from urllib.request import urlopen

import pytest
import redis

from server.edge.buckets import KeyedBuckets
from server.edge.proxy import client_address, parse_networks
from server.store.memory import MemoryWatch
from tests.conftest import GameServer
from tests.server.server_client import Client, Msg, get_json
from tests.server.test_server_match_e2e import seat_singles
from tests.waits import until


def health(srv: GameServer) -> Msg:
    return get_json(srv.url + "/healthz")


def session_keys(srv: GameServer) -> int:
    assert srv.redis_url is not None, "a server on Redis"
    return sum(1 for _ in redis.Redis.from_url(srv.redis_url).scan_iter("nv:sess:*"))


async def hello(srv: GameServer, token: str | None = None, **open_args: Any) -> tuple[Client, Msg]:
    """A connection that said hello: its welcome or its error."""
    c = Client("Flood")
    await c.open(srv.ws_url, **open_args)
    await c.send("hello", name="Flood", **({"token": token} if token else {}))
    while True:
        msg = await c.inbox.get()
        if msg["t"] in ("welcome", "error"):
            return c, msg


# -- new sessions per address ------------------------------------------------------------
def test_address_buckets_refill_and_forget_quiet_addresses():
    now = [0.0]
    buckets = KeyedBuckets(rate=1.0, burst=2.0, clock=lambda: now[0])
    assert [buckets.take("a") for _ in range(3)] == [True, True, False]
    assert buckets.take("b"), "each address has its own budget"
    now[0] += 1.0
    buckets.prune()
    assert set(buckets.buckets) == {"a"}, "b refilled: forgotten; a not yet"
    assert buckets.take("a") and not buckets.take("a")


async def test_a_session_flood_from_one_address_is_refused_and_keeps_redis_bounded(game_server):
    srv = game_server(session_burst=5, session_rate=0.01)
    replies = [(await hello(srv))[1] for _ in range(12)]
    welcomed = [r for r in replies if r["t"] == "welcome"]
    refused = [r for r in replies if r["t"] == "error"]
    assert len(welcomed) == 5
    assert {r["code"] for r in refused} == {"rate_limited"}
    assert "new sessions from your address" in refused[0]["message"]
    assert session_keys(srv) == 5, "a refused hello stores nothing"
    # a session that exists is resumed with its token whatever the address's budget
    _c, back = await hello(srv, token=welcomed[0]["token"])
    assert back["t"] == "welcome" and back["session"] == welcomed[0]["session"]
    # another address has its own budget
    _c, other = await hello(srv, local_addr="127.0.0.2")
    assert other["t"] == "welcome"


# -- sessions live while used ------------------------------------------------------------
async def test_an_unused_session_expires_and_a_connected_one_does_not(game_server):
    srv = game_server(session_ttl=2.0)
    gone, welcome = await hello(srv)
    kept, kept_welcome = await hello(srv)
    await gone.close()
    store = redis.Redis.from_url(srv.redis_url)
    key = "nv:sess:" + hashlib.sha256(welcome["token"].encode()).hexdigest()
    # Redis lets it expire ttl after its last use
    await until(lambda: not store.exists(key), 15, "the unused session expired")
    # by then the connected one has lived past the ttl too, renewed every ttl / 3
    _c, reply = await hello(srv, token=welcome["token"])
    assert reply["t"] == "error" and reply["code"] == "bad_token", "expired after its last use"
    await kept.close()
    _c, reply = await hello(srv, token=kept_welcome["token"])
    assert reply["t"] == "welcome", "kept alive while connected, and resumable after"
    ttl = redis.Redis.from_url(srv.redis_url).pttl(
        next(iter(redis.Redis.from_url(srv.redis_url).scan_iter("nv:sess:*")))
    )
    assert 0 < ttl <= 2000, "no session is kept longer than --session-ttl"


async def test_a_seated_player_keeps_the_session_through_a_match_longer_than_its_ttl(
    game_server,
):
    srv = game_server(session_ttl=1.5)
    a, _b, rid = await seat_singles(srv)
    await asyncio.sleep(2.5)  # the subject: the match lasts longer than the session's ttl
    await a.close()
    back = Client("Anu")
    welcome = await back.connect(srv.ws_url, token=a.token)
    assert welcome["seat"] == {"room": rid, "seat": a.seat}


# -- the client's address behind a trusted proxy -----------------------------------------
def test_the_forwarded_address_counts_only_from_a_trusted_proxy():
    trusted = parse_networks("10.0.0.5, 172.28.0.0/16")
    xff = {"X-Forwarded-For": "6.6.6.6, 203.0.113.9, 172.28.0.3"}
    assert client_address("10.0.0.5", xff, trusted) == "203.0.113.9", "right-most untrusted hop"
    assert client_address("198.51.100.1", xff, trusted) == "198.51.100.1", "forged: ignored"
    assert client_address("10.0.0.5", {"X-Real-IP": "203.0.113.7"}, trusted) == "203.0.113.7"
    assert client_address("10.0.0.5", {"X-Forwarded-For": "junk"}, trusted) == "10.0.0.5"
    assert client_address("10.0.0.5", xff, ()) == "10.0.0.5", "no proxy trusted: the peer"


async def test_behind_a_trusted_proxy_each_client_has_its_own_limits(game_server):
    srv = game_server(trusted_proxy="127.0.0.1", conns_per_address=2)
    clients = []
    for i in range(4):  # four clients through the proxy on 127.0.0.1: not one address
        c, reply = await hello(srv, headers={"X-Forwarded-For": f"203.0.113.{i}"})
        assert reply["t"] == "welcome"
        clients.append(c)
    # one forwarded address is still capped
    _c1, reply1 = await hello(srv, headers={"X-Forwarded-For": "203.0.113.0"})
    _c2, reply2 = await hello(srv, headers={"X-Forwarded-For": "203.0.113.0"})
    assert reply1["t"] == "welcome"
    assert reply2["t"] == "error" and reply2["code"] == "too_many_connections"


async def test_a_forged_header_from_an_untrusted_peer_is_ignored(game_server):
    srv = game_server(trusted_proxy="127.0.0.1", conns_per_address=2)
    replies = []
    for i in range(3):  # 127.0.0.9 is not the proxy: its X-Forwarded-For means nothing
        _c, reply = await hello(
            srv, local_addr="127.0.0.9", headers={"X-Forwarded-For": f"203.0.113.{i}"}
        )
        replies.append(reply)
    assert [r["t"] for r in replies] == ["welcome", "welcome", "error"]
    assert replies[2]["code"] == "too_many_connections"


# -- Redis's memory ------------------------------------------------------------------------
def test_the_memory_watch_refuses_from_its_threshold_and_not_without_a_limit():
    watch = MemoryWatch(refuse_at=0.9)
    watch.update(950, 0)
    assert not watch.full, "no maxmemory: nothing to protect"
    watch.update(850, 1000)
    assert not watch.full and watch.warned
    watch.update(900, 1000)
    assert watch.full and watch.view() == {"used": 900, "limit": 1000, "fraction": 0.9}


async def test_at_its_memory_limit_the_server_refuses_new_rooms_while_live_matches_finish(
    game_server, redis_server
):
    srv = game_server(memory_refuse=0.5)  # refused from half: Redis's own use wobbles
    a, b, _rid = await seat_singles(srv)
    _c, earlier = await hello(srv)  # a session made before the limit was reached
    lobby = Client("Lea")
    await lobby.connect(srv.ws_url)
    admin = redis.Redis(port=redis_server.port)
    used = int(admin.info("memory")["used_memory"])
    try:
        admin.config_set("maxmemory", int(used / 0.7))  # at 70 %: past the server's 50 %
        await until(lambda: health(srv)["redis_memory"]["fraction"] >= 0.5, 5, "Redis seen full")
        _c, reply = await hello(srv)
        assert reply["t"] == "error" and reply["code"] == "server_full"
        asks: list[Msg] = [
            {"t": "create", "mode": "singles", "sets": 1, "clock": 60},
            {"t": "quick"},
        ]
        for ask in asks:
            await lobby.send(**{**ask, "mode": "singles"})
            refusal = await lobby.expect("error")
            assert refusal["code"] == "server_full" and "full" in refusal["message"]
        _c, back = await hello(srv, token=earlier["token"])
        assert back["t"] == "welcome", "a known session still comes back"
        # the live match goes on: its strokes are stored and delivered, and it finishes
        for _ in range(2):
            mover = a if a.my_turn() else b
            await mover.strike_once("singles")
            await until(lambda: a.my_turn() or b.my_turn(), what="the next turn")
        await a.send("resign")
        result = await b.expect("result")
        assert result["cause"] == "resign" and result["winner"] == b.own_seat % 2
        await a.send("rematch")  # a new match is new state: refused as a new room is
        refusal = await a.expect("error")
        assert refusal["code"] == "server_full" and "full" in refusal["message"]
        record = await asyncio.to_thread(health, srv)
        assert record["store_errors"] == 0, "no commit was refused by Redis"
    finally:
        admin.config_set("maxmemory", 0)


# -- private matches -----------------------------------------------------------------------
async def test_a_private_match_is_neither_listed_nor_served_without_its_invite(game_server):
    srv = game_server()
    a, b = Client("Priv"), Client("Ate")
    await a.connect(srv.ws_url)
    await b.connect(srv.ws_url)
    await a.send("create", mode="singles", sets=1, clock=60, private=True)
    room = await a.expect("room")
    invite = room["invite"]
    await b.send("join", invite=invite)
    await b.expect("room")
    await a.send("ready")
    await b.send("ready")
    for c in (a, b):  # the match on (both ready) before the resignation: else it is not_now
        while c.room is None or c.room["match"] is None:
            await c.expect("room")
    await a.send("resign")
    result = await b.expect("result")
    assert result["record"].endswith(f"?invite={invite}"), "its players get a working link"
    mid = result["record"].split("/")[3].split("?")[0]
    with urlopen(srv.url + "/api/matches", timeout=5) as r:
        listed = json.loads(r.read())["matches"]
    assert mid not in [m["id"] for m in listed]
    for query in ("", "?invite=wrong"):
        with pytest.raises(HTTPError) as refused:
            urlopen(f"{srv.url}/api/matches/{mid}{query}", timeout=5)
        assert refused.value.code == 404, "to anybody else it does not exist"
    with urlopen(f"{srv.url}/api/matches/{mid}?invite={invite}", timeout=5) as r:
        record = json.loads(r.read())
    assert record["private"] is True and "access" not in record
    assert [e["kind"] for e in record["log"]] == ["start", "resign", "end"]


@pytest.mark.parametrize("path", ["/a%00b", "/" + "x" * 300, "/web/" + "y" * 256 + ".js"])
def test_a_path_no_file_system_holds_is_a_bad_request_not_a_fault(game_server, path):
    srv = game_server()
    with pytest.raises(HTTPError) as refused:
        urlopen(srv.url + path, timeout=5)
    assert refused.value.code == 400
    assert "Traceback" not in srv.log()


# -- room spam and ping floods (issue: hardening, second round) ----------------------------
@pytest.mark.slow  # 20 s or more
async def test_a_room_whose_creator_dropped_is_unlisted_at_once_and_closed_soon(game_server):
    srv = game_server(grace_seconds=120)
    watcher = Client("Lobby")
    await watcher.connect(srv.ws_url)
    host = Client("Host")
    await host.connect(srv.ws_url)
    await host.send("create", mode="singles", sets=1, clock=60, private=False)
    rid = (await host.expect("room"))["id"]
    await watcher.send("lobby")
    while rid not in [r["id"] for r in (await watcher.expect("lobby"))["rooms"]]:
        pass
    await host.close()
    lobby = await watcher.expect("lobby")
    while rid in [r["id"] for r in lobby["rooms"]]:
        lobby = await watcher.expect("lobby")
    assert lobby["counts"]["rooms"] == 0
    # WAITING_GRACE, not the match's 120 s
    await until(lambda: health(srv)["rooms"] == 0, 25, "a table nobody is at closed")


async def test_room_creations_are_counted_per_address_across_connections(game_server):
    srv = game_server(create_burst=3, address_create_burst=4, address_create_rate=0.01)
    codes = []
    for k in range(3):  # each a fresh connection and session: fresh per-connection budgets
        c = Client(f"Spam{k}")
        await c.connect(srv.ws_url)
        for _ in range(2):
            await c.send("create", mode="singles", sets=1, clock=60, private=False)
            reply = await c.inbox.get()
            while reply["t"] not in ("room", "error"):
                reply = await c.inbox.get()
            codes.append(reply.get("code", "room"))
            if reply["t"] == "room":
                await c.send("leave")
                await c.expect("left")
    assert codes.count("room") == 4 and codes.count("rate_limited") == 2


async def test_ping_frames_are_charged_to_the_connection_like_messages(game_server):
    srv = game_server(msg_rate=5, msg_burst=10, abuse_limit=5)
    flooder = Client("Pinger")
    await flooder.connect(srv.ws_url)
    assert flooder.ws is not None
    for _ in range(40):
        await flooder.ws.ping(b"x")
    refusal = await flooder.expect("error", code="rate_limited")
    assert "Too many messages" in refusal["message"]
    await flooder.expect("error", code="abuse")
    honest = Client("Calm")
    await honest.connect(srv.ws_url)
    await honest.send("ping", n=1)
    await honest.expect("pong", n=1)
