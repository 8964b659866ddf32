"""A stroke's motion goes out once, as its exact paths (docs/protocol.md, "Motion"): the
`stroke` carries them, a watcher joining mid-motion gets them with the time played, and a
player resuming mid-motion by `seq` is told how far it has played; the positions they give
are the server's own (`DiscPath.position`), they end in the state the stroke's log entry
hashed (Novuss and Crokinole), and the ruling still comes after the motion."""

from __future__ import annotations

from typing import Any

from server.games.core.paths import discs_at
from server.games.crokinole.match import OFFSET
from server.games.crokinole.physics import Final
from server.games.crokinole.physics import state_hash as crokinole_hash
from server.games.novuss.sim import Trajectory
from server.games.novuss.sim.result import state_hash
from tests.server.server_client import Client, Msg, close_all, connected, get_json
from tests.server.test_crokinole_e2e import shot_for
from tests.server.test_server_match_e2e import seat_singles


def trajectory(motion: Msg) -> Trajectory:
    """The paths of a `stroke` (or `room.motion`) as the physics' own Trajectory."""
    data = {"v": 1, "decel": motion["decel"], "duration": motion["duration"]}
    return Trajectory.from_compact({**data, "discs": motion["paths"]})


def on_table(motion: Msg, t: float) -> list[dict[str, Any]]:
    """The discs on the table at time t by DiscPath.position, as the protocol shows discs."""
    return [
        {"id": d.id, "owner": d.owner, "x": round(d.x, 2), "y": round(d.y, 2)}
        for d in trajectory(motion).sample(t)
        if d.where == "table"
    ]


async def strike_when_due(a: Client, b: Client) -> tuple[Client, Msg]:
    """The player whose turn it is strikes; the striker and its `stroke`."""
    striker = a if a.my_turn() else b
    return striker, await striker.strike_once("singles")


async def test_a_watcher_joining_mid_motion_gets_the_paths_and_the_time_played(game_server):
    srv = game_server(speed_factor=0.5)  # a long motion: the watcher joins during it
    a, b, rid = await seat_singles(srv)
    striker, stroke = await strike_when_due(a, b)
    (w,) = await connected(srv.ws_url, "Watcher")
    await w.send("watch", room=rid)
    snap = await w.expect("room")
    motion = snap["motion"]
    assert motion is not None, "joined while the discs were moving"
    assert 0.0 < motion["time"] < motion["duration"], "part of the motion has played"
    assert motion["paths"] == stroke["paths"] and motion["decel"] == stroke["decel"]
    # the discs the room shows at that instant are where the paths have them
    assert snap["discs"] == on_table(motion, motion["time"])
    ruling = await w.expect("ruling")
    assert ruling["stroke"] == stroke["stroke"]
    # the paths are exact: where they end is the state the stroke's log entry hashed
    mid = snap["match"]["id"]
    entry = get_json(f"{srv.url}/api/matches/{mid}")["log"][1]
    assert entry["kind"] == "stroke" and entry["stroke"] == stroke["stroke"]
    assert state_hash(trajectory(stroke).sample(stroke["duration"])) == entry["hash"]
    for c in (a, b):
        while c.phase not in ("play", "over"):
            await c.inbox.get()
    assert "frame" not in {m["t"] for m in a.seen + b.seen + w.seen}, "nothing but the stroke"
    assert striker.seen.index(stroke) < next(
        i for i, m in enumerate(striker.seen) if m["t"] == "ruling"
    ), "the ruling after its motion"
    await close_all(a, b, w)


async def test_a_player_resuming_mid_motion_is_told_how_far_it_has_played(game_server):
    srv = game_server(speed_factor=0.5, grace_seconds=30)
    a, b, rid = await seat_singles(srv)
    striker, other = (a, b) if a.my_turn() else (b, a)
    token, since = other.token, other.last
    await other.close()
    await striker.expect("gone")
    stroke = await striker.strike_once("singles")
    again = Client(other.name)
    await again.connect(srv.ws_url, token=token)
    await again.send("resume", room=rid, since=since)
    replayed = await again.expect("stroke")
    assert replayed["seq"] == stroke["seq"] and replayed["paths"] == stroke["paths"]
    played = await again.expect("motion")
    assert played["stroke"] == stroke["stroke"]
    assert 0.0 < played["time"] < stroke["duration"], "the rest of the motion, not all of it"
    ruling = await again.expect("ruling")
    assert ruling["stroke"] == stroke["stroke"], "the ruling after the motion"
    assert "room" not in {m["t"] for m in again.seen}, "missed events, not a full resync"
    await close_all(striker, again)


async def test_a_resume_after_the_motion_says_it_has_played_to_its_end(game_server):
    srv = game_server(grace_seconds=30)
    a, b, rid = await seat_singles(srv)
    striker, other = (a, b) if a.my_turn() else (b, a)
    token, since = other.token, other.last
    await other.close()
    await striker.expect("gone")
    stroke = await striker.strike_once("singles")
    await striker.expect("ruling", stroke=stroke["stroke"])
    again = Client(other.name)
    await again.connect(srv.ws_url, token=token)
    await again.send("resume", room=rid, since=since)
    await again.expect("stroke")
    played = await again.expect("motion")
    assert played == {"t": "motion", "stroke": stroke["stroke"], "time": stroke["duration"]}
    await again.expect("ruling", stroke=stroke["stroke"])
    await close_all(striker, again)


async def test_a_crokinole_shot_goes_out_as_paths_from_the_boards_centre(game_server):
    srv = game_server(speed_factor=0.5)
    a, b, w = await connected(srv.ws_url, "Kro", "Kinole", "Watcher")
    await a.send("create", mode="singles", sets=1, clock=60, private=False, game="crokinole")
    rid = (await a.expect("room"))["id"]
    await b.send("join", room=rid)
    await b.expect("room")
    for c in (a, b):
        await c.send("ready")
    for c in (a, b):
        while c.room is None or c.room["match"] is None:
            await c.inbox.get()
    shooter = a if a.my_turn() else b
    await shooter.send("strike", **shot_for(shooter.own_seat, 0))
    stroke = await shooter.expect("stroke")
    assert stroke["origin"] == [OFFSET, OFFSET] and stroke["wheres"] == ["board", "hole", "ditch"]
    await w.send("watch", room=rid)
    snap = await w.expect("room")
    motion = snap["motion"]
    assert motion is not None and motion["paths"] == stroke["paths"]
    assert snap["discs"] == discs_at(motion, motion["time"]), "where the paths have them"
    await w.expect("ruling", stroke=stroke["stroke"])
    mid = snap["match"]["id"]
    entry = get_json(f"{srv.url}/api/matches/{mid}")["log"][1]
    wheres = stroke["wheres"]
    finals = [Final(p[0], wheres[p[3]], p[5], p[6], False) for p in stroke["paths"]]
    assert crokinole_hash(finals) == entry["hash"], "the paths end where the shot was judged"
    await close_all(a, b, w)
