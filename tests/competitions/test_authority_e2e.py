"""The organiser's actions are the organiser's only; bad results are refused with their codes
and change nothing (docs/competitions.md, "API"). Results here are entered by hand (matches
played at real tables), so no websocket is needed."""

from __future__ import annotations

from typing import Any

import pytest

from tests.accounts.account_client import Http
from tests.competitions.tour_client import post, tournament
from tests.conftest import GameServer
from tests.pg import rows

# a server of its own for each test: the tournaments' lists and limits are the server's
pytestmark = [pytest.mark.asyncio, pytest.mark.fresh_server]


async def stored_version(srv: GameServer, tid: str) -> int:
    """The tournament document's version in PostgreSQL (changes with every write)."""
    url = str(srv.options["database_url"])
    found = await rows(url, "SELECT version FROM tournaments WHERE tid = $1", tid)
    return int(found[0]["version"])


async def refused(h: Http, path: str, body: dict[str, Any] | None = None) -> tuple[int, str]:
    """POST expected to be refused: (status, error code)."""
    status, answer, _ = await h.post(path, body or {})
    assert status != 200, answer
    return status, str(answer.get("error"))


async def test_only_the_organiser_runs_a_tournament_and_bad_results_are_refused(game_server):
    srv = game_server()
    org, intruder, *players = [Http(srv.url) for _ in range(6)]
    await org.register("Organiser")
    await intruder.register("Intruder")
    for i, h in enumerate(players):
        await h.register(f"Player{i}")
    doc = await post(org, "/api/tournaments", {"name": "Club", "sets": 1, "auto": True})
    tid = doc["id"]
    api = f"/api/tournaments/{tid}"
    # another account: 403 not_organiser, and nothing changes
    before = await stored_version(srv, tid)
    assert await refused(intruder, f"{api}/open") == (403, "not_organiser")
    await post(org, f"{api}/open")
    for h in players:
        await post(h, f"{api}/join")
    before = await stored_version(srv, tid)
    for action, body in (("start", {}), ("entry", {"name": "X", "members": ["Intruder"]}),
                         ("pause", {}), ("withdraw", {"entrant": "x"})):  # fmt: skip
        assert await refused(intruder, f"{api}/{action}", body) == (403, "not_organiser"), action
    assert await stored_version(srv, tid) == before
    # a guest: log in first; another site's page: refused before anything is read
    assert await refused(Http(srv.url), f"{api}/join") == (401, "not_logged_in")
    foreign = Http(srv.url, origin="https://evil.example")
    status, answer, _ = await foreign.post(f"{api}/start", {}, {"Cookie": org.cookie()})
    assert (status, answer["error"]) == (403, "foreign_origin")
    assert await stored_version(srv, tid) == before

    doc = await post(org, f"{api}/start")
    assert doc["status"] == "running" and doc["round"] == 1
    tables = doc["rounds"][0]["tables"]
    t0, t1 = tables
    body = {"round": 1, "a": t0["a"], "b": t0["b"], "sets_a": 1, "sets_b": 0}
    before = await stored_version(srv, tid)
    assert await refused(intruder, f"{api}/result", body) == (403, "not_organiser")
    # a score a one-set match cannot end with (004 § 32 (1))
    assert await refused(org, f"{api}/result", {**body, "sets_b": 1}) == (409, "bad_score")
    # the wrong pair: these two do not meet in this round
    wrong = {**body, "b": t1["a"]}
    assert await refused(org, f"{api}/result", wrong) == (409, "not_paired")
    for bad in ({**body, "a": ["x"]}, {**body, "sets_a": "1"}, {**body, "game": True}):
        assert await refused(org, f"{api}/result", bad) == (400, "bad_request"), bad
    assert await stored_version(srv, tid) == before
    doc = await post(org, f"{api}/result", body)
    (entered,) = [t for t in doc["rounds"][0]["tables"] if t["key"] == t0["key"]]
    assert entered["outcome"] == {"sets": [1, 0], "forfeit": None, "match": None, "by_hand": True}
    # twice: refused, whichever way round the pair is named
    flipped = {"round": 1, "a": t0["b"], "b": t0["a"], "sets_a": 0, "sets_b": 1}
    assert await refused(org, f"{api}/result", flipped) == (409, "result_twice")
    # the organiser pauses: the round completes, the next does not start until he goes on
    await post(org, f"{api}/pause")
    body1 = {"round": 1, "a": t1["a"], "b": t1["b"], "forfeit": t1["b"]}
    doc = await post(org, f"{api}/result", body1)
    assert doc["status"] == "paused" and doc["round"] == 1
    assert [r["forfeit"] for r in doc["rounds"][0]["results"] if r["forfeit"]] == [t1["b"]]
    doc = await post(org, f"{api}/resume")
    assert doc["status"] == "running" and doc["round"] == 2
    # late: round 1 is over
    assert await refused(org, f"{api}/result", body) == (409, "late_result")
    # withdrawal (004 § 32 (3) 1)): fewer than half played in a round robin of 4 (3 each):
    # his results are struck out, and his table of this round is closed
    (gone,) = [e for e in doc["entries"] if e["id"] == t0["b"]]
    doc = await post(org, f"{api}/withdraw", {"entrant": gone["id"]})
    assert [e["withdrawn"] for e in doc["entries"] if e["id"] == gone["id"]] == [True]
    assert gone["id"] not in [s["entrant"] for s in doc["standings"]]
    mine = [t for t in doc["rounds"][1]["tables"] if gone["id"] in (t["a"], t["b"])]
    assert mine and all(t["outcome"] is not None for t in mine)
    assert await refused(org, f"{api}/withdraw", {"entrant": gone["id"]}) == (
        409, "already_withdrawn",
    )  # fmt: skip
    # the players' page shows the same tournament to anybody, the organiser's rights to him
    seen = await tournament(intruder, tid)
    assert seen["you"]["organiser"] is False and seen["standings"] == doc["standings"]
    assert (await tournament(org, tid))["you"]["organiser"] is True


async def test_an_account_creates_at_most_twenty_tournaments_an_hour(game_server):
    srv = game_server()
    h = Http(srv.url)
    await h.register("Prolific")
    for i in range(20):
        await post(h, "/api/tournaments", {"name": f"Cup {i}"})
    assert await refused(h, "/api/tournaments", {"name": "One more"}) == (429, "throttled")
    status, listed = await h.get("/api/tournaments")
    assert status == 200 and len(listed["tournaments"]) == 20
