"""Challenges over real websockets (docs/protocol.md, "challenge"): a registered player
challenged by name sees the challenge in every open tab, accepts in one (a room with both
seated, which starts as any room once both are ready) or declines; the challenger cancels,
or leaves, or nobody answers in time; every refusal by its code, with nothing kept or told;
and the two sides on two processes of one Redis."""

from __future__ import annotations

import secrets
from typing import Any

import pytest

from tests.accounts.account_client import Http
from tests.conftest import GameServer
from tests.server.server_client import Client, Msg
from tests.server.test_protocol_doc import sections, undocumented

pytestmark = pytest.mark.asyncio

TERMS: dict[str, Any] = {"mode": "singles", "sets": 2, "clock": 45, "rated": True}


def unique(name: str) -> str:
    """A username nobody on a shared server has taken yet."""
    return f"{name}{secrets.token_hex(3)}"


async def account(srv: GameServer, name: str, tabs: int = 1) -> list[Client]:
    """A registered player with `tabs` websockets open (one browser's tabs)."""
    h = Http(srv.url)
    await h.register(name)
    return [await h.player(srv.ws_url, name) for _ in range(tabs)]


async def refused(c: Client, code: str, t: str = "challenge", /, **fields: Any) -> None:
    """c's message is refused with `code`, and nothing else arrives for it."""
    await c.send(t, **fields)
    err = await c.expect("error")
    assert err["code"] == code, err
    await c.sync()
    assert not [m for m in c.drain() if m["t"].startswith("challenge")]


async def seated(c: Client, seat: int) -> Msg:
    """The first `room` c is seated in: both seats taken in it already (a `room` is a
    complete state, docs/protocol.md; the two are seated in one change)."""
    room = await c.expect("room", you={"role": "player", "seat": seat})
    assert all(room["seats"]), room["seats"]
    return room


async def both_ready(*players: Client) -> None:
    """Everybody says ready: the match is on for each."""
    for c in players:
        await c.send("ready", ready=True)
    for c in players:
        while c.room is None or c.room["match"] is None:
            await c.expect("room")


async def test_a_challenge_seen_in_every_tab_and_accepted_in_one_seats_both(game_server):
    srv = game_server()
    ann, bo = unique("Ann"), unique("Bo")
    (a,) = await account(srv, ann)
    h = Http(srv.url)
    await h.register(bo)
    b1 = await h.player(srv.ws_url, bo)
    await a.send("challenge", to=bo.upper(), **TERMS)  # a name's case is not its own
    sent = await a.expect("challenge_sent")
    assert (sent["to"], sent["sets"], sent["clock"], sent["rated"]) == (bo, 2, 45, True)
    assert 0 < sent["expires_in"] <= 120
    b2 = await h.player(srv.ws_url, bo)  # a tab opened later is shown what waits
    guest = await Http(srv.url).player(srv.ws_url, "Guest")  # and nobody else is
    offers = [await b.expect("challenged", id=sent["id"]) for b in (b1, b2)]
    for offer in offers:
        assert (offer["from"], offer["game"], offer["mode"]) == (ann, "novuss", "singles")
    await guest.sync()
    assert not [m for m in guest.drain() if m["t"].startswith("challenge")]
    await b2.send("challenge_answer", id=sent["id"], accept=True)
    room = await seated(b2, 1)
    await seated(a, 0)
    assert [s["name"] for s in room["seats"]] == [ann, bo]
    assert (room["sets"], room["clock"], room["rated"]) == (2, 45, True)
    assert room["match"] is None  # a normal room: it starts once both are ready
    ends = [await c.expect("challenge_end", id=sent["id"], why="accepted") for c in (a, b1, b2)]
    section = sections()["challenged"]  # docs/protocol.md names every field sent
    assert not [k for m in (sent, *offers, *ends) for k in undocumented(m, section, m["t"])]
    await both_ready(a, b2)
    # answered: it is gone for everybody
    await refused(b1, "challenge_gone", "challenge_answer", id=sent["id"], accept=True)


async def test_decline_cancel_and_leaving_tell_the_other_side(game_server):
    srv = game_server()
    ann, bo = unique("Ann"), unique("Bo")
    (a,) = await account(srv, ann)
    (b,) = await account(srv, bo)
    await a.send("challenge", to=bo, **TERMS)
    first = await a.expect("challenge_sent")
    await b.expect("challenged", id=first["id"])
    await b.send("challenge_answer", id=first["id"], accept=False)
    for c in (a, b):
        await c.expect("challenge_end", id=first["id"], why="declined")
    await a.send("challenge", to=bo, **TERMS)
    second = await a.expect("challenge_sent")
    await b.expect("challenged", id=second["id"])
    await a.send("challenge_cancel", id=second["id"])
    for c in (a, b):
        await c.expect("challenge_end", id=second["id"], why="cancelled")
    await refused(b, "challenge_gone", "challenge_answer", id=second["id"], accept=True)
    await a.send("challenge", to=bo, **TERMS)
    third = await a.expect("challenge_sent")
    await b.expect("challenged", id=third["id"])
    await a.close()  # the challenger's page closed: nobody is there to seat
    await b.expect("challenge_end", id=third["id"], why="cancelled")


async def test_an_unanswered_challenge_expires_for_both(game_server):
    srv = game_server(challenge_seconds=2)
    ann, bo = unique("Ann"), unique("Bo")
    (a,) = await account(srv, ann)
    (b,) = await account(srv, bo)
    await a.send("challenge", to=bo, **TERMS)
    sent = await a.expect("challenge_sent")
    assert sent["expires_in"] <= 2
    await b.expect("challenged", id=sent["id"])
    for c in (a, b):
        await c.expect("challenge_end", id=sent["id"], why="expired", timeout=10)
    await refused(b, "challenge_gone", "challenge_answer", id=sent["id"], accept=True)


async def test_every_refusal_has_its_code_and_changes_nothing(game_server):
    srv = game_server()
    ann, bo, cy, offline = (unique(n) for n in ("Ann", "Bo", "Cy", "Off"))
    (a,) = await account(srv, ann)
    (b,) = await account(srv, bo)
    gone = Http(srv.url)
    await gone.register(offline)  # registered, no page open
    guest = await Http(srv.url).player(srv.ws_url, "Gus")
    await refused(guest, "account_needed", to=bo, **TERMS)
    await refused(a, "unknown_player", to=unique("Nobody"), **TERMS)
    await refused(a, "unknown_player", to="no such name!", **TERMS)
    await refused(a, "self_challenge", to=ann.lower(), **TERMS)
    await refused(a, "player_offline", to=offline, **TERMS)
    await refused(a, "bad_field", to=bo, mode="triples", sets=1, clock=45)
    await refused(b, "challenge_gone", "challenge_answer", id="h-nothing", accept=True)
    await refused(b, "bad_field", "challenge_answer", id="h-nothing")  # no answer given
    await a.send("challenge", to=bo, **TERMS)
    sent = await a.expect("challenge_sent")
    await b.expect("challenged", id=sent["id"])
    await refused(a, "already_challenged", to=bo, **TERMS)
    # only the challenged may answer, only the challenger cancel
    await refused(a, "challenge_gone", "challenge_answer", id=sent["id"], accept=True)
    await refused(b, "challenge_gone", "challenge_cancel", id=sent["id"])
    # seated elsewhere: first leave the room
    (c,) = await account(srv, cy)
    await c.send("create", mode="singles", sets=1, clock=60, private=False)
    await c.expect("room")
    await refused(c, "in_room", to=bo, **TERMS)
    await c.send("leave")
    await c.expect("left")
    # nobody floods a screen: three waiting per challenger, five per challenged player
    targets = [unique(f"T{i}") for i in range(3)]
    tabs = [(await account(srv, t))[0] for t in targets]
    for t, tab in zip(targets[:2], tabs[:2], strict=True):
        await a.send("challenge", to=t, **TERMS)
        assert (await tab.expect("challenged"))["from"] == ann
    await refused(a, "too_many_challenges", to=targets[2], **TERMS)
    await tabs[2].sync()
    assert not [m for m in tabs[2].drain() if m["t"] == "challenged"]
    senders = [(await account(srv, unique(f"S{i}")))[0] for i in range(5)]
    for s in senders[:4]:
        await s.send("challenge", to=bo, **TERMS)
        await s.expect("challenge_sent")
    await refused(senders[4], "too_many_challenges", to=bo, **TERMS)
    # accepting while seated is refused, and the challenge still waits
    await b.send("create", mode="singles", sets=1, clock=60, private=False)
    await b.expect("room")
    await refused(b, "in_room", "challenge_answer", id=sent["id"], accept=True)
    await b.send("leave")
    await b.expect("left")
    # the challenge sent still waits, and is still the one accepted
    await b.send("challenge_answer", id=sent["id"], accept=True)
    await b.expect("room", you={"role": "player", "seat": 1})


async def test_challenges_count_against_the_sessions_room_budget(game_server):
    srv = game_server()
    ann, bo = unique("Ann"), unique("Bo")
    (a,) = await account(srv, ann)
    (b,) = await account(srv, bo)
    for _ in range(5):  # create_burst: 5 at once, then one every 10 s
        await a.send("challenge", to=bo, **TERMS)
        sent = await a.expect("challenge_sent")
        await a.send("challenge_cancel", id=sent["id"])
        await a.expect("challenge_end", id=sent["id"])
    await refused(a, "rate_limited", to=bo, **TERMS)
    await b.sync()
    assert len([m for m in b.drain() if m["t"] == "challenged"]) == 5


async def test_a_challenge_across_two_processes(game_cluster):
    one, two = game_cluster(2)
    ann, bo = unique("Ann"), unique("Bo")
    (a,) = await account(one, ann)
    h = Http(two.url)
    await h.register(bo)
    b_two = await h.player(two.ws_url, bo)
    other = Http(one.url)  # another device of the same player, on process one
    assert (await other.login(bo))[0] == 200
    b_one = await other.player(one.ws_url, bo)
    await a.send("challenge", to=bo, **TERMS)
    sent = await a.expect("challenge_sent")
    for b in (b_one, b_two):
        assert (await b.expect("challenged", id=sent["id"]))["from"] == ann
    await b_two.send("challenge_answer", id=sent["id"], accept=True)
    await b_two.expect("room", you={"role": "player", "seat": 1})
    await a.expect("room", you={"role": "player", "seat": 0})  # seated from process two
    await b_one.expect("challenge_end", id=sent["id"], why="accepted")
    await both_ready(a, b_two)
    # and a decline from process one reaches the challenger on process two
    c = (await account(two, unique("Cy")))[0]
    await c.send("challenge", to=bo, **TERMS)
    again = await c.expect("challenge_sent")
    await b_one.expect("challenged", id=again["id"])
    await b_one.send("challenge_answer", id=again["id"], accept=False)
    await c.expect("challenge_end", id=again["id"], why="declined")
