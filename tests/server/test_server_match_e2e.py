"""Whole matches over real websockets against a real server process and a real Redis."""

from __future__ import annotations

import asyncio

import pytest

from server.games.novuss.game import NOVUSS
from server.games.novuss.rules import MatchConfig, new_match, sim_discs
from server.games.novuss.sim import COMPETITION, Shot, SimInputError, simulate
from tests.conftest import GameServer
from tests.server.server_bot import choose_shot
from tests.server.server_client import Client, close_all, connected, get_json


def doubles_simulates() -> bool:
    """Does the physics take a doubles table (32 pucks and the striker) in one stroke?"""
    state = new_match(MatchConfig(mode="doubles"), 0)
    seat = state.turn_seat
    assert seat is not None, "a new match has a seat to strike"
    discs = [{"id": d.id, "owner": d.owner, "x": d.x, "y": d.y} for d in sim_discs(state)]
    shot = choose_shot(discs, seat, state.side_of(seat), NOVUSS.table_view(), "doubles")
    try:
        simulate(COMPETITION, sim_discs(state), Shot(*shot))
    except SimInputError:
        return False
    return True


async def seat_singles(srv: GameServer, sets: int = 1) -> tuple[Client, Client, str]:
    """Two players in a new singles room, both ready: the match has started."""
    a, b = await connected(srv.ws_url, "Anu", "Boris")
    await a.send("create", mode="singles", sets=sets, clock=60, private=False)
    room = await a.expect("room")
    await b.send("join", room=room["id"])
    await b.expect("room")
    await a.send("ready")
    await b.send("ready")
    for c in (a, b):
        while c.room is None or c.room["match"] is None:
            await c.inbox.get()
    return a, b, room["id"]


async def watched_singles(
    srv: GameServer, *watchers: str
) -> tuple[Client, Client, list[Client], str]:
    """(striker, other, watchers, room id): a singles match just started (seat_singles) and
    watched by a client of each name in `watchers`."""
    a, b, rid = await seat_singles(srv)
    seen = await connected(srv.ws_url, *watchers)
    for w in seen:
        await w.send("watch", room=rid)
        await w.expect("room")
    striker, other = (a, b) if a.my_turn() else (b, a)
    return striker, other, seen, rid


async def test_singles_match_to_its_result(game_server):
    srv = game_server(speed_factor=25)
    a, b, _rid = await seat_singles(srv, sets=1)
    results = await asyncio.gather(a.play("singles"), b.play("singles"))
    assert results[0] == results[1]
    result = results[0]
    assert result["winner"] in (0, 1)
    assert result["score"][result["winner"]] == 1
    # both saw every event, in order, without a gap
    for c in (a, b):
        assert c.seqs == sorted(c.seqs)
        assert len(set(c.seqs)) == len(c.seqs)
    assert a.discs == b.discs
    assert a.token is not None and b.token is not None
    assert all(b.token not in repr(m) for m in a.seen), "a resume token is never shown to others"
    assert all(a.token not in repr(m) for m in b.seen)
    record = get_json(srv.url + result["record"])
    strokes = [e for e in record["log"] if e["kind"] == "stroke"]
    assert len(strokes) == len(a.strokes_seen) > 0
    assert record["log"][0]["kind"] == "start" and record["log"][-1]["kind"] == "end"
    assert all("ruling" in e and "shot" in e for e in strokes)
    assert [p["name"] for p in record["players"]] == ["Anu", "Boris"]
    listed = get_json(srv.url + "/api/matches")["matches"]
    assert any(m["id"] == result["match"] and m["result"] is not None for m in listed)
    await close_all(a, b)


@pytest.mark.xfail(
    not doubles_simulates(),
    reason="the Novuss sim refuses a doubles table (32 pucks and the striker) in one stroke",
    strict=True,
)
async def test_doubles_sets_rotate_seats_clockwise(game_server):
    srv = game_server(speed_factor=40)
    players = await connected(srv.ws_url, "N0", "N1", "N2", "N3")
    await players[0].send("create", mode="doubles", sets=2, clock=60, private=False)
    rid = (await players[0].expect("room"))["id"]
    await players[1].send("join", room=rid, team=1)
    await players[2].send("join", room=rid, team=0)
    await players[3].send("join", room=rid, team=1)
    for p in players:
        await p.expect("room", you={"role": "player", "seat": players.index(p)})
    for p in players:
        await p.send("ready")
    for p in players:
        while p.room is None or p.room["match"] is None:
            await p.inbox.get()
    first_sides = [side for side in players[0].sides if side is not None]
    assert len(first_sides) == 4, "every seat taken"
    results = await asyncio.gather(*(p.play("doubles", timeout=150) for p in players))
    assert all(r == results[0] for r in results)
    rulings = [m for m in players[0].seen if m["t"] == "ruling"]
    for r in rulings:
        passes = (
            r["turn"] is not None
            and r["set"] == rulings[0]["set"]
            and not r["ruling"]["keeps_turn"]
        )
        if passes and r["ruling"]["set_result"] is None:
            assert r["turn"] == (r["seat"] + 1) % 4, "the strike passes clockwise (004 § 28 (1))"
    second = next(r for r in rulings if r["set"] == 2)
    order = ["S", "W", "N", "E"]
    assert second["sides"] == [order[(order.index(s) + 1) % 4] for s in first_sides], (
        "after a set every player moves one place clockwise (004 § 28 (1))"
    )
    await close_all(*players)
