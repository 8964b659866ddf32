"""Websockets near the TCP total (issue 37): the door's reserve is kept for seated players'
returns and logins. A websocket waits at the door until its hello; a newcomer's hello past
the total less the reserve gets `server_full`; a seated player's return, when the whole total
is full, comes in past it and displaces the longest idle websocket without a seat of the
address holding the most. Pure tests of server/net/holders.py with the door of
server/net/door.py, and over a real server: websockets from six addresses held to the cap,
then a seated player comes back and resumes and a login answers (on the code before, both
were dropped at accept)."""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp

from server.net.door import OVERDRAFT, Door
from server.net.holders import HOLD_IDLE, Holders
from server.net.limits import AddressCounter
from tests.hardening.test_abuse_bounds import hello
from tests.hardening.test_caps import health
from tests.hardening.test_door_reserve import Clock, Handler, connect
from tests.server.server_client import Client
from tests.server.test_server_match_e2e import seat_singles


class Socket:
    """A stand-in for a websocket connection (what the holders read of server/net/conn.py's
    Conn): its address, its last message, where it is, and what it was sent."""

    def __init__(self, address: str, acted_at: float = 0.0) -> None:
        self.address = address
        self.acted_at = acted_at
        self.closed = False
        self.room: object | None = None
        self.remote: object | None = None
        self.watching = False
        self.queued: object | None = None
        self.sent: list[dict[str, Any]] = []
        self.code = 0

    def send(self, msg: dict[str, Any]) -> None:
        self.sent.append(msg)

    def shutdown(self, abort: bool = False, code: int = 1000, reason: bytes = b"") -> None:
        self.closed, self.code = True, code


def websocket(door: Door, holders: Holders, addresses: AddressCounter, host: str,
              seated: bool, acted_at: float = 0.0) -> tuple[Socket, Handler, bool]:  # fmt: skip
    """A connection accepted, upgraded and admitted by its hello (if the door let it in)."""
    handler, admitted = connect(door, host)
    sock = Socket(host, acted_at)
    if admitted:
        addresses.admit(host)
        holders.opened(sock, handler)  # type: ignore[arg-type]  # a stand-in Conn
        holders.hello_started(sock)  # type: ignore[arg-type]
        holders.admitted(sock, seated)  # type: ignore[arg-type]
    return sock, handler, admitted


def at_door(total: int, reserve: int) -> tuple[Door, Holders, AddressCounter, Clock]:
    clock = Clock()
    door = Door(total=total, per_address=64, reserve=reserve, waiting_per_address=100,
                clock=clock)  # fmt: skip
    addresses = AddressCounter(32)
    holders = Holders(addresses, clock=clock)
    holders.attach(door)
    return door, holders, addresses, clock


def test_a_websocket_waits_at_the_door_until_its_hello():
    door, holders, _addresses, _clock = at_door(total=20, reserve=4)
    handler, _ = connect(door, "10.0.0.1")
    door.asking(handler)  # the upgrade request read
    sock = Socket("10.0.0.1")
    holders.opened(sock, handler)  # type: ignore[arg-type]
    assert door.waiting == 1, "upgraded and silent: a connection without a request"
    holders.hello_started(sock)  # type: ignore[arg-type]
    holders.hello_failed(sock)  # type: ignore[arg-type]  # (a refused hello)
    assert door.waiting == 1, "a refused hello leaves it waiting again"
    holders.hello_started(sock)  # type: ignore[arg-type]
    holders.admitted(sock, seated=False)  # type: ignore[arg-type]
    assert door.waiting == 0 and holders.view()["guests"] == 1


def test_newcomers_stop_at_the_reserve_which_seated_players_may_use():
    door, holders, addresses, _clock = at_door(total=10, reserve=3)
    for k in range(7):
        assert holders.room_for_newcomer()
        websocket(door, holders, addresses, f"10.0.0.{k % 3}", seated=False)
    assert not holders.room_for_newcomer(), "7 of 10 held: the last 3 are the reserve"
    for _ in range(3):  # seated players' returns still get in
        _sock, _h, admitted = websocket(door, holders, addresses, "10.0.0.9", seated=True)
        assert admitted
    assert door.count == 10 and holders.displaced == 0


def test_past_a_full_total_a_seated_return_displaces_the_longest_idle_of_the_heaviest_address():
    door, holders, addresses, clock = at_door(total=6, reserve=2)
    guests = [
        websocket(door, holders, addresses, host, seated=False, acted_at=float(k))[0]
        for k, host in enumerate(["10.0.0.1", "10.0.0.1", "10.0.0.1", "10.0.0.2"])
    ]
    for _ in range(2):
        websocket(door, holders, addresses, "10.0.0.9", seated=True)
    assert door.count == door.total and door.waiting == 0
    clock.now = HOLD_IDLE + 10.0
    guests[0].acted_at = clock.now  # it just sent something: not idle
    back, _h, admitted = websocket(door, holders, addresses, "10.0.0.9", seated=True)
    assert admitted and door.count == door.total + 1, "let in past the total"
    assert [g.closed for g in guests] == [False, True, False, False], (
        "the heaviest address's longest idle one went"
    )
    assert guests[1].sent[0]["code"] == "server_full" and guests[1].code == 1013
    assert holders.displaced == 1 and not back.closed


def test_past_the_total_only_a_few_come_in_and_never_without_a_guest_to_displace():
    door, holders, addresses, _clock = at_door(total=6, reserve=2)
    for _ in range(6):
        websocket(door, holders, addresses, "10.0.0.9", seated=True)
    _s, _h, admitted = websocket(door, holders, addresses, "10.0.0.8", seated=True)
    assert not admitted, "nobody to displace: the total holds"
    door, holders, addresses, _clock = at_door(total=6, reserve=2)
    websocket(door, holders, addresses, "10.0.0.1", seated=False)
    for _ in range(5):
        websocket(door, holders, addresses, "10.0.0.9", seated=True)
    admitted_past = 0
    for _ in range(OVERDRAFT + 3):
        handler, ok = connect(door, "10.0.0.8")
        door.asking(handler)  # it asked for something: it may not be cut for the next
        admitted_past += ok
    assert admitted_past == OVERDRAFT and door.count == 6 + OVERDRAFT


# -- over a real server ----------------------------------------------------------------------
async def test_a_seated_player_returns_and_a_login_answers_while_many_addresses_hold_websockets(
    game_server,
):
    srv = game_server(max_connections=40, tcp_reserve=8, header_timeout=30.0, grace_seconds=120)
    a, b, rid = await seat_singles(srv)
    token, seat = a.token, a.own_seat
    await a.close()  # dropped: its seat waits the grace time
    await b.expect("gone", seat=seat)
    held: list[Client] = []
    answers: list[str] = []
    for k in range(60):  # six addresses, ten websockets each: past the 40 in all
        try:
            c, reply = await hello(srv, local_addr=f"127.0.0.{2 + k % 6}")
        except (aiohttp.ClientError, OSError):  # dropped at accept (the code before)
            answers.append("dropped")
            continue
        held.append(c)
        answers.append(str(reply.get("code", reply["t"])))
    back = Client("Anu")
    welcome = await back.connect(srv.ws_url, token=token)
    assert welcome["seat"] == {"room": rid, "seat": seat}
    await back.send("resume", room=rid, since=0)
    room = await back.expect("room")
    assert room["id"] == rid
    await b.expect("back", seat=seat)
    async with aiohttp.ClientSession() as http:
        body = {"username": "holder1", "password": "a long enough password"}
        async with http.post(
            f"{srv.url}/api/account/register", json=body, headers={"Origin": srv.url},
        ) as r:  # fmt: skip
            assert r.status == 200, await r.text()
    assert "server_full" in answers, answers
    state = await asyncio.to_thread(health, srv)
    assert state["ws"]["refused"] > 0 and state["tcp"]["open"] <= 40 + OVERDRAFT
    assert sum(a == "welcome" for a in answers) <= 40 - 8, "newcomers kept out of the reserve"
