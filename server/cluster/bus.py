"""The bus between server processes: Redis pub/sub, one channel per process.

Players' and watchers' messages for a room owned by another process go to the owner's channel
(`cmd`, with the raw client frame); what the owner sends them comes back on their process's
channel (`to`, the encoded bytes and the connection ids). A broadcast is encoded once by the
owner and published once per process that has somebody in the room, however many connections
there it reaches. One task publishes, in order, so every process receives one room's messages
in the order the owner produced them; one task reads, in order.

Messages (msgpack lists):
  owner -> gateway  ["to", [cid, ...], data, droppable]   deliver bytes to those connections
                                                            (droppable: a preview)
                    ["enter", cid, rid, owner] / ["leave", cid, rid]   the connection's room
                    ["close", cid]                         close it (it connected elsewhere)
  gateway -> owner  ["cmd", pid, cid, sid, name, data]     a client frame to handle
                    ["back", pid, cid, sid, name]          a seated player said hello again
                    ["detach", pid, cid]                   the connection left the room
                    ["closed", pid, cid]                   the connection ended
  everybody         ["lobby"] on the lobby channel          the lobby list changed
                    ["session", sid, pid, at] (idem)        a session said hello there at `at`:
                                                            its older connections elsewhere close
                    ["logout", uid, only, keep] (idem)      logins of account uid ended (only the
                                                            one of hash `only`, or all but `keep`):
                                                            their websockets close
                                                            (server/accounts/logouts.py)

Every message is sealed: MAC_BYTES of HMAC-SHA256 under the cluster's key (`--bus-key`, the
same for every process) precede its msgpack body, and a message whose seal does not verify is
dropped and counted. Whoever can publish on Redis without the key (a client of an exposed
Redis) cannot make a process act for a session it did not see.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import msgpack
from redis.exceptions import RedisError

from server.cluster.lease import process_channel
from server.store.redis_store import P

log = logging.getLogger("novuss.bus")

LOBBY_CHANNEL = P + "c:lobby"
MAC_BYTES = 16  # a truncated HMAC-SHA256: 128 bits, as RFC 2104 allows
Handler = Callable[[list[Any]], Awaitable[None]]


def seal(key: bytes, body: bytes) -> bytes:
    """The message as published: its MAC, then its body."""
    return hmac.digest(key, body, hashlib.sha256)[:MAC_BYTES] + body


def unseal(key: bytes, payload: bytes) -> bytes | None:
    """The body of a message sealed with `key`, or None if its seal does not verify."""
    mac, body = payload[:MAC_BYTES], payload[MAC_BYTES:]
    good = hmac.digest(key, body, hashlib.sha256)[:MAC_BYTES]
    return body if hmac.compare_digest(mac, good) else None


class Bus:
    """This process's end of the bus: an ordered publisher and a subscriber."""

    def __init__(self, redis: Any, pid: str, handler: Handler, key: bytes = b""):
        self.redis = redis
        self.pid = pid
        self.handler = handler
        self.key = key
        self.queue: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
        self.published = 0
        self.received = 0
        self.refused = 0  # messages whose seal did not verify
        self._tasks: list[asyncio.Task[None]] = []
        self._ready = asyncio.Event()

    async def start(self) -> None:
        """Subscribe (before anything can be addressed to this process) and start publishing."""
        self._tasks = [
            asyncio.create_task(self._subscriber()),
            asyncio.create_task(self._publisher()),
        ]
        await asyncio.wait_for(self._ready.wait(), 10)

    async def stop(self) -> None:
        """Publish what is queued, then stop both tasks."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._drained(), 2)
        for task in self._tasks:
            task.cancel()
        if self._tasks:  # wait(), not suppress(CancelledError): a cancel of stop() still counts
            await asyncio.wait(self._tasks)

    async def _drained(self) -> None:
        while not self.queue.empty():
            await asyncio.sleep(0.01)

    # -- sending ---------------------------------------------------------------------
    def send(self, pid: str, message: list[Any]) -> None:
        """Queue a message to another process."""
        self.queue.put_nowait((process_channel(pid), message))

    def deliver(self, pid: str, cid: str, data: bytes, droppable: bool) -> None:
        """Queue bytes for one connection of another process (coalesced with the same bytes
        for its other connections)."""
        self.queue.put_nowait(("to", (pid, cid, data, droppable)))

    def lobby_changed(self) -> None:
        """Tell every process (this one too) that the lobby list changed."""
        self.queue.put_nowait((LOBBY_CHANNEL, ["lobby"]))

    def broadcast(self, message: list[Any]) -> None:
        """Tell every process (this one too) something (on the lobby channel)."""
        self.queue.put_nowait((LOBBY_CHANNEL, message))

    def _batch(self, items: list[tuple[str, Any]]) -> list[tuple[str, bytes]]:
        """Turn queued items into publishes: consecutive deliveries of the same bytes to one
        process (a broadcast) become one message naming all its connections."""
        out: list[tuple[str, list[Any]]] = []
        last: tuple[str, bytes] | None = None
        for channel, body in items:
            if channel != "to":
                out.append((channel, body))
                last = None
                continue
            pid, cid, data, droppable = body
            if last is not None and last[0] == pid and last[1] is data:
                out[-1][1][1].append(cid)
                continue
            out.append((process_channel(pid), ["to", [cid], data, droppable]))
            last = (pid, data)
        return [
            (channel, seal(self.key, msgpack.packb(body, use_bin_type=True)))
            for channel, body in out
        ]

    async def _publisher(self) -> None:
        while True:
            items = [await self.queue.get()]
            while not self.queue.empty():
                items.append(self.queue.get_nowait())
            pipe = self.redis.pipeline(transaction=False)
            batch = self._batch(items)
            for channel, payload in batch:
                pipe.publish(channel, payload)
            try:
                await pipe.execute()
                self.published += len(batch)
            except RedisError:  # the receivers resync when their clients reconnect
                log.exception("publishing %d messages failed", len(batch))

    # -- receiving -------------------------------------------------------------------
    async def _subscriber(self) -> None:
        while True:
            pubsub = self.redis.pubsub()
            try:
                await pubsub.subscribe(process_channel(self.pid), LOBBY_CHANNEL)
                self._ready.set()
                while True:
                    m = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                    if m is None or m["type"] != "message":
                        continue
                    self.received += 1
                    packed = unseal(self.key, m["data"])
                    if packed is None:
                        self.refused += 1
                        log.warning("a bus message without a valid seal was dropped")
                        continue
                    body = msgpack.unpackb(packed, raw=False, strict_map_key=False)
                    try:
                        await self.handler(body)
                    except Exception:  # one bad message must not stop the bus
                        log.exception("handling bus message %r failed", body[:1])
            except (RedisError, OSError):
                log.exception("the bus subscription failed; resubscribing")
                await asyncio.sleep(0.1)  # unsubscribed, others soon count this process dead
            finally:
                with contextlib.suppress(RedisError, OSError):
                    await pubsub.aclose()
