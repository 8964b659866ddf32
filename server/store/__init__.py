"""Storage in Redis: rooms' checkpoints and event buffers, match logs and records, sessions."""

from server.store.redis_store import LeaseLost, Store, StoredEvent

__all__ = ["LeaseLost", "Store", "StoredEvent"]
