"""Writing to many websockets cheaply: a message is encoded once, framed once and, when it is
worth it, compressed once for every receiver.

Why not `ws.send_bytes` per viewer: with permessage-deflate negotiated (every browser offers
it, and aiohttp accepts it) aiohttp compresses every message again for every connection, in
a compressor of its own per connection (a quarter of a megabyte each), and every send goes
through a queue, a writer task and a coroutine. Under load that was most of the server's
time (docs/performance.md, "Server load"). Here a connection's messages are written straight
to its socket as ready-made websocket frames, unmasked as a server's are.

Compression (RFC 7692) only where it pays: messages of COMPRESS_MIN bytes or more (a stroke
with its paths, rulings, room snapshots, lobby lists) are compressed each on its own, in a
fresh deflate window (so a client's own window, whatever it holds, is never referred to),
once for all their receivers when they get the same bytes (the hub encodes a broadcast
once); smaller ones (clock, aim previews, chat) would not shrink enough to pay and go as
they are.
"""

from __future__ import annotations

import asyncio
import socket
import struct
import zlib
from collections.abc import Callable

FIN_BINARY = 0x82  # FIN bit and the binary opcode
RSV1 = 0x40  # "this message is compressed" (RFC 7692 § 6)
DEFLATE_TAIL = b"\x00\x00\xff\xff"  # a sync flush's empty block, left off on the wire
LEVEL = 6  # a stroke with its paths: ~2.3 KB -> ~1.1 KB (median); a ruling ~1.5 KB -> ~0.6 KB
WBITS = 12  # a 4 KiB window: as good as 32 KiB on messages this size, and less memory
MEMLEVEL = 5  # ~32 KiB of compressor state, not ~260 KiB
COMPRESS_MIN = 1024  # messages at least this long are compressed
SEND_BUFFER = 32 * 1024  # the kernel's send buffer per socket (Linux doubles it): see Wire


def ws_frame(payload: bytes, compressed: bool = False) -> bytes:
    """One unfragmented binary websocket frame as a server sends it (no mask)."""
    n = len(payload)
    first = FIN_BINARY | (RSV1 if compressed else 0)
    if n < 126:
        return bytes((first, n)) + payload
    if n < 65536:
        return struct.pack("!BBH", first, 126, n) + payload
    return struct.pack("!BBQ", first, 127, n) + payload


def may_deflate(extensions: str) -> bool:
    """From the handshake's Sec-WebSocket-Extensions answer: may the server send compressed
    messages (permessage-deflate with a window of at least ours)?"""
    ext = extensions.lower()
    if "permessage-deflate" not in ext:
        return False
    for param in ext.split(";"):
        name, _, value = param.strip().partition("=")
        bits = value.strip('" ')
        if name == "server_max_window_bits" and bits.isdigit() and int(bits) < WBITS:
            return False
    return True


def _deflated(data: bytes) -> bytes:
    """A message compressed on its own (a fresh deflate window), framed."""
    z = zlib.compressobj(LEVEL, zlib.DEFLATED, -WBITS, MEMLEVEL)
    return ws_frame(
        (z.compress(data) + z.flush(zlib.Z_SYNC_FLUSH)).removesuffix(DEFLATE_TAIL), True
    )


class _Last:
    """The last message's frame, kept so that the same bytes sent to a whole audience (the
    hub sends one bytes object to every receiver) are framed, and compressed, once."""

    def __init__(self, make: Callable[[bytes], bytes]):
        self.make = make
        self.source: bytes | None = None
        self.framed = b""

    def __call__(self, data: bytes) -> bytes:
        if data is not self.source:
            self.source, self.framed = data, self.make(data)
        return self.framed


_plain = _Last(ws_frame)
_single = _Last(_deflated)


class Wire:
    """One connection's socket: messages written at once, previews dropped when the reader
    falls behind.

    A reader is behind when its socket holds more than a quarter of `hard_limit` unsent
    bytes (past what the kernel took): previews (aim, watcher counts) are dropped then (the
    next one supersedes them), events never. A reader so far behind that even the events
    pile up past `hard_limit` is hopeless: send() says so and the hub drops the connection
    (its client resyncs when it reconnects).

    The kernel's send buffer is kept small (SEND_BUFFER): left to autotune, on loopback it
    takes megabytes, so a stalled reader would go unnoticed for seconds."""

    def __init__(self, transport: asyncio.WriteTransport, deflate: bool, hard_limit: int):
        sock = transport.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
        self.transport = transport
        self.deflate = deflate  # what the handshake allows (may_deflate)
        self.hard_limit = hard_limit
        self.preview_limit = hard_limit // 4

    def send(self, data: bytes, droppable: bool) -> bool:
        """Write a message (msgpack bytes); False: drop the connection."""
        if self.transport.is_closing():
            return True  # closed under us: the reader's end of serve() cleans up
        backlog = self.transport.get_write_buffer_size()
        if droppable and backlog > self.preview_limit:
            return True
        if backlog > self.hard_limit:
            return False
        if self.deflate and len(data) >= COMPRESS_MIN:
            self.transport.write(_single(data))
        else:
            self.transport.write(_plain(data))
        return True
