"""Crokinole against the computer over real websockets and a real server: the computer
seat's shots go through the same judge (seed 002) as a person's, to the game's end."""

from __future__ import annotations

import asyncio

import pytest

from tests.computer.test_computer_e2e import FAST, play_computer
from tests.server.server_client import Client, close_all, connected, get_json
from tests.server.test_crokinole_e2e import play, shot_for

# a server of its own for each test: restarts, and the computer's server-wide counters in /healthz
pytestmark = pytest.mark.fresh_server


async def test_a_crokinole_singles_game_against_the_computer_runs_to_the_end(game_server):
    srv = game_server(**FAST)
    c = await play_computer(srv, game="crokinole", level=2)
    room = c.current_room
    assert room["game"] == "crokinole" and room["rated"] is False
    assert [s["computer"] for s in room["seats"]] == [None, 2]
    result = await play(c)
    assert result["winner"] in (0, 1, None)
    rounds = [m for m in c.seen if m["t"] == "round"]
    assert [r["round"] for r in rounds] == [1, 2, 3, 4] and sum(result["score"]) == 8  # 002 4 f
    # the computer shot its 8 discs a round (002 1), each judged (never refused: 002 5)
    rulings = [m for m in c.seen if m["t"] == "ruling" and m["cause"] == "stroke"]
    assert sum(r["seat"] == 1 for r in rulings) == 4 * 8
    assert not [m for m in c.seen if m["t"] == "error"]
    health = get_json(f"{srv.url}/healthz")["computer"]
    assert health["decisions"] >= 32 and health["given_up"] == 0
    await close_all(c)


async def test_quick_crokinole_offers_the_crokinole_computer_after_the_wait(game_server):
    srv = game_server(**FAST)
    (c,) = await connected(srv.ws_url, "Lone")
    await c.send("quick", mode="singles", game="crokinole", computer_after=5, level=2)
    await c.expect("queued")
    told = await c.expect("computer", timeout=90)  # never silently
    assert told["level"] == 2 and told["waited"] == 5.0
    while c.room is None or c.room["match"] is None:
        await c.inbox.get()
    room = c.current_room
    assert room["game"] == "crokinole" and room["seats"][1]["computer"] == 2
    # the computer shoots in turn (002 2 a): one of its shots ruled, the player's too
    k = 0
    async with asyncio.timeout(60):
        while not any(m["t"] == "ruling" and m["seat"] == 1 for m in c.seen):
            if c.my_turn():
                c.phase = "sent"
                await c.send("strike", **shot_for(0, k))
                k += 1
                await c.expect("stroke")
                continue
            await c.inbox.get()
    await close_all(c)


async def test_a_crokinole_computer_room_plays_on_after_a_restart(game_server):
    srv = game_server(**{**FAST, "grace_seconds": 30})
    c = await play_computer(srv, game="crokinole", level=2)
    rid, token = c.current_room["id"], c.token

    async def until_computer_ruled(client: Client, since: int) -> None:
        k = 0
        async with asyncio.timeout(90):
            while not any(
                m["t"] == "ruling" and m["seat"] == 1 and m["stroke"] > since for m in client.seen
            ):
                if client.my_turn():
                    client.phase = "sent"
                    await client.send("strike", **shot_for(0, k))
                    k += 1
                    await client.expect("stroke")
                    continue
                await client.inbox.get()

    await until_computer_ruled(c, 0)
    done = max(m["stroke"] for m in c.seen if m["t"] == "ruling")
    srv.kill()  # SIGKILL: the checkpoint holds the computer seat and the rules state
    await c.close()
    srv.start()
    back = Client("Mari")
    welcome = await back.connect(srv.ws_url, token=token)
    assert welcome["seat"]["room"] == rid
    await back.send("resume", room=rid, since=0)
    room = await back.expect("room")
    assert room["game"] == "crokinole" and room["seats"][1]["computer"] == 2
    await until_computer_ruled(back, done)  # the computer is back at the table and shoots
    await close_all(back)


@pytest.mark.alone  # its hang watch against a search's CPU time (pyproject.toml)
async def test_a_crokinole_computer_that_never_answers_resigns_and_the_game_ends(game_server):
    # every search (tens of ms of CPU) outlives a --bot-timeout of 5 ms and is given up after
    # three tries; seed 002 has no shot clock to rule it, so the computer resigns rather than
    # hold the game for ever. The hang watch runs on the clock's tick, 5 ms here: a search
    # is timed from its own start, and one of 30 ms could end between ticks of 100 ms
    srv = game_server(**{**FAST, "bot_budget": 5.0, "bot_timeout": 0.005, "tick_seconds": 0.005})
    c = await play_computer(srv, game="crokinole", level=5)
    result = await play(c)
    assert result["winner"] == 0 and result["cause"] == "resign", result
    health = get_json(f"{srv.url}/healthz")["computer"]
    shots = [m["stroke"] for m in c.seen if m["t"] == "stroke" and m["seat"] == 1]
    assert health["given_up"] >= 1 and health["decisions"] == len(shots), (health, shots)
    # a search in the round's first positions (a disc or two on the board) may take less
    # CPU than the watch can see (the kernel counts CPU in 10 ms steps), so it may answer;
    # the later ones cannot, and the computer resigned before its round was shot (002 1)
    assert len(shots) < 8, shots
    await close_all(c)
