"""Registration under the organiser's hand (issue 37, docs/competitions.md "Approval and
removal"): with `approval` a player's `join` waits as a request (not an entrant, not paired)
until the organiser approves or refuses it; before the start the organiser removes any entry
or request, with a reason the player is shown. Every refusal (another account, the wrong
stage, an unknown entrant, a bad reason) writes nothing."""

from __future__ import annotations

import msgpack
import pytest

from tests.accounts.account_client import Http
from tests.competitions.test_authority_e2e import refused, stored_version
from tests.competitions.tour_client import post, tournament
from tests.conftest import GameServer
from tests.pg import rows

# a server of its own: the accounts made here count toward the address's limits
pytestmark = [pytest.mark.asyncio, pytest.mark.fresh_server]


async def test_entries_wait_for_approval_and_the_organiser_removes_before_the_start(game_server):
    srv = game_server()
    org, intruder, ann, ben, cid, dan = hs = [Http(srv.url) for _ in range(6)]
    for h, name in zip(hs, ("Organiser", "Intruder", "Ann", "Ben", "Cid", "Dan"), strict=True):
        await h.register(name)
    for flag in ("approval", "auto"):  # true or false, not a word ("no" was taken for true)
        assert await refused(org, "/api/tournaments", {"name": "C", flag: "no"}) == (
            400, "bad_request",
        )  # fmt: skip
    doc = await post(org, "/api/tournaments", {"name": "Club", "sets": 1, "approval": True})
    tid = doc["id"]
    api = f"/api/tournaments/{tid}"
    assert doc["settings"]["approval"] is True
    await post(org, f"{api}/open")

    # each join is a request: shown to the organiser and to its player, to nobody else
    for h in (ann, ben, cid, dan):
        mine = await post(h, f"{api}/join")
        assert mine["you"]["pending"] is True and mine["you"]["entrant"] is None
        assert [r["members"] for r in mine["requests"]] == [[mine["requests"][0]["name"]]]
    assert await refused(ann, f"{api}/join") == (409, "already_entered")
    seen = await tournament(org, tid)
    assert [r["name"] for r in seen["requests"]] == ["Ann", "Ben", "Cid", "Dan"]
    assert seen["entries"] == [] and seen["entries"] == (await tournament(intruder, tid))["entries"]
    assert (await tournament(intruder, tid))["requests"] == []
    ids = {r["name"]: r["id"] for r in seen["requests"]}

    # refusals change nothing: another account, an unknown id, a bad reason, too few entrants
    before = await stored_version(srv, tid)
    for action in ("approve", "refuse", "remove"):
        body = {"entrant": ids["Ann"]}
        assert await refused(intruder, f"{api}/{action}", body) == (403, "not_organiser")
        assert await refused(ann, f"{api}/{action}", body) == (403, "not_organiser")
        assert await refused(org, f"{api}/{action}", {"entrant": "nobody"}) == (
            404, "unknown_entrant",
        )  # fmt: skip
        assert await refused(org, f"{api}/{action}", {"entrant": ["x"]}) == (
            404, "unknown_entrant",
        )  # fmt: skip
    bad_reason = {"entrant": ids["Ann"], "reason": 5}
    assert await refused(org, f"{api}/refuse", bad_reason) == (400, "bad_request")
    assert await refused(org, f"{api}/remove", {**bad_reason, "reason": "x" * 201}) == (
        400, "bad_request",
    )  # fmt: skip
    assert await refused(org, f"{api}/start") == (409, "too_few_entrants")  # requests don't count
    assert await stored_version(srv, tid) == before

    # approve two, refuse one (who may not ask again), remove a request (who may)
    await post(org, f"{api}/approve", {"entrant": ids["Ann"]})
    doc = await post(org, f"{api}/approve", {"entrant": ids["Ben"]})
    assert [e["name"] for e in doc["entries"]] == ["Ann", "Ben"]
    assert await refused(org, f"{api}/approve", {"entrant": ids["Ann"]}) == (
        404, "unknown_entrant",
    )  # fmt: skip
    await post(org, f"{api}/refuse", {"entrant": ids["Cid"], "reason": "Club members only"})
    doc = await post(org, f"{api}/remove", {"entrant": ids["Dan"]})
    assert doc["requests"] == [] and [e["name"] for e in doc["entries"]] == ["Ann", "Ben"]
    cid_sees = await tournament(cid, tid)
    assert cid_sees["you"]["pending"] is False
    assert cid_sees["you"]["removed"] == {"what": "refused", "reason": "Club members only"}
    assert await refused(cid, f"{api}/join") == (409, "refused")
    assert (await tournament(dan, tid))["you"]["removed"] == {"what": "removed", "reason": ""}
    await post(dan, f"{api}/join")
    assert (await tournament(dan, tid))["you"] == {
        "organiser": False, "entrant": None, "room": None, "pending": True, "removed": None,
        "confirm": [],  # no pair or team waits for his word (issue 36)
    }  # fmt: skip
    doc = await post(dan, f"{api}/leave")  # a request is taken back as an entry is
    assert doc["you"]["pending"] is False and doc["requests"] == []

    # the organiser removes an approved entrant, with a reason; Ann is told, and may ask again
    doc = await post(org, f"{api}/remove", {"entrant": ids["Ann"], "reason": " No fee paid "})
    assert [e["name"] for e in doc["entries"]] == ["Ben"]
    assert (await tournament(ann, tid))["you"]["removed"] == {
        "what": "removed", "reason": "No fee paid",
    }  # fmt: skip
    await post(ann, f"{api}/join")
    await post(org, f"{api}/approve", {"entrant": ids["Ann"]})
    # the organiser's own entry of a refused player lifts the refusal, and of one waiting
    # answers his request
    doc = await post(org, f"{api}/entry", {"name": "Cid", "members": ["Cid"]})
    assert sorted(e["name"] for e in doc["entries"]) == ["Ann", "Ben", "Cid"]
    assert (await tournament(cid, tid))["you"]["removed"] is None
    await post(dan, f"{api}/join")
    doc = await post(org, f"{api}/entry", {"name": "Dan", "members": ["Dan"]})
    assert doc["requests"] == [] and len(doc["entries"]) == 4
    (entered,) = [e["id"] for e in doc["entries"] if e["name"] == "Dan"]
    await post(org, f"{api}/remove", {"entrant": entered})

    # started: the requests' actions are refused (an entrant leaves by withdraw, 004 § 32 (3))
    await post(dan, f"{api}/join")
    doc = await post(org, f"{api}/start")
    assert doc["status"] == "running" and len(doc["standings"]) == 3
    paired = {x for t in doc["rounds"][0]["tables"] for x in (t["a"], t["b"])}
    assert ids["Dan"] not in paired and ids["Dan"] not in {e["id"] for e in doc["entries"]}
    assert doc["requests"] == []  # unanswered requests lapse at the start
    before = await stored_version(srv, tid)
    for action in ("approve", "refuse", "remove"):
        assert await refused(org, f"{api}/{action}", {"entrant": ids["Dan"]}) == (
            409, "bad_status",
        ), action  # fmt: skip
    assert await refused(org, f"{api}/remove", {"entrant": ids["Ben"]}) == (409, "bad_status")
    assert await stored_version(srv, tid) == before
    doc = await post(org, f"{api}/withdraw", {"entrant": ids["Ben"]})
    assert [e["withdrawn"] for e in doc["entries"] if e["id"] == ids["Ben"]] == [True]


async def as_stored_before(srv: GameServer, tid: str) -> None:
    """Rewrite a tournament's document as one stored before approval and removal were:
    no `requests`, no `removed`, no `approval` in its form."""
    url = str(srv.options["database_url"])
    (row,) = await rows(url, "SELECT doc FROM tournaments WHERE tid = $1", tid)
    doc = msgpack.unpackb(row["doc"], raw=False)
    del doc["requests"], doc["removed"], doc["form"]["approval"]
    blob = msgpack.packb(doc, use_bin_type=True)
    await rows(url, "UPDATE tournaments SET doc = $2 WHERE tid = $1", tid, blob)


async def test_open_entry_stays_as_it_was_and_the_organiser_removes_an_entrant(game_server):
    srv = game_server()
    org, ann, ben = hs = [Http(srv.url) for _ in range(3)]
    for h, name in zip(hs, ("Organiser", "Ann", "Ben"), strict=True):
        await h.register(name)
    doc = await post(org, "/api/tournaments", {"name": "Open", "sets": 1})
    tid, api = doc["id"], f"/api/tournaments/{doc['id']}"
    await as_stored_before(srv, tid)  # an older document loads, its entry open
    doc = await tournament(org, tid)
    assert "approval" not in doc["settings"] and doc["requests"] == []
    # a draft: nobody joins yet, but the organiser's own entries may be removed
    doc = await post(org, f"{api}/entry", {"name": "Ann", "members": ["Ann"]})
    doc = await post(org, f"{api}/remove", {"entrant": doc["entries"][0]["id"]})
    assert doc["entries"] == []
    await post(org, f"{api}/open")
    doc = await post(ann, f"{api}/join")
    assert doc["you"]["entrant"] is not None and doc["you"]["pending"] is False
    await post(ben, f"{api}/join")
    assert await refused(org, f"{api}/approve", {"entrant": doc["you"]["entrant"]}) == (
        404, "unknown_entrant",
    )  # fmt: skip
    doc = await post(org, f"{api}/remove", {"entrant": doc["you"]["entrant"], "reason": "Asked"})
    assert [e["name"] for e in doc["entries"]] == ["Ben"]
    assert (await tournament(ann, tid))["you"]["removed"]["reason"] == "Asked"
    doc = await post(ann, f"{api}/join")  # removed, not barred: he enters again
    assert sorted(e["name"] for e in doc["entries"]) == ["Ann", "Ben"]
    assert doc["you"]["removed"] is None
