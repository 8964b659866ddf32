"""Rated Crokinole (issue 18): each game and mode rated apart (`crokinole-singles`,
`crokinole-doubles`, `crokinole-7d`), a 3 or 4 player game (002 7 d) rated by where each
player finished; through a real server and Redis, and the archive's plan from a whole game."""

from __future__ import annotations

from typing import Any

import pytest

from server.games.core.play import Settings
from server.games.crokinole.match import CrokinoleMatch
from server.games.novuss.sim import Shot
from server.games.registry import rating_mode
from server.history.summary import ranks_of, rating_mode_of, summarise
from server.lobby.room import Room
from server.lobby.seat import Player
from server.ratings.model import Skill, rate_ranked
from tests.accounts.account_client import (
    Http,
    browsers,
    each_side_strikes,
    resign_match,
    seat_pair,
    until,
)
from tests.server.test_crokinole_e2e import flick, shot_for

# a server of its own for each test: the leaderboards are the server's
pytestmark = pytest.mark.fresh_server

SETTINGS = Settings(speed_factor=10.0)


def test_each_game_and_mode_has_its_own_rating():
    assert rating_mode("novuss", "singles") == "singles"  # Novuss's keys as before
    assert rating_mode("crokinole", "singles") == "crokinole-singles"
    assert rating_mode("crokinole", "doubles") == "crokinole-doubles"
    assert rating_mode("crokinole", "singles", alone=True) == "crokinole-7d"  # 002 7 d


def test_four_sides_rated_by_rank_first_gains_most_last_loses_most():
    after = rate_ranked([[Skill()] for _ in range(4)], [0.0, 1.0, 2.0, 3.0])
    mus = [s.mu for (s,) in after]
    assert mus == sorted(mus, reverse=True) and mus[0] > 25 > mus[3]
    tied = rate_ranked([[Skill()] for _ in range(3)], [0.0, 0.0, 2.0])
    assert abs(tied[0][0].mu - tied[1][0].mu) < 1e-9 and tied[2][0].mu < 25
    with pytest.raises(ValueError):
        rate_ranked([[Skill()], [Skill()]], [0.0])


def _whole_game(players: int) -> dict[str, Any]:
    """A whole 3 or 4 player game (002 7 d, 4 rounds) played in a room, as its record: the
    last header the room wrote, with its log, every player registered and the room rated."""
    room = Room(
        "r1", "singles", 1, 30.0, False, SETTINGS, 120.0,
        game="crokinole", options={"players": players}, rated=True,
    )  # fmt: skip
    for i in range(players):
        room.join(Player(f"s{i}", f"P{i}", f"u{i}", 1500, True), f"P{i}", None, None, 0.0)
    for i in range(players):
        room.set_ready(f"s{i}", True, 0.0)
    match = room.match
    assert isinstance(match, CrokinoleMatch)
    now, k = 1.0, 0
    while room.status == "playing":
        seat = match.turn
        assert seat is not None
        room.strike(f"s{seat}", Shot(**shot_for(seat, k, players=players)), now)
        room.finish_motion(now + 5.0)
        now, k = now + 10.0, k + 1
    return {**room.records[-1], "log": [entry for _, entry in room.log]}


def test_7d_a_three_player_game_rates_by_rank():
    record = _whole_game(3)
    assert rating_mode_of(record) == "crokinole-7d"
    score = record["score"]
    assert len(score) == 3 and sum(score) == 4 * (8 + 6 + 4)  # 002 7 d: 8, 6, 4; 4 rounds
    plan = summarise(record, {})
    assert plan.mode == "crokinole-7d"
    mu = {p["team"]: plan.ratings[p["account"]][0] for p in record["players"]}
    ranks = ranks_of(record, 3)
    # more points, a better rank and a higher rating; equal points, equal ratings
    for a in range(3):
        for b in range(3):
            if score[a] > score[b]:
                assert ranks[a] < ranks[b] and mu[a] > mu[b]
            elif score[a] == score[b]:
                assert ranks[a] == ranks[b] and abs(mu[a] - mu[b]) < 1e-9
    assert len(set(score)) > 1, "the scripted game ended with everybody level"
    assert all(plan.counters[p["account"]]["crokinole-singles:matches"] == 1
               for p in record["players"])  # fmt: skip


def test_7d_a_player_who_resigns_ranks_last_whatever_the_points():
    record = {
        "game": "crokinole", "mode": "singles", "rated": True, "score": [9, 2, 5],
        "result": {"winner": 2, "cause": "resign"},
        "players": [{"seat": i, "team": i, "account": f"u{i}"} for i in range(3)],
        "log": [{"kind": "resign", "seat": 0}],
    }  # fmt: skip
    assert ranks_of(record, 3) == [2.0, 1.0, 0.0]


async def seat_ratings(ha: Http, hb: Http, ws_url: str, **create: Any) -> list[int]:
    """The ratings the seats show when ha's player creates a singles room and hb's joins it,
    each on a new connection (nothing played: both close)."""
    a, b = await ha.player(ws_url), await hb.player(ws_url)
    await a.send("create", mode="singles", sets=1, clock=60, private=False, **create)
    room = await a.expect("room")
    await b.send("join", room=room["id"])
    joined = await b.expect("room", you={"role": "player", "seat": 1})
    for c in (a, b):
        await c.send("leave")
        await c.expect("left")
        await c.close()
    return [s["rating"] for s in joined["seats"]]


# quick matches' windows widen fast here: the ratings the tests make are hundreds apart, and
# the default (10 points a second, anybody after 45 s) would keep them waiting most of a minute
FAST_WINDOWS = {"quick_widen": 250.0}


@pytest.mark.asyncio
@pytest.mark.slow  # 20 s or more
async def test_a_rated_crokinole_match_moves_crokinole_ratings_not_novuss(game_server):
    srv = game_server(**FAST_WINDOWS)
    ha, hb = await browsers(srv.url, "Kadri", "Lauri")
    a, b = await ha.player(srv.ws_url), await hb.player(srv.ws_url)
    await seat_pair(srv.ws_url, a, b, rated=True, game="crokinole")
    assert a.current_room["rated"] is True and a.current_room["game"] == "crokinole"
    await each_side_strikes(a, b, strike=flick)
    mid = await resign_match(b, a)

    async def rated() -> dict[str, Any] | None:
        _, p = await ha.get("/api/players/kadri")
        return p if p["ratings"]["crokinole-singles"] else None

    kadri = await until(rated, timeout=60.0, what="Kadri's Crokinole rating")
    _, lauri = await hb.get("/api/players/lauri")
    won, lost = kadri["ratings"]["crokinole-singles"], lauri["ratings"]["crokinole-singles"]
    assert won["rating"] > 1500 > lost["rating"] and won["matches"] == lost["matches"] == 1
    for p in (kadri, lauri):  # Novuss's ratings untouched
        assert p["ratings"]["singles"] is None and p["ratings"]["doubles"] is None
        assert p["history"]["singles"] == []
    assert [h["match"] for h in kadri["history"]["crokinole-singles"]] == [mid]
    _, board = await ha.get("/api/leaderboard/crokinole-singles")
    assert [p["username"] for p in board["players"]] == ["Kadri", "Lauri"]
    _, novuss = await ha.get("/api/leaderboard/singles")
    assert novuss["total"] == 0
    # the seats show the Crokinole rating in the next Crokinole room, not in a Novuss one
    for c in (a, b):
        await c.send("leave")
        await c.close()
    ratings = await seat_ratings(ha, hb, srv.ws_url, game="crokinole")
    assert ratings == [won["rating"], lost["rating"]]
    assert await seat_ratings(ha, hb, srv.ws_url) == [1500, 1500]
    a, b = await ha.player(srv.ws_url), await hb.player(srv.ws_url)
    await seat_pair(srv.ws_url, a, b)
    novuss = await resign_match(b, a)

    async def listed() -> dict[str, Any] | None:
        _, page = await ha.get("/api/players/kadri/matches")
        return page if page["total"] == 2 else None

    rows = (await until(listed, timeout=60.0, what="both matches in Kadri's list"))["matches"]
    # each links its record and the replay viewer (Crokinole's too since issue 31: its shots
    # carry a state hash)
    assert [(m["id"], m["kind"], m["replay"]) for m in rows] == [
        (novuss, "singles", f"/m/{novuss}"),
        (mid, "crokinole-singles", f"/m/{mid}"),
    ]
    # quick Crokinole between two accounts is rated, and seats them with Crokinole ratings
    for c in (a, b):
        await c.send("leave")
        await c.close()
    a, b = await ha.player(srv.ws_url), await hb.player(srv.ws_url)
    for c in (a, b):
        await c.send("quick", mode="singles", game="crokinole")
    for c in (a, b):
        # paired by rating: the winner and the loser are apart, so they wait until the window
        # reaches the gap (docs/accounts.md, "Quick match by rating")
        got = await c.expect("room", timeout=60)
        assert got["rated"] is True and got["game"] == "crokinole"
        assert sorted(s["rating"] for s in got["seats"]) == [lost["rating"], won["rating"]]
    for h in (ha, hb):
        await h.close()


@pytest.mark.asyncio
@pytest.mark.slow  # the quick match waits for the windows to reach the ratings' gap
async def test_7d_a_rated_three_player_room_rates_the_one_who_resigns_last(game_server):
    srv = game_server(**FAST_WINDOWS)
    hs = await browsers(srv.url, "Mari", "Neeme", "Olev")
    cs = [await h.player(srv.ws_url) for h in hs]
    await cs[0].send(
        "create", mode="singles", sets=1, clock=60, private=False, game="crokinole",
        players=3, rated=True,
    )  # fmt: skip
    room = await cs[0].expect("room")
    for c in cs[1:]:
        await c.send("join", room=room["id"])
        await c.expect("room")
    for c in cs:
        await c.send("ready")
    for c in cs:
        while c.room is None or c.room["match"] is None:
            await c.expect("room")
    await each_side_strikes(*cs, strike=flick)
    await cs[1].send("resign")  # Neeme
    for c in (cs[0], cs[2]):
        await c.expect("result")

    async def board() -> dict[str, Any] | None:
        _, b = await hs[0].get("/api/leaderboard/crokinole-7d")
        return b if b["total"] == 3 else None

    rows = (await until(board, timeout=60.0, what="the 7 d leaderboard"))["players"]
    shown = {r["username"]: r["rating"] for r in rows}
    # the other two level on points (none yet): equal, above the one who resigned
    assert shown["Mari"] == shown["Olev"] > 1500 > shown["Neeme"]
    _, neeme = await hs[1].get("/api/players/neeme")
    assert neeme["ratings"]["crokinole-singles"] is None and neeme["ratings"]["singles"] is None
    # quick match of three each alone (issue 34): paired and rated by the 7 d rating
    for c in cs:
        await c.send("leave")
        await c.close()
    cs = [await h.player(srv.ws_url) for h in hs]
    for c, name in zip(cs, ("Mari", "Neeme", "Olev"), strict=True):
        await c.send("quick", mode="singles", game="crokinole", players=3)
        queued = await c.expect("queued")
        assert queued["rated"] is True and queued["players"] == 3
        assert queued["window"]["from"] == shown[name] - 50  # ± 50 about the 7 d rating
        assert queued["window"]["widen"] == FAST_WINDOWS["quick_widen"]  # the server's own
    for c in cs:
        # the ratings apart: seated once the windows reach the gap
        got = await c.expect("room", timeout=60)
        assert got["rated"] is True and got["options"] == {"players": 3, "scoring": "tournament"}
        assert sorted(s["rating"] for s in got["seats"]) == sorted(shown.values())
    for h in hs:
        await h.close()
