"""Writing to many websockets cheaply: a message is encoded once, framed once and, for the
frames of a motion, compressed once for every viewer of the room.

Why not `ws.send_bytes` per viewer: with permessage-deflate negotiated (every browser offers
it, and aiohttp accepts it) aiohttp compresses every message again for every connection, in
a compressor of its own per connection (a quarter of a megabyte each), and every send goes
through a queue, a writer task and a coroutine. Under load that was most of the server's
time (docs/performance.md, "Server load"). Here a connection's messages are written straight
to its socket as ready-made websocket frames, unmasked as a server's are.

Compression (RFC 7692) only where it pays: the frames of one motion are one deflate stream,
shared by the whole room. A client keeps its inflate window across compressed messages
(unless it asked for server_no_context_takeover), and messages sent without the RSV1 bit do
not touch that window. So a viewer that received every frame of this motion from its first,
compressed, can inflate the next one, which refers back to earlier frames: ~50 bytes instead
of ~530. A viewer that joined mid-motion or lost a frame gets the same frame uncompressed
until the next motion starts a fresh stream. Other messages of COMPRESS_MIN bytes or more
(rulings, room snapshots, lobby lists) are compressed each on its own, once for all its
receivers when they get the same bytes (the hub encodes a broadcast once); smaller ones
(clock, aim previews, chat) would not shrink enough to pay and go as they are.
"""

from __future__ import annotations

import asyncio
import socket
import struct
import zlib
from collections.abc import Callable
from dataclasses import dataclass

FIN_BINARY = 0x82  # FIN bit and the binary opcode
RSV1 = 0x40  # "this message is compressed" (RFC 7692 § 6)
DEFLATE_TAIL = b"\x00\x00\xff\xff"  # a sync flush's empty block, left off on the wire
STREAM_LEVEL = 6  # ~50 B a frame in ~11 us, once per frame for the room (level 1: ~58 B, ~9 us)
STREAM_WBITS = 12  # a 4 KiB window holds the last 7 or so frames: as good as 32 KiB here
STREAM_MEMLEVEL = 5  # ~32 KiB of compressor state per motion in flight, not ~260 KiB
COMPRESS_MIN = 1024  # messages at least this long are compressed (a ruling: ~1.5 KB -> ~0.6 KB)
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


def deflate_modes(extensions: str) -> tuple[bool, bool]:
    """From the handshake's Sec-WebSocket-Extensions answer: may the server send compressed
    messages (permessage-deflate with a window of at least ours), and deflate streams (the
    same, with context takeover)?"""
    ext = extensions.lower()
    if "permessage-deflate" not in ext:
        return False, False
    for param in ext.split(";"):
        name, _, value = param.strip().partition("=")
        bits = value.strip('" ')
        if name == "server_max_window_bits" and bits.isdigit() and int(bits) < STREAM_WBITS:
            return False, False
    return True, "server_no_context_takeover" not in ext


def _deflated(data: bytes) -> bytes:
    """A message compressed on its own (a fresh deflate window), framed."""
    z = zlib.compressobj(STREAM_LEVEL, zlib.DEFLATED, -STREAM_WBITS, STREAM_MEMLEVEL)
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


class Stream:
    """The frames of one motion as one deflate stream for all of a room's viewers."""

    def __init__(self) -> None:
        self._z = zlib.compressobj(STREAM_LEVEL, zlib.DEFLATED, -STREAM_WBITS, STREAM_MEMLEVEL)
        self._count = 0

    def packet(self, payload: bytes) -> Packet:
        """The next message of the stream, framed both compressed and plain."""
        z = self._z.compress(payload) + self._z.flush(zlib.Z_SYNC_FLUSH)
        packet = Packet(ws_frame(payload), ws_frame(z.removesuffix(DEFLATE_TAIL), True), self,
                        self._count)  # fmt: skip
        self._count += 1
        return packet


@dataclass(frozen=True, slots=True)
class Packet:
    """A message framed once for everybody: plain, and as message `index` of `stream`."""

    plain: bytes
    deflated: bytes
    stream: Stream
    index: int


class Wire:
    """One connection's socket: frames written at once, dropped when the reader falls behind.

    A reader is behind when its socket holds more than a quarter of `hard_limit` unsent
    bytes (past what the kernel took): frames are dropped then (the next one supersedes
    them), events never. A reader so far behind that even the events pile up past
    `hard_limit` is hopeless: send() says so and the hub drops the connection (its client
    resyncs when it reconnects).

    The kernel's send buffer is kept small (SEND_BUFFER): left to autotune, on loopback it
    takes megabytes, so a stalled reader would go unnoticed for seconds and a slow one would
    get frames seconds late instead of losing them."""

    def __init__(
        self, transport: asyncio.WriteTransport, modes: tuple[bool, bool], hard_limit: int
    ):
        sock = transport.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
        self.transport = transport
        self.deflate, self.streams = modes  # what the handshake allows (deflate_modes)
        self.hard_limit = hard_limit
        self.frame_limit = hard_limit // 4
        self.stream: Stream | None = None  # the stream this client can inflate right now
        self.next = 0  # ... and the index of the message it needs next

    def send(self, data: bytes | Packet, droppable: bool) -> bool:
        """Write a message (msgpack bytes, or a shared Packet); False: drop the connection."""
        if self.transport.is_closing():
            return True  # closed under us: the reader's end of serve() cleans up
        backlog = self.transport.get_write_buffer_size()
        if droppable and backlog > self.frame_limit:
            if isinstance(data, Packet):
                self.stream = None  # a frame lost: this client cannot follow its stream now
            return True
        if backlog > self.hard_limit:
            return False
        if isinstance(data, Packet):
            self.transport.write(self._framed(data))
        elif self.deflate and len(data) >= COMPRESS_MIN:
            self.stream = None  # it enters the client's window: the stream's references break
            self.transport.write(_single(data))
        else:
            self.transport.write(_plain(data))
        return True

    def _framed(self, packet: Packet) -> bytes:
        follows = self.stream is packet.stream and self.next == packet.index
        if self.streams and (packet.index == 0 or follows):
            self.stream, self.next = packet.stream, packet.index + 1
            return packet.deflated
        return packet.plain
