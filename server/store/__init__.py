"""Storage in Redis: rooms' checkpoints and event buffers, match logs and records, sessions."""

from server.store.redis_store import Store, StoredEvent

__all__ = ["Store", "StoredEvent"]
