"""A session's seat claim (server/store/redis_store.py `claim`) against a real redis-server:
of two processes claiming a session for two rooms at once exactly one wins; the room's commit
confirms it for as long as the session sits there and frees it when it leaves; a claim nobody
confirmed lapses or is released, a confirmed one is not released by mistake."""

from __future__ import annotations

import asyncio

from server.store.redis_store import Commit, Store, claim_key, lease_key
from tests.conftest import RedisServer
from tests.waits import until

OWNER = "p-owner"


async def new_store(redis_server: RedisServer) -> Store:
    db = next(redis_server.dbs)
    redis_server.flush(db)
    return Store(redis_server.url(db))


async def test_of_two_rooms_claimed_at_once_exactly_one_wins(redis_server):
    stores = [await new_store(redis_server)]
    stores.append(Store(stores[0].url))
    try:
        for k in range(20):
            won = await asyncio.gather(
                stores[0].claim(f"s{k}", "r-a"), stores[1].claim(f"s{k}", "r-b")
            )
            assert sorted(won) == [False, True], f"session s{k}: {won}"
            again = await stores[0].claim(f"s{k}", "r-a" if won[0] else "r-b")
            assert again, "the room it holds may be claimed again (a retry)"
    finally:
        for s in stores:
            await s.close()


async def test_a_commit_confirms_the_claim_and_leaving_frees_it(redis_server):
    store = await new_store(redis_server)
    try:
        await store.redis.set(lease_key("r1"), OWNER)
        assert await store.claim("s-a", "r1", ttl=0.5)
        await store.commit(
            Commit("r1", {"id": "r1", "seq": 1}, [], [], [], None, seated={"s-a": 0}), owner=OWNER
        )
        # past the unconfirmed claim's life (0.5 s): confirmed, it stays
        await asyncio.sleep(0.8)  # the subject: time past the claim's ttl
        assert await store.redis.get(claim_key("s-a")) == b"r1"
        await store.release("s-a", "r1")  # only an unconfirmed claim is released
        assert not await store.claim("s-a", "r2"), "seated in r1: no seat in r2"
        await store.commit(
            Commit("r1", {"id": "r1", "seq": 2}, [], [], [], None, unseated=["s-a"]), owner=OWNER
        )
        assert await store.claim("s-a", "r2"), "left r1: free to sit in r2"
    finally:
        await store.close()


async def test_an_unconfirmed_claim_lapses_or_is_released(redis_server):
    store = await new_store(redis_server)
    try:
        assert await store.claim("s-b", "r1", ttl=0.3)
        assert not await store.claim("s-b", "r2")

        async def lapsed() -> bool:  # the join that claimed it never committed
            return not await store.redis.exists(claim_key("s-b"))

        await until(lapsed, 10, "the unconfirmed claim lapsed")
        assert await store.claim("s-b", "r2", ttl=5)
        await store.release("s-b", "r1")  # not its claim any more: nothing happens
        assert not await store.claim("s-b", "r3")
        await store.release("s-b", "r2")  # the join refused after claiming lets go
        assert await store.claim("s-b", "r3")
    finally:
        await store.close()
