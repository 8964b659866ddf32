"""The archivist against a real Redis and a real PostgreSQL, without a server: each finished
match archived once, whatever is delivered twice, and a try cut off half-way leaves nothing
(one transaction), so the next one archives it whole."""

from __future__ import annotations

from typing import Any

import msgpack
import pytest

from server.accounts.store import AccountStore
from server.history.archivist import Archivist
from server.history.store import HistoryStore
from server.store.archive import ArchiveReader
from server.store.postgres import Database
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
        "strokes": 2, "score": [1, 0], "result": {"winner": winner, "reason": "rounds"},
        "private": False,
    }  # fmt: skip


async def finished(store: Store, mid: str, winner: int) -> None:
    """A match's record and its end, as the room's commit writes them."""
    r = store.redis
    await r.set(match_key(mid), msgpack.packb(header(mid, winner)))
    for seat in (0, 1):  # both sides struck: a rated match is rated
        entry: dict[str, Any] = {
            "kind": "stroke",
            "seat": seat,
            "own": 1 - seat,
            "ruling": {"penalty_placed": []},
        }
        await r.xadd(log_key(mid), {"m": msgpack.packb(entry)})
    await r.xadd(P + "finished", {"m": mid})


async def stores(
    redis_server: RedisServer, database: Database
) -> tuple[Store, HistoryStore, Archivist]:
    """A store on a flushed database, its history, and an archivist over them; the accounts
    u0 and u1 registered."""
    n = next(redis_server.dbs)
    redis_server.flush(n)
    store = Store(redis_server.url(n))
    store.archive = ArchiveReader(database)
    history = HistoryStore(store.redis, database)
    accounts = AccountStore(store.redis, database)
    for i in range(2):
        assert await accounts.create(f"u{i}", f"P{i}", f"p{i}", "hash")
    return store, history, Archivist(store, history, accounts, "consumer-1")


async def test_a_match_delivered_twice_is_archived_once(redis_server, database):
    store, history, archivist = await stores(redis_server, database)
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
    assert await database.pool.fetchval("SELECT count(*) FROM matches") == 1
    # the live keys are gone; the record is served from the archive
    assert not await store.redis.exists(match_key("m1"), log_key("m1"))
    record = await store.match_record("m1")
    assert record is not None and record["id"] == "m1" and record["log"][0]["seat"] == 0
    # acknowledged and gone from the stream; nothing pending
    assert await store.redis.xlen(P + "finished") == 0
    assert (await store.redis.xpending(P + "finished", "archivist"))["pending"] == 0
    await store.close()


async def test_a_try_cut_off_half_way_leaves_nothing_and_is_archived_whole_after(
    redis_server, database
):
    store, history, archivist = await stores(redis_server, database)
    await history.ensure_group()
    await finished(store, "m2", winner=1)
    record = await store.match_record("m2")
    assert record is not None

    def crash(skills: Any, earlier: Any) -> Any:
        raise RuntimeError("cut off after the match's row, before the players' parts")

    with pytest.raises(RuntimeError):
        await history.archive(record, ["u0", "u1"], "singles", crash)
    # nothing of it stayed: the transaction rolled back
    assert not await history.archived("m2")
    assert await history.stats("u0") == {}
    assert await history.skills(["u0", "u1"], "singles") == {}
    # the match is still in Redis and in the stream: the archivist archives it whole, once
    assert await archivist.step(block_ms=100) == 1
    await archivist.archive("m2")
    assert await history.archived("m2")
    assert (await history.matches_of("u0", 0, 10)) == (1, ["m2"])
    assert (await history.stats("u0"))["singles:matches"] == 1
    assert (await history.stats("u1"))["singles:win"] == 1
    skills = await history.skills(["u0", "u1"], "singles")
    assert skills["u1"][2] == 1 and skills["u0"][2] == 1  # each rated once
    assert await database.pool.fetchval("SELECT count(*) FROM rating_history") == 2
    await store.close()


async def test_a_record_the_schema_refuses_is_counted_and_left_not_retried_for_ever(
    redis_server, database
):
    store, history, archivist = await stores(redis_server, database)
    await history.ensure_group()
    await finished(store, "mbad", winner=0)
    bad = {**header("mbad", 0), "started": 99.0, "ended": 20.0}  # ends before it started
    await store.redis.set(match_key("mbad"), msgpack.packb(bad))
    await finished(store, "mgood", winner=1)
    assert await archivist.step(block_ms=100) == 2
    assert (archivist.failed, archivist.archived) == (1, 1)
    assert not await history.archived("mbad") and await history.archived("mgood")
    # acknowledged (nothing pending, so not tried again), its record left where it was
    assert await store.redis.xlen(P + "finished") == 0
    assert (await store.redis.xpending(P + "finished", "archivist"))["pending"] == 0
    assert await store.redis.exists(match_key("mbad"), log_key("mbad")) == 2
    await store.close()
