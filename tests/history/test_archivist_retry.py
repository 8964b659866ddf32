"""The archivist against a real Redis, without a server: each finished match archived once,
whatever is delivered twice, and a try cut off half-way finished with its own numbers."""

from __future__ import annotations

from typing import Any

import msgpack
import pytest

from server.accounts.store import AccountStore
from server.history.archivist import Archivist
from server.history.store import HistoryStore, pm_key
from server.history.summary import summarise
from server.store.redis_store import P, Store, log_key, match_key
from tests.conftest import RedisServer

pytestmark = pytest.mark.asyncio


def header(mid: str, winner: int) -> dict[str, Any]:
    """A finished match's header, two accounts on it."""
    players = [
        {"seat": i, "team": i, "name": f"P{i}", "sid": f"s{i}", "account": f"u{i}"}
        for i in range(2)
    ]
    return {
        "id": mid, "room": "r1", "game": "novuss", "mode": "singles", "sets": 1, "clock": 30.0,
        "players": players, "rated": True, "started": 10.0, "ended": 20.0 + len(mid),
        "strokes": 1, "score": [1, 0], "result": {"winner": winner, "reason": "rounds"},
        "private": False,
    }  # fmt: skip


async def finished(store: Store, mid: str, winner: int) -> None:
    """A match's record and its end, as the room's commit writes them."""
    r = store.redis
    await r.set(match_key(mid), msgpack.packb(header(mid, winner)))
    entry = {"kind": "stroke", "seat": 0, "own": 1, "ruling": {"penalty_placed": []}}
    await r.xadd(log_key(mid), {"m": msgpack.packb(entry)})
    await r.xadd(P + "finished", {"m": mid})


async def stores(redis_server: RedisServer) -> tuple[Store, HistoryStore, Archivist]:
    """A store on a flushed database, its history, and an archivist over them."""
    db = next(redis_server.dbs)
    redis_server.flush(db)
    store = Store(redis_server.url(db))
    history = HistoryStore(store.redis)
    return store, history, Archivist(store, history, AccountStore(store.redis), "consumer-1")


async def test_a_match_delivered_twice_is_archived_once(redis_server):
    store, history, archivist = await stores(redis_server)
    await history.ensure_group()
    await finished(store, "m1", winner=0)
    assert await archivist.step(block_ms=100) == 1
    await archivist.archive("m1")  # delivered again (a claim after a stall, say)
    assert await history.stats("u0") == {
        "singles:matches": 1, "singles:win": 1, "singles:strokes": 1, "singles:pocketed": 1,
        "singles:penalties": 0,
    }  # fmt: skip
    assert await history.matches_of("u1", 0, 10) == (1, ["m1"])
    assert len(await history.rating_history("u0", "singles", 10)) == 1
    # acknowledged and gone from the stream; nothing pending
    assert await store.redis.xlen(P + "finished") == 0
    assert (await store.redis.xpending(P + "finished", "archivist"))["pending"] == 0
    await store.close()


async def test_a_try_cut_off_half_way_is_finished_with_its_own_numbers(redis_server):
    store, history, archivist = await stores(redis_server)
    await finished(store, "m2", winner=1)
    record = await store.match_record("m2")
    assert record is not None
    plan = summarise(record, {})
    # the crash: the plan stored and the first player's part written, nothing else
    await store.redis.hset(P + "arc:{m2}", "plan", plan.pack())
    await history._apply(plan, "u0", True)
    # meanwhile u0 is rated again elsewhere: a recomputation would use that, the plan not
    await store.redis.hset(P + "rating:{u0}", "singles", msgpack.packb([40.0, 2.0, 9]))
    await archivist.archive("m2")
    assert await history.archived("m2")
    skills = await history.skills(["u0", "u1"], "singles")
    mu, sigma, n, _ = plan.ratings["u1"]
    assert skills["u1"] == (mu, sigma, n)  # the planned rating, not one recomputed
    assert skills["u0"] == (40.0, 2.0, 9)  # u0's part was not applied twice
    assert (await history.matches_of("u0", 0, 10)) == (1, ["m2"])
    assert await store.redis.zcard(pm_key("u1")) == 1
    assert (await history.stats("u0"))["singles:matches"] == 1
    assert not await store.redis.hexists(P + "arc:{m2}", "plan")
    await store.close()
