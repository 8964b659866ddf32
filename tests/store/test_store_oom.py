"""The store at Redis's maxmemory (noeviction), against a real redis-server of its own: a
commit that only adds is refused, but a room closing and a match nobody played being deleted
still go through, so the server frees memory and recovers by itself (issue 37)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from redis.exceptions import ResponseError

from bench.ports import start_redis
from server.store.redis_store import Commit, Store, StoredEvent, lease_key, log_key, match_key

OWNER = "p-owner"


@pytest.fixture
def small_redis(tmp_path: Path) -> Iterator[str]:
    """A redis-server of this test's own (its maxmemory is set by the test)."""
    proc, port = start_redis(tmp_path, "--appendonly", "no", "--maxmemory-policy", "noeviction")
    try:
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def playing(rid: str, mid: str, aborted: bool = False, ended: float | None = None) -> Commit:
    """A room's commit with a match's header and a log entry."""
    record = {"id": mid, "started": 1.0, "ended": ended, **({"aborted": True} if aborted else {})}
    return Commit(
        rid, {"id": rid, "seq": 1}, [StoredEvent.of(1, None, {"t": "room", "seq": 1})],
        log=[(mid, {"kind": "start"})], records=[record], summary={"id": rid},
        seated={"s-" + rid: 0},
    )  # fmt: skip


async def test_at_maxmemory_rooms_close_and_unplayed_matches_go(small_redis):
    store = Store(small_redis)
    r = store.redis
    try:
        for rid in ("r1", "r2", "r3"):
            await r.set(lease_key(rid), OWNER)
            await store.commit(playing(rid, "m" + rid), owner=OWNER)
        # Redis at its limit: what is used now is all it may hold
        used = int((await r.info("memory"))["used_memory"])
        await r.config_set("maxmemory", used - 1024)
        with pytest.raises(ResponseError, match="OOM"):
            await store.commit(playing("r1", "mr1"), owner=OWNER)
        # a match nobody played ends: its header and log are deleted, and nothing is added
        await store.commit(playing("r2", "mr2", aborted=True, ended=2.0), owner=OWNER)
        assert not await r.exists(match_key("mr2"), log_key("mr2"))
        assert await r.zscore("nv:matches", "mr2") is None
        assert await r.xlen("nv:finished") == 0
        # a room closes, with its match's end written after what it frees
        close = Commit("r3", None, [StoredEvent.of(2, None, {"t": "left", "seq": 2})],
                       log=[("mr3", {"kind": "end"})], records=[], summary=None,
                       unseated=["s-r3"])  # fmt: skip
        await store.commit(close, owner=OWNER)
        assert not await r.exists("nv:room:r3", "nv:ev:r3")
        assert await r.sismember("nv:rooms", "r3") == 0
        assert await r.hget("nv:seats", "s-r3") is None
        assert await r.xlen(log_key("mr3")) == 2  # start and end: the record is whole
        # the memory freed makes room again: the first room commits
        await r.config_set("maxmemory", used + 64 * 1024)
        await store.commit(playing("r1", "mr1"), owner=OWNER)
    finally:
        await store.close()


async def test_the_event_stream_keeps_what_the_room_keeps(small_redis):
    store = Store(small_redis, event_buffer=256)
    r = store.redis
    try:
        await r.set(lease_key("r1"), OWNER)
        events = [StoredEvent.of(k, None, {"t": "chat", "seq": k}) for k in range(1, 11)]
        commit = Commit("r1", {"id": "r1", "seq": 10}, events, [], [], None, kept=4)
        await store.commit(commit, owner=OWNER)
        assert await r.xlen("nv:ev:r1") == 4
    finally:
        await store.close()
