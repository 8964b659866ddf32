"""Several `python -m server` processes on one Redis (issue 8): players and a watcher on
different processes, the owner killed mid-match, quick match across processes."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import redis

from tests.server.server_client import Client, connected, get_json
from tests.waits import until


async def room_on(a: Client, b: Client, w: Client) -> str:
    """a creates a singles room; b finds it in the lobby of its own process and joins; both
    ready; w watches. Returns the room id once the match has started for all three."""
    await b.send("lobby")
    await b.expect("lobby")
    await a.send("create", mode="singles", sets=1, clock=60, private=False)
    rid: str = (await a.expect("room"))["id"]
    while not any(r["id"] == rid for r in (await b.expect("lobby", timeout=5))["rooms"]):
        pass
    await b.send("join", room=rid)
    await b.expect("room", you={"role": "player", "seat": 1})
    await a.send("ready")
    await b.send("ready")
    for c in (a, b):
        while c.room is None or c.room["match"] is None:
            await c.inbox.get()
    await w.send("watch", room=rid)
    snap = await w.expect("room")
    assert snap["you"] == {"role": "watcher", "seat": None} and snap["status"] == "playing"
    return rid


def gapless(c: Client) -> bool:
    """Every sequenced event once, in order, from the first one seen."""
    return c.seqs == list(range(c.seqs[0], c.seqs[0] + len(c.seqs)))


async def test_players_on_two_processes_finish_a_match_a_third_watches(game_cluster):
    a_srv, b_srv, c_srv = game_cluster(3, speed_factor=25)
    (a,) = await connected(a_srv.ws_url, "Anu")
    (b,) = await connected(b_srv.ws_url, "Boris")
    (w,) = await connected(c_srv.ws_url, "Watcher")
    rid = await room_on(a, b, w)
    results = await asyncio.gather(a.play("singles"), b.play("singles"))
    assert results[0] == results[1] and results[0]["winner"] in (0, 1)
    final = await w.expect("result", timeout=30)
    assert final == results[0]
    assert a.discs == b.discs == w.discs, "the same final positions everywhere"
    assert all(gapless(c) for c in (a, b, w)), "no event missed or doubled across processes"
    assert a.strokes_seen == b.strokes_seen and len(a.strokes_seen) > 0
    strokes = [m for m in w.seen if m["t"] == "stroke"]
    assert strokes and all(m["paths"] for m in strokes), "motions reach the other processes"
    health = [get_json(s.url + "/healthz") for s in (a_srv, b_srv, c_srv)]
    assert [h["rooms"] for h in health] == [1, 0, 0], "the room lives in its creator's process"
    assert health[0]["remote_connections"] == 2
    record = get_json(b_srv.url + results[0]["record"])
    assert record["room"] == rid and len(
        [e for e in record["log"] if e["kind"] == "stroke"]
    ) == len(a.strokes_seen)


async def reconnect(old: Client, url: str) -> Client:
    """A client whose connection was lost connects again (to any process) and resumes."""
    new = Client(old.name)
    welcome = await new.connect(url, token=old.token)
    room = old.room
    assert room is not None
    if old.seat is not None:
        assert welcome["seat"] == {"room": room["id"], "seat": old.seat}
        await new.send("resume", room=room["id"], since=0)
    else:
        await new.send("watch", room=room["id"], since=0)
    await new.expect("room")
    return new


async def closed(c: Client, timeout: float) -> None:
    """Until the server has closed the client's socket."""
    assert c.reader is not None
    await asyncio.wait_for(asyncio.shield(c.reader), timeout)


async def test_killing_the_owner_moves_the_room_and_the_match_finishes(game_cluster):
    owner, b_srv, c_srv = game_cluster(3, speed_factor=25, lease_seconds=3)
    (a,) = await connected(owner.ws_url, "Anu")
    (b,) = await connected(b_srv.ws_url, "Boris")
    (w,) = await connected(c_srv.ws_url, "Watcher")
    rid = await room_on(a, b, w)
    await asyncio.gather(a.play("singles", strokes=3), b.play("singles", strokes=3))
    for c in (a, b):  # at rest after the third stroke
        while c.phase not in ("play", "over"):
            await c.inbox.get()
    mid = a.current_room["match"]["id"]
    before = [e for e in get_json(f"{b_srv.url}/api/matches/{mid}")["log"] if e["kind"] == "stroke"]
    killed = time.monotonic()
    owner.kill()
    # the survivors see the owner gone and close their clients' links to it
    await asyncio.gather(closed(b, 5), closed(w, 5))
    await until(
        lambda: sum(get_json(s.url + "/healthz")["rooms"] for s in (b_srv, c_srv)) == 1,
        killed + 5 - time.monotonic(),
        "a survivor owning the room within seconds (5 s from the kill)",
    )
    took = time.monotonic() - killed
    a2 = await reconnect(a, c_srv.ws_url)  # its process is gone: to another one
    b2 = await reconnect(b, b_srv.ws_url)
    w2 = await reconnect(w, c_srv.ws_url)
    assert a2.current_room["match"]["stroke"] == len(before), "nothing answered was lost"
    results = await asyncio.gather(a2.play("singles"), b2.play("singles"))
    assert results[0] == results[1]
    assert await w2.expect("result", timeout=30) == results[0]
    assert a2.discs == b2.discs == w2.discs
    log = get_json(f"{c_srv.url}/api/matches/{mid}")["log"]
    strokes = [e for e in log if e["kind"] == "stroke"]
    # the same strokes; the archive keeps their times to the millisecond (docs/accounts.md)
    assert [untimed(e) for e in strokes[: len(before)]] == [untimed(e) for e in before]
    assert all(abs(e["at"] - b["at"]) <= 0.001 for e, b in zip(strokes, before, strict=False))
    assert [e["stroke"] for e in strokes] == list(range(1, len(strokes) + 1))
    assert log[-1]["kind"] == "end" and rid == a2.current_room["id"]
    print(f"room taken over {took:.2f} s after the owner was killed")


def untimed(entry: dict[str, Any]) -> dict[str, Any]:
    """A log entry without its time."""
    return {k: v for k, v in entry.items() if k != "at"}


async def test_quick_match_pairs_players_of_two_processes(game_cluster):
    a_srv, b_srv = game_cluster(2)
    (s1,) = await connected(a_srv.ws_url, "Q1")
    (s2, looker) = await connected(b_srv.ws_url, "Q2", "Looker")
    await s1.send("quick", mode="singles")
    assert (await s1.expect("queued"))["waiting"] == 1
    await looker.send("lobby")
    while (await looker.expect("lobby", timeout=5))["queue"]["singles"] != 1:
        pass
    await s2.send("quick", mode="singles")
    for c in (s1, s2):
        await c.expect("room")
        while c.current_room["match"] is None:
            await c.expect("room")
    assert s1.current_room["id"] == s2.current_room["id"] and {s1.seat, s2.seat} == {0, 1}
    await s1.send("chat", text="hello from the other process")
    assert (await s2.expect("chat"))["text"] == "hello from the other process"
    while not any(r["id"] == s1.current_room["id"] for r in (await looker.expect("lobby"))["live"]):
        pass


async def test_quick_match_skips_players_queued_on_a_dead_process(game_cluster):
    gone_srv, b_srv = game_cluster(2)
    (ghost,) = await connected(gone_srv.ws_url, "Ghost")
    await ghost.send("quick", mode="singles")
    await ghost.expect("queued")
    gone = get_json(gone_srv.url + "/healthz")["process"]
    gone_srv.kill()  # its queue entry stays in Redis
    # dead to the cluster once Redis has seen its bus subscription go (server/cluster/lease.py)
    bus = redis.Redis.from_url(b_srv.redis_url)
    channel = f"nv:c:p:{gone}"
    await until(lambda: bus.pubsub_numsub(channel) == [(channel.encode(), 0)], what="it gone")
    s2, s3 = await connected(b_srv.ws_url, "Q2", "Q3")
    await s2.send("quick", mode="singles")
    await s2.expect("queued")
    await s3.send("quick", mode="singles")
    for c in (s2, s3):
        await c.expect("room")
        while c.current_room["match"] is None:
            await c.expect("room")
    assert s2.current_room["id"] == s3.current_room["id"]
    assert sorted(s["name"] for s in s2.current_room["seats"]) == ["Q2", "Q3"], "not the dead one's"


async def test_a_watcher_moving_between_processes_rooms_is_counted_where_it_is(game_cluster):
    a_srv, b_srv = game_cluster(2)
    (host_a,) = await connected(a_srv.ws_url, "HostA")
    (host_b, w) = await connected(b_srv.ws_url, "HostB", "Watcher")
    rooms = []
    for host in (host_a, host_b):
        await host.send("create", mode="singles", sets=1, clock=60, private=False)
        rooms.append((await host.expect("room"))["id"])
    await w.send("watch", room=rooms[0])  # owned by the other process
    await w.expect("room", id=rooms[0])
    assert (await host_a.expect("watchers", timeout=5))["n"] == 1
    assert get_json(a_srv.url + "/healthz")["remote_connections"] == 1
    await w.send("watch", room=rooms[1])  # owned by its own process
    await w.expect("room", id=rooms[1])
    assert (await host_a.expect("watchers", timeout=5))["n"] == 0
    assert (await host_b.expect("watchers", timeout=5))["n"] == 1
    await host_a.send("chat", text="only for my room")
    await host_b.send("chat", text="hello watcher")
    assert (await w.expect("chat"))["text"] == "hello watcher"
    assert get_json(a_srv.url + "/healthz")["remote_connections"] == 0, "forgotten there"
