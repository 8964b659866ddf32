"""Session lives renewed in chunks (server/store/redis_store.py `touch_sessions`) against a
real redis-server: every given session is renewed, however many chunks they take, and no
other session is."""

from __future__ import annotations

from server.store.redis_store import TOUCH_CHUNK, Store, token_key
from tests.conftest import RedisServer


async def test_every_connected_session_is_renewed_across_chunks_and_no_other(
    redis_server: RedisServer,
) -> None:
    db = next(redis_server.dbs)
    redis_server.flush(db)
    store = Store(redis_server.url(db))
    try:
        tokens = [f"tok-{k}" for k in range(2 * TOUCH_CHUNK + 7)]  # three chunks, one partial
        for token in [*tokens, "gone-1", "gone-2"]:
            await store.save_session(token, {"sid": token}, ttl=60)
        await store.touch_sessions(tokens, ttl=3600)
        lives = [await store.redis.pttl(token_key(t)) for t in tokens]
        assert min(lives) > 60_000, "every connected session lives the new ttl"
        for token in ("gone-1", "gone-2"):
            assert await store.redis.pttl(token_key(token)) <= 60_000, "not connected: untouched"
        await store.touch_sessions([], ttl=3600)  # nobody connected: nothing to do
    finally:
        await store.close()
