"""The bus between processes over a real Redis: a broadcast is encoded once and published once
per process, whatever the number of its connections, and arrives in order."""

from __future__ import annotations

import asyncio
from typing import Any

from server.cluster.bus import Bus
from server.cluster.lease import Leases
from server.store.redis_store import Store


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
        frame = b"\x82frame bytes"
        for cid in ("c1", "c2", "c3"):  # one broadcast to three connections there
            owner.deliver("p-gate", cid, frame, True)
        owner.send("p-gate", ["leave", "c2", "r1"])
        ruling = b"ruling bytes"
        for cid in ("c1", "c3"):
            owner.deliver("p-gate", cid, ruling, False)
        async with asyncio.timeout(5):
            while len(got) < 3:
                await asyncio.sleep(0.01)
        assert got == [
            ["to", ["c1", "c2", "c3"], frame, True, None],
            ["leave", "c2", "r1"],
            ["to", ["c1", "c3"], ruling, False, None],
        ]
        assert owner.published == 3
        await gateway.stop()
        assert await leases.alive(["p-gate"]) == {"p-gate": False}, "unsubscribed: dead"
    finally:
        await owner.stop()
        await store.close()
