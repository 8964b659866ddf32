"""A small synchronous websocket client (websockets.sync) for the fuzzer: send anything, read
replies up to a `pong` barrier, and hash a room's state as a watcher sees it."""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import json
from typing import Any

import msgpack
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

Msg = dict[str, Any]
_N = itertools.count(1)


class Link:
    """One synchronous websocket connection."""

    def __init__(self, ws_url: str, name: str | None = None) -> None:
        self._stack = contextlib.ExitStack()
        # no keepalive pings: their payload comes from the global `random`, which Hypothesis
        # sees changed when an example spans one (a HypothesisDeprecationWarning on a slow run)
        self.ws: ClientConnection = self._stack.enter_context(
            connect(ws_url, max_size=None, open_timeout=10, ping_interval=None)
        )
        self.welcome: Msg | None = None
        self.rooms: list[Msg] = []  # every `room` received, newest last
        if name is not None:
            self.send({"t": "hello", "name": name})
            self.welcome = self.until(lambda m: m["t"] in ("welcome", "error"))[-1]

    def send(self, msg: Msg | bytes | str) -> None:
        """A message as a binary msgpack frame; bytes and text frames as they are."""
        self.ws.send(msgpack.packb(msg) if isinstance(msg, dict) else msg)

    def recv(self, timeout: float = 10.0) -> Msg:
        """The next message (a ConnectionClosed when the server closed the socket)."""
        data = self.ws.recv(timeout=timeout)
        assert isinstance(data, bytes), "the server sends binary frames only"
        msg = msgpack.unpackb(data, raw=False, strict_map_key=False)
        assert isinstance(msg, dict), "every message is a map"
        if msg["t"] == "room":
            self.rooms.append(msg)
        return msg

    def until(self, stop: Any, timeout: float = 10.0) -> list[Msg]:
        """Messages up to and including the first one `stop` accepts."""
        out = []
        while True:
            out.append(self.recv(timeout))
            if stop(out[-1]):
                return out

    def barrier(self) -> list[Msg]:
        """Everything the server sent before answering a ping (the ping's pong excluded)."""
        n = next(_N)
        self.send({"t": "ping", "n": n})
        got = self.until(lambda m: m["t"] == "pong" and m.get("n") == n)
        return got[:-1]

    def alive(self) -> bool:
        """True if the connection still answers a ping."""
        try:
            self.barrier()
        except (ConnectionClosed, TimeoutError):
            return False
        return True

    def close(self) -> None:
        """Close the socket."""
        self._stack.close()


def state_hash(room: Msg) -> str:
    """A hash of what a match is: seq, seats, match (without the running clock's remaining
    time), discs, motion, rematch offers. What moves with the clock is left out: watcher
    counts, away countdowns, and during motion the discs' positions and the time played
    (the rules' state after the stroke is in `match.rules`)."""
    match = dict(room["match"] or {})
    match.pop("clock", None)
    seats = [s and {k: v for k, v in s.items() if k != "away"} for s in room["seats"]]
    motion = room["motion"] and {k: v for k, v in room["motion"].items() if k != "time"}
    keep = {
        "seq": room["seq"], "status": room["status"], "seats": seats, "match": match,
        "discs": None if motion else room["discs"], "motion": motion, "rematch": room["rematch"],
    }  # fmt: skip
    return hashlib.sha256(json.dumps(keep, sort_keys=True).encode()).hexdigest()
