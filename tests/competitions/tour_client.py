"""The competitions' tests' players: a browser (HTTP with its login cookie) and its websocket,
and the moves of a table: come to the room the tournament page names, play (here: one side
resigns, or nobody comes), leave."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from tests.accounts.account_client import Http
from tests.server.server_client import Client
from tests.waits import until

Doc = dict[str, Any]
POLL_S = 0.25


@dataclass
class Player:
    """A registered player: the browser and its open websocket."""

    name: str
    http: Http
    ws: Client
    last_room: str | None = None  # the room of his last match (the page names it till decided)


async def register(url: str, ws_url: str, names: list[str], addr: str) -> list[Player]:
    """Registered players (from the loopback address `addr`: at most 10 accounts are made
    per address and window), each with a websocket opened with the login cookie."""
    out = []
    for n in names:
        h = Http(url, local_addr=addr)
        await h.register(n)
        out.append(Player(n, h, await h.player(ws_url, n)))
    return out


async def post(h: Http, path: str, body: Doc | None = None) -> Doc:
    """POST that must succeed: the answer."""
    status, answer, _ = await h.post(path, body or {})
    assert status == 200, (path, status, answer)
    return answer


async def tournament(h: Http, tid: str) -> Doc:
    """The tournament as its page shows it to this browser."""
    status, doc = await h.get(f"/api/tournaments/{tid}")
    assert status == 200, doc
    assert isinstance(doc, dict)
    return doc


async def round_open(h: Http, tid: str, rnd: int, timeout: float = 30.0) -> Doc:
    """The tournament once round `rnd` has started (every table with its room)."""

    last: list[Doc] = []

    async def check() -> Doc | None:
        doc = await tournament(h, tid)
        last[:] = [doc]
        if doc["round"] >= rnd or doc["status"] == "finished":
            return doc
        return None

    try:
        return dict(await until(check, timeout, f"round {rnd}", every=POLL_S))
    except AssertionError:
        shown = last[0]["rounds"][-1] if last and last[0]["rounds"] else None
        raise AssertionError(f"round {rnd} did not start; the last round: {shown}") from None


async def come(p: Player, tid: str) -> str:
    """The player reads the page, which names his room, and takes his seat there."""

    async def named() -> str | None:  # the page polls until the player's table opens
        doc = await tournament(p.http, tid)
        room = doc["you"]["room"]
        return None if room is None or room == p.last_room else str(room)

    room = await until(named, 30, f"a room for {p.name}", every=POLL_S)
    p.last_room = room
    await p.ws.send("join", room=room)
    while True:
        msg = await p.ws.expect("room")
        if msg.get("id") == room:
            return str(room)


async def match_on(p: Player, room: str) -> None:
    """Wait until the player sees the match of his room started."""
    while not (p.ws.room and p.ws.room.get("id") == room and p.ws.room["match"] is not None):
        await p.ws.expect("room")


async def resign_table(winner: Player, loser: Player, tid: str) -> None:
    """Both come to the room; when the match is on, the loser resigns; both leave."""
    room = await come(winner, tid)
    assert await come(loser, tid) == room
    await asyncio.gather(match_on(winner, room), match_on(loser, room))
    await loser.ws.send("resign")
    for p in (winner, loser):  # each takes his own result (none is left for the next match)
        await p.ws.expect("result")
    for p in (winner, loser):
        await p.ws.send("leave")
        await p.ws.expect("left")
