"""Every match ends (004 § 26 (2), (4), § 22 (5)): two players who only pass, or let their
clocks run out, are cautioned, and the third caution ends the match for players and watchers
alike; an absence after a run of passes is still ruled on time (§ 22 (3))."""

from __future__ import annotations

import asyncio
import time

from tests.server.server_client import Client, Msg, close_all, get_json
from tests.server.test_server_match_e2e import seat_singles


async def pass_when_to_strike(c: Client, rulings: list[Msg]) -> None:
    """Pass whenever it is this player's turn, until the match is over."""
    while True:
        msg = await c.inbox.get()
        if msg["t"] == "result":
            return
        if msg["t"] == "ruling":
            rulings.append(msg)
        turn = msg.get("turn") if msg["t"] == "ruling" else None
        if msg["t"] == "room" and msg.get("match"):
            turn = msg["match"]["turn"]
        if turn == c.seat:
            await c.send("pass")


async def test_players_who_only_pass_are_cautioned_and_the_third_caution_ends_the_match(
    game_server,
):
    srv = game_server()
    a, b, rid = await seat_singles(srv, sets=4)
    (watcher,) = [Client("Watcher")]
    await watcher.connect(srv.ws_url)
    await watcher.send("watch", room=rid)
    await watcher.expect("room")
    seen: dict[str, list[Msg]] = {"a": [], "b": []}
    if a.room and a.room["match"]["turn"] == a.seat:
        await a.send("pass")
    elif b.room and b.room["match"]["turn"] == b.seat:
        await b.send("pass")
    async with asyncio.timeout(30):
        await asyncio.gather(pass_when_to_strike(a, seen["a"]), pass_when_to_strike(b, seen["b"]))
    rulings = seen["a"]
    assert len(rulings) <= 2 * 4 + 5, "the bound of docs/rules.md, 'Cautions'"
    cautions = [r for r in rulings if any(ln["cite"] == "004 § 26 (4)" for ln in r["lines"])]
    assert len(cautions) == 5, "two for the first side to delay again, three for the other"
    last = rulings[-1]
    assert any(ln["cite"] == "004 § 26 (2), § 22 (5)" for ln in last["lines"])
    result = await watcher.expect("result")
    assert result["result"]["reason"] == "cautions" and result["score"] in ([4, 0], [0, 4])
    assert result["winner"] == 1 - last["seat"] % 2
    assert last["set"] == 1, "the set it ended in, not one past the last"
    record = get_json(srv.url + result["record"])
    assert record["result"]["reason"] == "cautions"
    await close_all(a, b, watcher)


async def test_an_absence_after_a_run_of_passes_is_ruled_when_the_grace_ends(game_server):
    srv = game_server(grace_seconds=2.0)
    a, b, _rid = await seat_singles(srv, sets=8)
    for _ in range(4):  # two passes each: one caution each, the match goes on
        striker = a if a.current_room["match"]["turn"] == a.seat else b
        await striker.send("pass")
        for c in (a, b):
            r = await c.expect("ruling")
            c.current_room["match"]["turn"] = r["turn"]
    dropped_at = time.monotonic()
    seat_b = b.seat
    await b.close()
    ruling = await a.expect("ruling", timeout=15)
    waited = time.monotonic() - dropped_at
    assert ruling["cause"] == "absent" and ruling["seat"] == seat_b
    assert 2.0 <= waited < 2.0 + 5.0, f"ruled {waited:.1f} s after the drop, grace 2 s"
    await close_all(a)
