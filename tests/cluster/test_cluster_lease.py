"""A room lives in exactly one process: leases taken with SET NX PX, fenced commits, and two
processes racing to take over the rooms of a third."""

from __future__ import annotations

import asyncio

import pytest

from server.cluster.lease import RENEW_CHUNK, Leases
from server.store.redis_store import Commit, LeaseLost, Store, lease_key
from tests.conftest import GameServer
from tests.server.server_client import Msg, connected, get_json
from tests.waits import until


def room_commit(rid: str, seq: int) -> Commit:
    return Commit(rid, {"id": rid, "seq": seq}, [], [], [], None)


async def test_two_racing_for_one_room_only_one_owns_it_and_the_loser_cannot_write(redis_server):
    db = next(redis_server.dbs)
    redis_server.flush(db)
    stores = [Store(redis_server.url(db)), Store(redis_server.url(db))]
    try:
        one, two = Leases(stores[0].redis, "p1", ttl=1.0), Leases(stores[1].redis, "p2", ttl=1.0)
        for k in range(20):
            won = await asyncio.gather(one.acquire(f"r{k}"), two.acquire(f"r{k}"))
            assert sorted(won) == [False, True], "exactly one process owns a room"
        rid = "r0"
        winner, loser = (one, two) if await one.owner(rid) == "p1" else (two, one)
        store_w, store_l = (stores[0], stores[1]) if winner is one else (stores[1], stores[0])
        await store_w.commit(room_commit(rid, 1), owner=winner.pid)
        with pytest.raises(LeaseLost):
            await store_l.commit(room_commit(rid, 2), owner=loser.pid)
        assert await seq_of(store_w, rid) == 1, "the loser wrote nothing"
        assert not await loser.take_from(rid, "p-nobody"), "only a named dead owner is replaced"
        assert await winner.renew([rid]) == ([], [])
        # the owner stops renewing (a pause, a cut-off): its lease expires and the other takes
        # the room; the old owner learns it lost the room and can no longer write to it
        await until_expired(winner, rid)
        assert await loser.acquire(rid)
        assert await winner.renew([rid]) == ([rid], [])
        with pytest.raises(LeaseLost):
            await store_w.commit(room_commit(rid, 3), owner=winner.pid)
        await store_l.commit(room_commit(rid, 3), owner=loser.pid)
        assert await seq_of(store_l, rid) == 3
        await until_expired(loser, rid)  # expired with nobody claiming it: its holder takes it back
        assert await loser.renew([rid]) == ([], [rid])
        assert await loser.owner(rid) == loser.pid
    finally:
        for s in stores:
            await s.close()


async def test_renewing_rooms_in_several_scripts_finds_every_lost_and_retaken_one(redis_server):
    db = next(redis_server.dbs)
    redis_server.flush(db)
    store = Store(redis_server.url(db))
    try:
        mine = Leases(store.redis, "p1", ttl=60.0)
        rids = [f"r{k:04d}" for k in range(2 * RENEW_CHUNK + 3)]  # three scripts, one partial
        for rid in rids:
            assert await mine.acquire(rid)
        taken = [rids[1], rids[RENEW_CHUNK + 5], rids[-1]]  # one in each script
        expired = [rids[0], rids[2 * RENEW_CHUNK]]
        for rid in taken:
            await store.redis.set(lease_key(rid), "p2")
        for rid in expired:
            await store.redis.delete(lease_key(rid))
        await store.redis.pexpire(lease_key(rids[7]), 500)
        assert await mine.renew(rids) == (taken, expired)
        assert await store.redis.pttl(lease_key(rids[7])) > 50_000, "every held lease extended"
        assert [await mine.owner(r) for r in expired] == ["p1", "p1"], "expired: held again"
        assert await mine.owner(taken[1]) == "p2", "another's lease is left alone"
    finally:
        await store.close()


async def until_expired(leases: Leases, rid: str) -> None:
    """Until a room's lease has run out in Redis (its PX: Redis keeps the time, not this
    process), polled; failing after a deadline well past the 1 s lease."""

    async def gone() -> bool:
        return await leases.owner(rid) is None

    await until(gone, 5, f"{rid}'s lease run out", every=0.02)


async def renewed(store: Store, rid: str) -> None:
    """Until a room's lease is renewed (its time to live set afresh): its owner's cluster
    loop has ticked since."""
    key = lease_key(rid)
    last = await store.redis.pttl(key)

    async def longer() -> bool:
        nonlocal last
        now = await store.redis.pttl(key)
        up, last = now > last, now
        return up

    await until(longer, 5, f"{rid}'s lease renewed", every=0.02)


async def seq_of(store: Store, rid: str) -> int:
    """The seq of a room's stored checkpoint."""
    loaded = await store.load_room(rid)
    assert loaded is not None, f"{rid} is stored"
    seq: int = loaded[0]["seq"]
    return seq


def health(srv: GameServer) -> Msg:
    return get_json(srv.url + "/healthz")


async def test_two_processes_racing_to_take_over_share_the_rooms_out(game_cluster):
    first, b_srv, c_srv = game_cluster(3)
    players = await connected(first.ws_url, *(f"P{k}" for k in range(6)))
    rids = []
    for p in players:
        await p.send("create", mode="singles", sets=1, clock=60, private=False)
        rids.append((await p.expect("room"))["id"])
    assert health(first)["rooms"] == 6
    first.stop()  # a clean stop releases its leases: the two others race for every room
    await until(lambda: health(b_srv)["rooms"] + health(c_srv)["rooms"] >= 6, 5, "taken over")
    store = Store(b_srv.redis_url)
    try:
        leases = Leases(store.redis, "observer", 1.0)
        owners = await leases.owners(rids)
        for pid in set(owners.values()):  # two more ticks of each: nobody loads a room twice
            rid = next(r for r, p in owners.items() if p == pid)
            for _ in range(2):
                await renewed(store, rid)
        counts = [health(s)["rooms"] for s in (b_srv, c_srv)]
        assert sum(counts) == 6, counts
        owners = await leases.owners(rids)
        pids = {health(s)["process"]: n for s, n in zip((b_srv, c_srv), counts, strict=True)}
        assert set(owners.values()) <= set(pids)
        assert {p: list(owners.values()).count(p) for p in pids} == pids
    finally:
        await store.close()
