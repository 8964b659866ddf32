"""The budget of argon2 work (issue 37: a flood of logins and registrations from many
addresses, each within its own limits, queued honest logins behind it and, once the queue was
full, refused them alike). Owners (the account's own address or device) go first and are not
refused for the strangers' queue; strangers past it get `busy` with `Retry-After`. Pure tests
of server/accounts/hashing.py, and the owner's login during a flood over a real server."""

from __future__ import annotations

import asyncio
import contextlib
import threading

import aiohttp
import pytest

from server.accounts.errors import AccountError
from server.accounts.hashing import Hashing
from tests.accounts.account_client import Http
from tests.waits import until

pytestmark = pytest.mark.asyncio


class Gate:
    """Work that blocks its thread until released, recording the order it ran in."""

    def __init__(self) -> None:
        self.open = threading.Event()
        self.order: list[str] = []

    def work(self, name: str) -> str:
        self.open.wait(10)
        self.order.append(name)
        return name


async def test_owners_go_first_and_strangers_past_the_queue_are_told_when_to_retry():
    gate = Gate()
    hashing = Hashing(at_once=1, queue=2)
    first = asyncio.create_task(hashing.run(False, gate.work, "first"))
    await until(lambda: hashing.running == 1, 5, "the first in the one slot")
    strangers = [asyncio.create_task(hashing.run(False, gate.work, f"s{k}")) for k in range(2)]
    owner = asyncio.create_task(hashing.run(True, gate.work, "owner"))
    await until(lambda: hashing.waiting == 3, 5, "the strangers and the owner queued")
    with pytest.raises(AccountError) as refused:
        await hashing.run(False, gate.work, "one too many")
    assert refused.value.code == "busy" and refused.value.status == 503
    assert refused.value.params["retry_after"] >= 1
    assert hashing.waiting == 3, "the owner was not refused though the strangers' queue is full"
    gate.open.set()
    await asyncio.gather(first, owner, *strangers)
    assert gate.order == ["first", "owner", "s0", "s1"]
    assert hashing.running == 0 and hashing.waiting == 0


async def test_a_cancelled_wait_gives_its_place_back():
    gate = Gate()
    hashing = Hashing(at_once=1, queue=4)
    first = asyncio.create_task(hashing.run(False, gate.work, "first"))
    await until(lambda: hashing.running == 1, 5, "the first in the one slot")
    gone = asyncio.create_task(hashing.run(False, gate.work, "gone"))
    after = asyncio.create_task(hashing.run(False, gate.work, "after"))
    await until(lambda: hashing.waiting == 2, 5, "both queued")
    gone.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await gone
    gate.open.set()
    await asyncio.gather(first, after)
    assert gate.order == ["first", "after"] and hashing.running == 0


async def test_the_owner_logs_in_during_a_flood_of_logins_from_many_addresses(game_server):
    srv = game_server()
    owner = Http(srv.url, local_addr="127.0.0.1")
    await owner.register("Flooded")
    flooders = [Http(srv.url, local_addr=f"127.0.5.{a + 1}") for a in range(32)]
    statuses: list[int] = []
    retry: list[str | None] = []
    busy, done = asyncio.Event(), asyncio.Event()

    async def flood(h: Http, k: int) -> None:
        # made-up names: no account's counter, only the address's 50; again as soon as
        # answered, until the owner is in or the address is throttled (the queue kept full)
        status = 0
        while not done.is_set() and status != 429:
            with contextlib.suppress(aiohttp.ClientError):
                status, _, r = await h.post(
                    "/api/account/login", {"username": f"ghost{k}", "password": "wrong 12345"}
                )
                statuses.append(status)
                if status == 503:
                    retry.append(r.headers.get("Retry-After"))
                    busy.set()

    tasks = [asyncio.create_task(flood(h, k)) for h in flooders for k in range(6)]
    await asyncio.wait_for(busy.wait(), 60)  # the queue is full now, and kept full
    assert await owner.login("Flooded") == (200, {"username": "Flooded"})
    done.set()
    await asyncio.gather(*tasks)
    assert 503 in statuses and all(r is not None and int(r) >= 1 for r in retry)
    for h in (owner, *flooders):
        await h.close()
