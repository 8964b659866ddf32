"""The fenced room commit (one Lua script run by its SHA1) against a real redis-server: it stores
exactly what the plain MULTI/EXEC commit stores, survives Redis forgetting its script, and a
process without the room's lease writes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from redis.exceptions import DataError

from server.store.redis_store import _FENCED_SHA, Commit, LeaseLost, Store, StoredEvent, lease_key
from tests.conftest import RedisServer

OWNER = "p-owner"


async def new_store(redis_server: RedisServer, event_buffer: int = 3) -> Store:
    db = next(redis_server.dbs)
    redis_server.flush(db)
    return Store(redis_server.url(db), event_buffer=event_buffer)


def commits() -> list[Commit]:
    """A room's life: seated, strokes with events (some for one team), log and record headers
    (float start times), a private room's invite, a player leaving, and the room closing."""
    text = "Tõnu lõi ✓ \x00\xff"  # non-ASCII text and odd code points survive the round trip
    return [
        Commit(
            "r1", {"id": "r1", "seq": 2, "blob": b"\x00\xc4\xff", "x": 638.25}, [
                StoredEvent.of(1, None, {"t": "room", "seq": 1, "name": text}),
                StoredEvent.of(2, 1, {"t": "chat", "seq": 2, "text": text}),
            ],
            log=[("m1", {"kind": "start", "t": 1.5})],
            records=[{"id": "m1", "started": 1763800000.123456, "result": None}],
            summary={"id": "r1", "players": [{"name": text}]},
            seated={"s-a": 0, "s-b": 1}, invite="inv-1",
        ),
        Commit(
            "r1", {"id": "r1", "seq": 6}, [StoredEvent.of(k, k % 2 or None, {"seq": k})
                                           for k in range(3, 7)],
            log=[("m1", {"kind": "stroke", "stroke": 1}), ("m1", {"kind": "end"})],
            records=[{"id": "m1", "started": 1763800000.123456, "result": [1, 0]},
                     {"id": "m2", "started": 1763800099, "result": None}],
            summary=None, unseated=["s-b"], invite="inv-1",
        ),
        Commit("r2", {"id": "r2", "seq": 1}, [StoredEvent.of(1, None, {"seq": 1})], [], [],
               {"id": "r2"}, seated={"s-c": 0}),
        Commit("r2", None, [], [("m3", {"kind": "end"})], [], None, unseated=["s-c"]),
    ]  # fmt: skip


def text(reply: bytes | str) -> str:
    """A Redis reply as text (redis-py types replies as bytes or str)."""
    return reply if isinstance(reply, str) else reply.decode()


async def contents(store: Store) -> dict[bytes | str, tuple[str, Any]]:
    """Every key's type and value (a stream's entries without their time-based ids)."""
    r, out = store.redis, {}
    for key in sorted(await r.keys("*")):
        kind = text(await r.type(key))
        if kind == "string":
            value: Any = await r.get(key)
        elif kind == "set":
            value = sorted(await r.smembers(key))
        elif kind == "hash":
            value = await r.hgetall(key)
        elif kind == "zset":
            value = await r.zrange(key, 0, -1, withscores=True)
        elif kind == "stream":
            entries = await r.xrange(key)
            assert entries is not None
            value = [fields for _id, fields in entries]
        else:
            raise AssertionError(f"unexpected {kind} at {key!r}")
        out[key] = (kind, value)
    return out


async def test_the_fenced_commit_stores_exactly_what_multi_exec_stores(redis_server):
    fenced, plain = await new_store(redis_server), await new_store(redis_server)
    try:
        for rid in ("r1", "r2"):
            await fenced.redis.set(lease_key(rid), OWNER)
            await plain.redis.set(lease_key(rid), OWNER)
        for c in commits():
            await fenced.commit(c, owner=OWNER)
            await plain.commit(c)
        stored = await contents(fenced)
        assert stored == await contents(plain)
        assert len(stored[b"nv:ev:r1"][1]) == 3, "the event stream is capped at event_buffer"
        assert b"nv:room:r2" not in stored and b"nv:room:r1" in stored
        loaded = await fenced.load_room("r1")
        assert loaded is not None
        (checkpoint, kept) = loaded
        assert checkpoint == {"id": "r1", "seq": 6}
        assert [(e.seq, e.audience) for e in kept] == [(4, None), (5, 1), (6, None)]
    finally:
        await fenced.close()
        await plain.close()


async def test_a_commit_still_lands_when_redis_has_forgotten_the_script(redis_server):
    store = await new_store(redis_server)
    try:
        await store.redis.set(lease_key("r1"), OWNER)
        first, second = commits()[:2]
        await store.commit(first, owner=OWNER)
        assert await store.redis.script_exists(_FENCED_SHA) == [True]
        await store.redis.script_flush()  # what a restarted Redis looks like to the script
        assert await store.redis.script_exists(_FENCED_SHA) == [False]
        await store.commit(second, owner=OWNER)
        loaded = await store.load_room("r1")
        assert loaded is not None and loaded[0]["seq"] == 6
        assert await store.redis.script_exists(_FENCED_SHA) == [True], "cached again"
        record = await store.match_record("m1", live_only=True)
        assert record is not None
        assert [e["kind"] for e in record["log"]] == ["start", "stroke", "end"], "each entry once"
    finally:
        await store.close()


@pytest.mark.parametrize("flushed", [False, True], ids=["cached", "script-flushed"])
async def test_without_the_lease_nothing_is_written(redis_server, flushed):
    store = await new_store(redis_server)
    try:
        await store.redis.set(lease_key("r1"), "p-other")
        await store.redis.set(lease_key("r2"), "p-other")
        if flushed:
            await store.redis.script_flush()
        for c in commits():
            with pytest.raises(LeaseLost):
                await store.commit(c, owner=OWNER)
        await store.redis.delete(lease_key("r1"))  # an expired lease is not ours either
        with pytest.raises(LeaseLost):
            await store.commit(commits()[0], owner=OWNER)
        assert sorted(await store.redis.keys("*")) == [lease_key("r2").encode()]
    finally:
        await store.close()


async def test_an_id_that_is_not_a_str_is_refused_before_anything_is_written(redis_server):
    store = await new_store(redis_server)
    try:
        await store.redis.set(lease_key("r1"), OWNER)
        bad = commits()[0]
        bad.unseated = [None]  # type: ignore[list-item]  # the ill-typed id under test
        with pytest.raises(DataError):
            await store.commit(bad, owner=OWNER)
        bad = commits()[0]
        bad.records = [{"id": "m1", "started": None}]
        with pytest.raises(DataError):
            await store.commit(bad, owner=OWNER)
        assert await store.redis.keys("*") == [lease_key("r1").encode()]
    finally:
        await store.close()
