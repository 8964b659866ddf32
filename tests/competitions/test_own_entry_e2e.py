"""Pairs and teams enter themselves (issue 36; docs/competitions.md "Pairs and teams enter
themselves"): a player enters his pair naming the partner, or his team naming its players;
it waits, shown to its players and the organiser only, till every player named confirms it,
or the organiser approves it (his approval stands for theirs); with `approval` the confirmed
entry still waits for him. A named player may decline (`leave`), which takes it off for all.
Every refusal writes nothing."""

from __future__ import annotations

import pytest

from tests.accounts.account_client import Http
from tests.competitions.test_authority_e2e import refused, stored_version
from tests.competitions.tour_client import post, tournament

# a server of its own: the accounts made here count toward the address's limits
pytestmark = [pytest.mark.asyncio, pytest.mark.fresh_server]


async def test_pairs_enter_themselves_once_the_partner_or_the_organiser_confirms(game_server):
    srv = game_server()
    org, ann, ben, cid, _dan, eve = hs = [Http(srv.url) for _ in range(6)]
    for h, name in zip(hs, ("Organiser", "Ann", "Ben", "Cid", "Dan", "Eve"), strict=True):
        await h.register(name)
    doc = await post(org, "/api/tournaments", {"name": "Pairs", "kind": "doubles", "sets": 1})
    tid = doc["id"]
    api = f"/api/tournaments/{tid}"
    assert await refused(ann, f"{api}/enter", {"name": "AB", "members": ["Ben"]}) == (
        409,
        "bad_status",
    )  # fmt: skip  (registration is not open yet)
    await post(org, f"{api}/open")

    # refusals change nothing: an unknown partner, two partners to a pair, oneself twice,
    # no name, and `join` (a pair enters by its players' names)
    before = await stored_version(srv, tid)
    assert await refused(ann, f"{api}/enter", {"name": "AB", "members": ["Nobody"]}) == (
        404, "no_player",
    )  # fmt: skip
    assert await refused(ann, f"{api}/enter", {"name": "AB", "members": ["Ben", "Cid"]}) == (
        400, "bad_request",
    )  # fmt: skip
    assert await refused(ann, f"{api}/enter", {"name": "AA", "members": ["Ann"]}) == (
        409, "already_entered",
    )  # fmt: skip
    assert (await refused(ann, f"{api}/enter", {"name": " ", "members": ["Ben"]}))[0] == 400
    assert await refused(ann, f"{api}/join") == (409, "entries_by_organiser")
    assert await stored_version(srv, tid) == before

    # Ann enters Ann & Ben: it waits for Ben, seen by the three of them only
    mine = await post(ann, f"{api}/enter", {"name": "Ann & Ben", "members": ["Ben"]})
    assert mine["entries"] == [] and mine["you"]["pending"] is True
    (req,) = mine["requests"]
    assert req["members"] == ["Ann", "Ben"] and req["waiting"] == ["Ben"]
    bens = await tournament(ben, tid)
    assert bens["you"]["confirm"] == [req["id"]] and bens["you"]["pending"] is False
    assert [r["id"] for r in (await tournament(org, tid))["requests"]] == [req["id"]]
    assert (await tournament(cid, tid))["requests"] == []
    # nobody else confirms it
    before = await stored_version(srv, tid)
    assert await refused(cid, f"{api}/confirm", {"entrant": req["id"]}) == (
        404, "unknown_entrant",
    )  # fmt: skip
    assert await stored_version(srv, tid) == before
    # being named holds nobody: Eve names Ben too, unasked; he confirms Ann's, and Eve's,
    # which can no longer be completed, is off
    await post(eve, f"{api}/enter", {"name": "Eve & Ben", "members": ["Ben"]})
    assert len((await tournament(ben, tid))["you"]["confirm"]) == 2
    doc = await post(ben, f"{api}/confirm", {"entrant": req["id"]})
    assert doc["requests"] == [] and doc["you"]["entrant"] == req["id"]
    assert (await tournament(eve, tid))["you"]["pending"] is False
    assert await refused(eve, f"{api}/enter", {"name": "E", "members": ["Ben"]}) == (
        409, "already_entered",
    )  # fmt: skip
    assert [(e["name"], e["members"]) for e in doc["entries"]] == [("Ann & Ben", ["Ann", "Ben"])]

    # Cid & Dan: the organiser confirms it for Dan
    req = (await post(cid, f"{api}/enter", {"name": "Cid & Dan", "members": ["Dan"]}))["requests"][
        0
    ]
    doc = await post(org, f"{api}/approve", {"entrant": req["id"]})
    assert [e["name"] for e in doc["entries"]] == ["Ann & Ben", "Cid & Dan"]

    # Eve names Ann (entered): refused; names the organiser, who declines: off for both
    assert await refused(eve, f"{api}/enter", {"name": "E", "members": ["Ann"]}) == (
        409, "already_entered",
    )  # fmt: skip
    await post(eve, f"{api}/enter", {"name": "Eve & Org", "members": ["Organiser"]})
    doc = await post(org, f"{api}/leave")
    assert doc["requests"] == [] and (await tournament(eve, tid))["you"]["pending"] is False

    # the two pairs play: the table's entrants are the pairs
    doc = await post(org, f"{api}/start")
    assert doc["status"] == "running"
    assert {t["a_name"] for t in doc["rounds"][0]["tables"]} | {
        t["b_name"] for t in doc["rounds"][0]["tables"]
    } == {"Ann & Ben", "Cid & Dan"}


async def test_a_team_confirmed_by_its_players_still_waits_for_an_approving_organiser(
    game_server,
):
    srv = game_server()
    org, ann, ben, cid = hs = [Http(srv.url) for _ in range(4)]
    for h, name in zip(hs, ("Organiser", "Ann", "Ben", "Cid"), strict=True):
        await h.register(name)
    games = [{"kind": "singles", "boards": [1], "sets": 1}]  # 004 § 29 (3): board I's game
    body = {"name": "Teams", "form": "team", "games": games, "approval": True}
    tid = (await post(org, "/api/tournaments", body))["id"]
    api = f"/api/tournaments/{tid}"
    await post(org, f"{api}/open")
    req = (await post(ann, f"{api}/enter", {"name": "Tigers", "members": ["Ben", "Cid"]}))[
        "requests"
    ][0]
    assert req["waiting"] == ["Ben", "Cid"]
    await post(ben, f"{api}/confirm", {"entrant": req["id"]})
    doc = await post(cid, f"{api}/confirm", {"entrant": req["id"]})
    assert doc["entries"] == [] and doc["requests"][0]["waiting"] == []
    assert doc["you"]["pending"] is True and doc["you"]["confirm"] == []
    doc = await post(org, f"{api}/approve", {"entrant": req["id"]})
    assert [(e["name"], e["members"]) for e in doc["entries"]] == [
        ("Tigers", ["Ann", "Ben", "Cid"])
    ]
