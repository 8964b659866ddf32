"""The Redis store against a real redis-server, and the configuration's sources."""

from __future__ import annotations

from pathlib import Path

from server.config import Config, parse_config
from server.store.redis_store import Commit, Store, StoredEvent, token_key


async def test_commit_reload_sessions_and_records(redis_server):
    db = next(redis_server.dbs)
    redis_server.flush(db)
    store = Store(redis_server.url(db), event_buffer=3)
    try:
        events = [
            StoredEvent.of(i, None if i % 2 else 1, {"t": "chat", "seq": i}) for i in range(1, 6)
        ]
        await store.commit(Commit(
            rid="r1", checkpoint={"id": "r1", "seq": 5}, events=events,
            log=[("m1", {"kind": "start"}), ("m1", {"kind": "stroke", "stroke": 1})],
            records=[{"id": "m1", "started": 10.0, "result": None}],
            summary={"id": "r1"},
        ))  # fmt: skip
        ((checkpoint, kept),) = await store.load_rooms()
        assert checkpoint == {"id": "r1", "seq": 5}
        assert [(e.seq, e.audience) for e in kept] == [(3, None), (4, 1), (5, None)]
        record = await store.match_record("m1")
        assert record is not None
        assert [e["kind"] for e in record["log"]] == ["start", "stroke"]
        assert [m["id"] for m in await store.recent_matches(5)] == ["m1"]
        await store.commit(Commit("r1", None, [], [], [], None))
        assert await store.load_rooms() == []
        assert await store.match_record("m1") is not None, "records outlive their room"
        await store.save_session("secret-token", {"sid": "s1", "name": "A"}, 600)
        assert await store.load_session("secret-token") == {"sid": "s1", "name": "A"}
        assert await store.load_session("other") is None
        keys = [k if isinstance(k, str) else k.decode() for k in await store.redis.keys("*")]
        assert token_key("secret-token") in keys
        assert not any("secret-token" in k for k in keys), "only the token's hash is stored"
    finally:
        await store.close()


def test_config_from_arguments_and_environment():
    env = {"NOVUSS_SPEED_FACTOR": "20", "REDIS_URL": "redis://h:1/2", "NOVUSS_DATA_DIR": "/x"}
    config = parse_config(["--port", "9000", "--grace-seconds", "3"], env)
    assert config.port == 9000 and config.grace_seconds == 3.0 and config.speed_factor == 20.0
    assert config.redis_url == "redis://h:1/2" and config.data_dir == Path("/x")
    assert parse_config([], {}) == Config()
    assert parse_config(["--redis-url", "redis://a"], env).redis_url == "redis://a"
