"""The wire says only what has already happened: a `room` sent during a motion (to a watcher
joining, or on resync) shows the match as it was before the stroke until its ruling is
delivered, on strokes that keep the turn and on strokes that pass it."""

from __future__ import annotations

import pytest

from tests.server.server_client import Client, Msg, close_all
from tests.server.test_server_match_e2e import seat_singles
from tests.waits import until


def assert_shows_the_state_before_the_stroke(room: Msg, striker: int, on_table: set[int]) -> None:
    match = room["match"]
    assert match["phase"] == "motion"
    assert match["turn"] == striker, "the strike right as before the stroke"
    assert match["clock"]["seat"] == striker and match["clock"]["running"] is False
    assert match["rules"]["turn_seat"] == striker
    shown = {pid for pid, _owner, _x, _y, where in match["rules"]["pucks"] if where == "table"}
    assert shown == on_table, "no puck counted in before the motion shows it"
    assert match["result"] is None
    striker_disc = [d for d in room["discs"] if d["id"] == 0]
    assert not striker_disc or striker_disc[0]["owner"] == striker, "the striker: the seat's"


@pytest.mark.slow  # 20 s or more
async def test_a_watcher_joining_mid_motion_sees_the_match_as_before_the_stroke(game_server):
    srv = game_server(speed_factor=0.5)  # motions last long enough to join one
    a, b, rid = await seat_singles(srv)
    kinds: set[str] = set()
    for _ in range(30):
        striker: Client = await until(
            lambda: next((c for c in (a, b) if c.my_turn()), None), what="a seat's turn"
        )
        on_table = {d["id"] for d in striker.discs if d["id"] != 0}
        await striker.strike_once("singles")
        watcher = Client("Watcher")
        await watcher.connect(srv.ws_url)
        await watcher.send("watch", room=rid)
        room = await watcher.expect("room")
        if room["match"]["phase"] == "motion":
            assert_shows_the_state_before_the_stroke(room, striker.own_seat, on_table)
            ruling = await watcher.expect("ruling")
            kinds.add("keeps" if ruling["turn"] == striker.seat else "passes")
            if ruling["turn"] is None:
                break
        await watcher.close()
        for c in (a, b):
            while c.phase != "play" and c.result is None:
                await c.inbox.get()
        if kinds == {"keeps", "passes"}:
            break
    assert kinds == {"keeps", "passes"}, f"strokes of both kinds watched mid-motion: {kinds}"
    await close_all(a, b)


async def test_the_paths_show_the_striker_as_the_seat_that_struck(game_server):
    srv = game_server(speed_factor=2)
    a, b, _rid = await seat_singles(srv)
    striker = a if a.my_turn() else b
    stroke = await striker.strike_once("singles")
    (row,) = [row for row in stroke["paths"] if row[0] == 0]
    assert row[1] == 0 and row[2] == striker.seat, "kind 0 (the striker), owned by the seat"
    await close_all(a, b)


async def test_a_resignation_while_the_discs_move_ends_the_match_once_they_rest(game_server):
    """Issue 36: resign was refused during a motion ("Mitte praegu."), and against the
    computer the discs move every few seconds. Now it is taken, and takes effect when the
    motion ends: the stroke's ruling first, then the resignation's, then the result."""
    srv = game_server(speed_factor=0.5)  # a motion lasts long enough to resign during it
    a, b, _rid = await seat_singles(srv)
    striker, other = (a, b) if a.my_turn() else (b, a)
    stroke = await striker.strike_once("singles")
    assert stroke["duration"] / 0.5 > 0.5, "the stroke's motion outlasts the resignation's trip"
    await other.send("resign")
    rulings = [await other.expect("ruling"), await other.expect("ruling")]
    assert [r["cause"] for r in rulings] == ["stroke", "resign"]
    assert rulings[0]["stroke"] == stroke["stroke"] and rulings[1]["seat"] == other.seat
    result = await other.expect("result")
    assert result["winner"] == striker.own_seat % 2 and result["result"]["reason"] == "resign"
    assert (await striker.expect("result"))["winner"] == striker.own_seat % 2
    await other.sync()
    assert not [m for m in other.seen if m["t"] == "error"], "the resignation was not refused"
    await close_all(a, b)
