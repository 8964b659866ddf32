"""The replay viewer's endpoints (server/replay/http.py) against a real server and Redis: a
played match's steps recomputed with every hash agreeing, each stroke's served motion ending
exactly in the stored state hash; bad ids and strokes 404; a private match only with its
invite; a Crokinole match's shots and rounds recomputed hash by hash, each shot's served paths
ending exactly in its stored state hash; an altered record's mismatch marked."""

from __future__ import annotations

import asyncio
import json
from typing import Any
from urllib.error import HTTPError
from urllib.request import urlopen

import pytest

from server.games.crokinole.physics import Final
from server.games.crokinole.physics import state_hash as crokinole_hash
from server.games.novuss.sim.result import Trajectory, state_hash
from server.replay.steps import recompute
from server.store.archive import opened, sealed
from tests.accounts.account_client import Http, until
from tests.pg import rows
from tests.replay.test_notation_e2e import start_room
from tests.server.server_client import Client, connected, get_json
from tests.server.test_crokinole_e2e import shot_for

pytestmark = pytest.mark.asyncio


def fetch(url: str) -> tuple[int, Any]:
    """(status, JSON body or text) of a GET, errors included."""
    try:
        with urlopen(url, timeout=10) as r:
            status, raw = r.status, r.read().decode()
    except HTTPError as e:
        status, raw = e.code, e.read().decode()
    try:
        return status, json.loads(raw)
    except ValueError:
        return status, raw


async def resign_at_rest(loser: Any, winner: Any) -> str:
    """Once the last stroke's motion has ended (its ruling delivered), the loser resigns; the
    match's id."""
    await until(lambda: loser.phase == "play", 30, "the last ruling")
    await loser.send("resign")
    return str((await winner.expect("result"))["record"].split("/")[3])


async def shoot_crokinole(c: Client, shots: int) -> None:
    """Shoot at the 20-hole whenever it is this player's turn, until `shots` shots of the
    match have been played (or its result)."""
    k = 0
    async with asyncio.timeout(120):
        while c.result is None and len(c.strokes_seen) < shots:
            if c.my_turn():
                c.phase = "sent"
                await c.send("strike", **shot_for(c.own_seat, k))
                k += 1
                await c.expect("stroke")
                continue
            await c.inbox.get()


def crokinole_motion_hash(motion: dict[str, Any]) -> str:
    """The state hash of where a Crokinole shot's served paths end (each path's end, in the
    rules' coordinates: server/games/crokinole/replay.py `paths`)."""
    wheres = motion["wheres"]
    finals = [Final(p[0], wheres[p[3]], p[5], p[6], False) for p in motion["paths"]]
    return crokinole_hash(finals)


def motion_hash(motion: dict[str, Any]) -> str:
    """The state hash of where the served paths end (the striker's owner is not hashed)."""
    paths = [[d[0], d[1], -1 if d[0] == 0 else d[2], *d[3:]] for d in motion["paths"]]
    data = {"v": 1, "decel": motion["decel"], "duration": motion["duration"], "discs": paths}
    return state_hash(Trajectory.from_compact(data).sample(motion["duration"]))


async def test_a_played_match_steps_and_strokes_replay_exactly(game_server):
    srv = game_server(speed_factor=25)
    a = await Http(srv.url).player(srv.ws_url, name="Anu")
    b = await Http(srv.url).player(srv.ws_url, name="Boris")
    await start_room(a, b, private=False)
    await asyncio.gather(a.play("singles", strokes=5), b.play("singles", strokes=5))
    mid = await resign_at_rest(a, b)
    record = await asyncio.to_thread(get_json, f"{srv.url}/api/matches/{mid}")
    status, rep = await asyncio.to_thread(fetch, f"{srv.url}/api/matches/{mid}/replay")
    assert status == 200, rep
    assert rep["mismatches"] == 0 and rep["stopped"] is None
    assert [p["name"] for p in rep["players"]] == ["Anu", "Boris"]
    strokes = [e for e in record["log"] if e["kind"] == "stroke"]
    steps = [s for s in rep["steps"] if s["kind"] == "stroke"]
    assert len(steps) == len(strokes) >= 5
    assert all(s["hash_ok"] and s["ruling_ok"] for s in steps)
    assert [s["ruling"] for s in steps] == [e["ruling"] for e in strokes]
    assert rep["steps"][-1]["kind"] == "end" and rep["steps"][-1]["result"]["winner"] == 1
    assert len(rep["start"]["discs"]) == 16 and rep["table"]["size"]
    for entry, step in zip(strokes, steps, strict=True):
        n = entry["stroke"]
        status, motion = await asyncio.to_thread(fetch, f"{srv.url}/api/matches/{mid}/replay/{n}")
        assert status == 200 and motion["hash_ok"] is True
        assert motion_hash(motion) == motion["hash"] == entry["hash"]
        assert motion["seat"] == entry["seat"] and motion["shot"] == entry["shot"]
        striker = next(p for p in motion["paths"] if p[0] == 0)  # struck from its place
        assert (striker[2], striker[8], striker[9]) == (entry["seat"], entry["shot"]["x"],
                                                        entry["shot"]["y"])  # fmt: skip
        assert step["stroke"] == n
    # bad ids and strokes: clear 404s, the page's too
    for path in (
        "/api/matches/nope/replay",
        f"/api/matches/{mid}/replay/999",
        f"/api/matches/{mid}/replay/0",
        f"/api/matches/{mid}/replay/x",
        "/api/matches/nope/replay/1",
    ):
        status, body = await asyncio.to_thread(fetch, srv.url + path)
        assert status == 404 and body["error"] in ("no_match", "no_stroke"), path
    status, page = await asyncio.to_thread(fetch, f"{srv.url}/m/nope")
    assert status == 404 and "replay-canvas" in page
    status, page = await asyncio.to_thread(fetch, f"{srv.url}/m/{mid}")
    assert status == 200 and "replay-canvas" in page


async def test_a_private_match_replays_only_with_its_invite_crokinole_verifies(game_server):
    srv = game_server(speed_factor=25)
    a, b = await connected(srv.ws_url, "Priv", "Ate")
    room = await start_room(a, b, private=True)
    await a.send("resign")
    mid = (await b.expect("result"))["record"].split("/")[3].split("?")[0]
    for query in ("", "?invite=wrong"):
        for path in (f"/api/matches/{mid}/replay{query}", f"/m/{mid}{query}"):
            status, _ = await asyncio.to_thread(fetch, srv.url + path)
            assert status == 404, "to anybody else it does not exist"
    invite = room["invite"]
    url = f"{srv.url}/api/matches/{mid}/replay?invite={invite}"
    status, rep = await asyncio.to_thread(fetch, url)
    assert status == 200 and rep["steps"][0]["kind"] == "resign" and "access" not in rep
    status, _ = await asyncio.to_thread(fetch, f"{srv.url}/m/{mid}?invite={invite}")
    assert status == 200
    for c in (a, b):
        await c.send("leave")
    # Crokinole: refused until issue 31 (no state hash); now every shot carries its hash and
    # the match replays as Novuss's does, a round's close (002 2 c, 4 f) included
    c, d = await connected(srv.ws_url, "Kro", "Kinole")
    await start_room(c, d, private=False, game="crokinole")
    await asyncio.gather(shoot_crokinole(c, 17), shoot_crokinole(d, 17))
    mid = await resign_at_rest(c, d)
    record = await asyncio.to_thread(get_json, f"{srv.url}/api/matches/{mid}")
    status, rep = await asyncio.to_thread(fetch, f"{srv.url}/api/matches/{mid}/replay")
    assert status == 200, rep
    assert rep["mismatches"] == 0 and rep["stopped"] is None
    assert rep["table"]["game"] == "crokinole" and len(rep["table"]["pegs"]) == 8
    shots = [e for e in record["log"] if e["kind"] == "stroke"]
    steps = [s for s in rep["steps"] if s["kind"] == "stroke"]
    assert len(steps) == len(shots) >= 17 and all(len(e["hash"]) == 64 for e in shots)
    assert all(s["hash_ok"] is True and s["ruling_ok"] is True for s in steps)
    assert steps[15]["set"] == 2 and steps[15]["discs"] == []  # round 1 counted and cleared
    assert [s["kind"] for s in rep["steps"][-2:]] == ["resign", "end"]
    assert rep["steps"][-1]["ruling_ok"] is True and rep["steps"][-1]["result"]["winner"] == 1
    for entry in shots[:3] + shots[15:17]:
        n = entry["stroke"]
        status, motion = await asyncio.to_thread(fetch, f"{srv.url}/api/matches/{mid}/replay/{n}")
        assert status == 200 and motion["hash_ok"] is True
        assert crokinole_motion_hash(motion) == motion["hash"] == entry["hash"]
        assert motion["seat"] == entry["seat"] and motion["shot"] == entry["shot"]


async def test_a_live_match_replays_so_far_and_an_altered_record_is_marked(game_server):
    srv = game_server(speed_factor=25)
    a, b = await connected(srv.ws_url, "Alt", "Ered")
    await start_room(a, b, private=False)
    await asyncio.gather(a.play("singles", strokes=3), b.play("singles", strokes=3))
    await until(lambda: a.phase == "play", 30, "the last ruling")
    live = a.current_room["match"]["id"]
    status, rep = await asyncio.to_thread(fetch, f"{srv.url}/api/matches/{live}/replay")
    assert status == 200 and rep["ended"] is None and rep["mismatches"] == 0
    assert [s["stroke"] for s in rep["steps"]] == list(range(1, len(a.strokes_seen) + 1))
    assert rep["steps"][-1]["result"] is None
    mid = await resign_at_rest(a, b)
    assert mid == live
    # the log has grown: recomputed, not the cached replay of the live match
    status, rep = await asyncio.to_thread(fetch, f"{srv.url}/api/matches/{mid}/replay")
    assert [s["kind"] for s in rep["steps"][-2:]] == ["resign", "end"]
    record = await asyncio.to_thread(get_json, f"{srv.url}/api/matches/{mid}")
    first = next(e for e in record["log"] if e["kind"] == "stroke")
    first["shot"]["speed"] *= 0.5
    replayed = recompute(record)
    marked = next(s for s in replayed.steps if s["stroke"] == first["stroke"])
    assert marked["hash_ok"] is False and replayed.mismatches >= 1
    # a corrupted stored log (an entry without its stroke) is reported, not served as a replay:
    # the archive's inputs in PostgreSQL, once archived (server/store/archive.py). A match whose
    # replay was never asked for: an archived record never changes, so the server keeps the
    # replay of one it served (the fetch above may have come after the archive).
    c, d = await connected(srv.ws_url, "Cor", "Rupt")
    await start_room(c, d, private=False)
    mid = await resign_at_rest(c, d)
    url = str(srv.options["database_url"])

    async def archived() -> bool:
        return bool(await rows(url, "SELECT 1 FROM matches WHERE mid = $1", mid))

    await until(archived, what="the archive")
    ((inputs,),) = await rows(url, "SELECT inputs FROM matches WHERE mid = $1", mid)
    t0, last, items = opened(inputs)
    items.append({"kind": "stroke", "at": 0.0})
    corrupt = sealed([t0, last, items])
    await rows(url, "UPDATE matches SET inputs = $2 WHERE mid = $1 RETURNING 1", mid, corrupt)
    status, body = await asyncio.to_thread(fetch, f"{srv.url}/api/matches/{mid}/replay")
    assert status == 422 and body["error"] == "not_replayable"
    status, body = await asyncio.to_thread(fetch, f"{srv.url}/api/matches/{mid}/replay/1")
    assert status == 422
