"""One session, one seat, anywhere (docs/reliability.md): the same session on two processes
is one session (the newer connection replaces the older), and joins raced on two processes
seat it once (an atomic claim in Redis, server/store/redis_store.py `claim`)."""

from __future__ import annotations

import asyncio

import redis

from tests.conftest import GameServer
from tests.server.server_client import Client, connected
from tests.waits import until


async def host_room(srv: GameServer, name: str) -> str:
    (host,) = await connected(srv.ws_url, name)
    await host.send("create", mode="singles", sets=1, clock=60, private=False)
    rid: str = (await host.expect("room"))["id"]
    return rid


def answered(c: Client) -> bool:
    """Has c's join been answered (a room or an error), or its connection closed?"""
    return c.ws is None or c.ws.closed or any(m["t"] in ("room", "error") for m in c.seen)


async def test_a_session_saying_hello_on_another_process_replaces_its_older_connection(
    game_cluster,
):
    a_srv, b_srv = game_cluster(2)
    first = Client("Twin")
    welcome = await first.connect(a_srv.ws_url)
    second = Client("Twin")
    await second.connect(b_srv.ws_url, token=welcome["token"])
    replaced = await first.expect("error", code="replaced")
    assert "elsewhere" in replaced["message"]
    await second.send("ping", n=1)
    await second.expect("pong", n=1)  # the newer one stays


async def test_joins_raced_on_two_processes_seat_one_session_once(game_cluster):
    a_srv, b_srv = game_cluster(2)
    for attempt in range(10):
        rooms = [await host_room(a_srv, f"HA{attempt}"), await host_room(b_srv, f"HB{attempt}")]
        one = Client("Racer")
        welcome = await one.connect(a_srv.ws_url)
        # the same session's second connection: raced before the first one is told to go
        two = Client("Racer")
        await two.open(b_srv.ws_url)
        await two.send("hello", name="Racer", token=welcome["token"])
        await asyncio.gather(one.send("join", room=rooms[0]), two.send("join", room=rooms[1]))
        # each join answered (a room or a refusal), or its connection replaced by the other
        both = lambda: answered(one) and answered(two)  # noqa: E731, B023 (awaited at once)
        await until(both, what=f"attempt {attempt} answered")
        seats = redis.Redis.from_url(a_srv.redis_url).hget("nv:seats", welcome["session"])
        held = [
            rid
            for c, rid in zip((one, two), rooms, strict=True)
            for m in c.seen
            if m["t"] == "room" and m.get("you", {}).get("role") == "player" and m["id"] == rid
        ]
        assert len(set(held)) <= 1, f"attempt {attempt}: seated in {held}"
        assert seats is not None or not held
        await one.close()
        await two.close()


async def test_quick_match_never_pairs_a_session_with_itself(game_cluster):
    a_srv, b_srv = game_cluster(2)
    one = Client("Solo")
    welcome = await one.connect(a_srv.ws_url)
    two = Client("Solo")
    await two.open(b_srv.ws_url)
    await two.send("hello", name="Solo", token=welcome["token"])
    await asyncio.gather(one.send("quick", mode="singles"), two.send("quick", mode="singles"))
    # a real opponent still gets a match with that session, and it is the session's only one
    (other,) = await connected(a_srv.ws_url, "Other")
    await other.send("quick", mode="singles")
    room = await other.expect("room", timeout=10)
    while room["status"] != "playing":  # the table is seated one player at a time
        room = await other.expect("room", timeout=10)
    names = sorted(p["name"] for p in room["seats"] if p)
    assert names == ["Other", "Solo"]
    await two.sync()  # the newer connection (the older one is replaced): all sent has come
    for c in (one, two):
        rooms = [m["id"] for m in c.seen if m["t"] == "room"]
        assert set(rooms) <= {room["id"]}, "paired with itself"
