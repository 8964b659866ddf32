"""The bus between processes over a real Redis: a broadcast is encoded once and published once
per process, whatever the number of its connections, and arrives in order."""

from __future__ import annotations

from typing import Any

import msgpack

from server.cluster.bus import Bus
from server.cluster.lease import Leases, process_channel
from server.store.redis_store import Store
from tests.waits import until


async def test_one_publish_per_process_in_order(redis_server):
    db = next(redis_server.dbs)
    redis_server.flush(db)
    store = Store(redis_server.url(db))
    got: list[list[Any]] = []

    async def keep(msg: list[Any]) -> None:
        got.append(msg)

    async def ignore(msg: list[Any]) -> None:
        return None

    owner, gateway = Bus(store.redis, "p-owner", ignore), Bus(store.redis, "p-gate", keep)
    try:
        await owner.start()
        await gateway.start()
        leases = Leases(store.redis, "p-owner", 1.0)
        assert await leases.alive(["p-gate", "p-gone"]) == {"p-gate": True, "p-gone": False}
        preview = b"aim bytes"
        for cid in ("c1", "c2", "c3"):  # one broadcast to three connections there
            owner.deliver("p-gate", cid, preview, True)
        owner.send("p-gate", ["leave", "c2", "r1"])
        ruling = b"ruling bytes"
        for cid in ("c1", "c3"):
            owner.deliver("p-gate", cid, ruling, False)
        # the publisher counts once Redis has answered, which may be after the gateway read them
        three = lambda: len(got) >= 3 and owner.published >= 3  # noqa: E731
        await until(three, 5, "three delivered and counted", every=0.01)
        assert got == [
            ["to", ["c1", "c2", "c3"], preview, True],
            ["leave", "c2", "r1"],
            ["to", ["c1", "c3"], ruling, False],
        ]
        assert owner.published == 3
        await gateway.stop()
        assert await leases.alive(["p-gate"]) == {"p-gate": False}, "unsubscribed: dead"
    finally:
        await owner.stop()
        await store.close()


async def test_the_bus_drops_what_a_process_of_the_cluster_did_not_seal(redis_server):
    db = next(redis_server.dbs)
    redis_server.flush(db)
    store = Store(redis_server.url(db))
    got: list[list[Any]] = []

    async def keep(msg: list[Any]) -> None:
        got.append(msg)

    key = b"the cluster's secret"
    owner = Bus(store.redis, "p-owner", keep, key)
    gateway = Bus(store.redis, "p-gate", keep, key)
    stranger = Bus(store.redis, "p-stranger", keep, b"a guess")
    try:
        for bus in (owner, gateway, stranger):
            await bus.start()
        forged = msgpack.packb(["cmd", "p-gate", "c1", "s-victim", "Anu", b"resign"])
        await store.redis.publish(process_channel("p-owner"), forged)  # no seal at all
        stranger.send("p-owner", ["cmd", "p-stranger", "c1", "s-victim", "Anu", b"resign"])
        gateway.send("p-owner", ["closed", "p-gate", "c7"])  # sealed with the key: delivered
        await until(lambda: got and owner.refused >= 2, 5, "one delivered, two refused", every=0.01)
        assert got == [["closed", "p-gate", "c7"]]
        assert owner.refused == 2
    finally:
        for bus in (owner, gateway, stranger):
            await bus.stop()
        await store.close()
