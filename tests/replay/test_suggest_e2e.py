"""The replay viewer's suggestion against a real server (server/replay/http.py): at each step
of a played match where a player is to strike, the computer's top level is asked; asked all
at once, the searches beyond the replays' bound are refused 503 `busy` with `Retry-After` and
change nothing; asked again one by one, each is served, and is a stroke the referee accepts
from that step's position, judged here through the rules and the core (004 § 23: no foul).
A step where nobody strikes, or that does not exist, is 404; the answer is kept, the same
when asked again."""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
import pytest

from server.games.novuss.rules import MatchState, judge, sim_discs
from server.games.novuss.sim import COMPETITION, Shot, simulate
from server.replay.http import SUGGEST_BURST, SUGGEST_RATE
from tests.replay.test_notation_e2e import start_room
from tests.replay.test_replay_viewer_e2e import fetch, resign_at_rest
from tests.server.server_client import close_all, connected, get_json

pytestmark = pytest.mark.asyncio


def positions(record: dict[str, Any]) -> list[MatchState]:
    """The referee's state at each step (0: the start), recomputed here from the record's log
    with the rules and the core, apart from the server's replay."""
    state = MatchState.from_dict(record["log"][0]["state"])
    out = [state]
    for entry in record["log"][1:]:
        if entry["kind"] == "stroke":
            shot = Shot(**entry["shot"])
            state = judge(
                state, entry["seat"], shot, simulate(COMPETITION, sim_discs(state), shot)
            ).state
        out.append(state)  # the resignation and the end: the match is over (turn_seat None)
    return out


async def test_suggestions_are_bounded_legal_and_kept(game_server):
    srv = game_server(speed_factor=25)
    a, b = await connected(srv.ws_url, "Aili", "Bruno")
    await start_room(a, b, private=False)
    await asyncio.gather(a.play("singles", strokes=7), b.play("singles", strokes=7))
    mid = await resign_at_rest(a, b)
    await close_all(a, b)
    status, rep = fetch(f"{srv.url}/api/matches/{mid}/replay")  # recomputed, and kept
    assert status == 200
    strikes = [i for i in range(len(rep["steps"]) + 1) if
               ((rep["steps"][i - 1] if i else rep["start"])["turn"] is not None)]  # fmt: skip
    assert len(strikes) > SUGGEST_BURST
    url = f"{srv.url}/api/matches/{mid}/replay/step/{{}}/suggestion"

    async with aiohttp.ClientSession() as http:

        async def ask(i: int) -> tuple[int, Any, str | None]:
            async with http.get(url.format(i)) as r:
                return r.status, await r.json(), r.headers.get("Retry-After")

        # one search at a time in all: the others are `busy` (a flood held every slot of the
        # replays' worker, and everybody's replays were refused)
        flood = await asyncio.gather(*(ask(i) for i in strikes))
        assert [s for s, _, _ in flood].count(200) == 1, flood
        busy = [(body["error"], after) for s, body, after in flood if s == 503]
        assert len(busy) == len(strikes) - 1, flood
        assert all(e == "busy" and after for e, after in busy), flood
        # one at a time: each served, up to a few new ones an address (the one already
        # answered is kept: free), then `rate_limited` with when to ask again
        answers: dict[int, tuple[int, Any, str | None]] = {}
        for i in strikes:
            got = await ask(i)
            if got[0] == 429:
                assert got[1]["code"] == "rate_limited" and got[2] == str(round(1 / SUGGEST_RATE))
                break
            answers[i] = got
        assert len(answers) == min(len(strikes), int(SUGGEST_BURST))

    record = get_json(f"{srv.url}/api/matches/{mid}")
    states = positions(record)
    for i, (status, got, _after) in answers.items():
        assert status == 200, got
        state = states[i]
        assert got["seat"] == state.turn_seat
        shot = Shot(**got["shot"])
        ruling = judge(state, got["seat"], shot, simulate(COMPETITION, sim_discs(state), shot))
        assert ruling.legal and got["legal"] is True, (i, got)
        assert ruling.to_dict()["pocketed"] == got["ruling"]["pocketed"]
    again = fetch(url.format(strikes[0]))
    assert again == (200, answers[strikes[0]][1])  # kept: the same stroke
    over = len(rep["steps"])  # after the resignation's end
    assert fetch(url.format(over))[1]["error"] == "no_suggestion"
    assert fetch(url.format(over + 5))[0] == 404
    assert fetch(url.format("x"))[1]["error"] == "no_step"
    health = get_json(f"{srv.url}/healthz")["replays"]
    assert health["refused"] >= len(busy) and health["running"] == 0
