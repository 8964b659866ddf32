"""Team competitions (004 § 6 (3), (4); § 29; § 31 (2))."""

from __future__ import annotations

import pytest

from server.competitions.table import (
    BadScore,
    BadSettings,
    Entrant,
    GameResult,
    GameSpec,
    Result,
    Settings,
    order_boards,
)

from .helpers import started

GAMES = (
    GameSpec("singles", (1,), 4),
    GameSpec("singles", (2,), 4),
    GameSpec("doubles", (1, 2), 2),
)
TEAM = Settings(form="team", games=GAMES)


def _teams(names: str, size: int = 2) -> list[Entrant]:
    return [
        Entrant(t, f"Team {t}", None, tuple(f"{t}{i}" for i in range(1, size + 1))) for t in names
    ]


def test_boards_follow_the_classification():
    # 004 § 29 (2): boards I, II, III by rating; the club champion may go ahead
    team = Entrant("T", "Team", None, ("low", "top", "mid", "new"))
    ratings = {"low": 1200.0, "top": 1800.0, "mid": 1500.0, "new": None}
    assert order_boards(team, ratings).members == ("top", "mid", "low", "new")
    assert order_boards(team, ratings, champion="low").members == ("low", "top", "mid", "new")
    with pytest.raises(BadSettings):
        order_boards(team, ratings, champion="stranger")


def test_encounter_games_seat_the_boards_and_alternate_the_opening_stroke():
    # 004 § 29 (3): the agreed games; 004 § 31 (2): drawn for board I, then alternating
    t = started(TEAM, _teams("PQ")).pair_next_round()
    p = t.rounds[-1][0]
    assert p.b is not None
    a, b = t.entrant(p.a), t.entrant(p.b)
    assert [(g.a_players, g.b_players) for g in p.games] == [
        (a.members[:1], b.members[:1]),
        (a.members[1:2], b.members[1:2]),
        (a.members[:2], b.members[:2]),
    ]
    first = p.games[0].opener
    other = p.b if first == p.a else p.a
    assert p.opener == first
    assert [g.opener for g in p.games] == [first, other, first]
    assert [g.sets for g in p.games] == [4, 4, 2]


def test_board_one_opener_is_drawn_both_ways_over_seeds():
    firsts = set()
    for seed in range(12):
        p = started(TEAM, _teams("PQ"), seed).pair_next_round().rounds[-1][0]
        firsts.add(p.opener == p.a)
    assert firsts == {True, False}


def test_encounter_points_add_up_the_games():
    # 004 § 29 (3), § 32 (2): singles 2/1/0 and doubles 4/2/0 summed for the team
    t = started(TEAM, _teams("PQ")).pair_next_round()
    p = t.rounds[-1][0]
    assert p.b is not None
    games = (GameResult(3, 1), GameResult(2, 2), GameResult(0, 2))
    t = t.record(Result(1, p.a, p.b, 5, 5, games=games))
    lines = {s.entrant: s for s in t.standings()}
    assert (lines[p.a].points, lines[p.b].points) == (3.0, 5.0)
    assert (lines[p.a].sets_for, lines[p.a].sets_against) == (5, 5)
    assert lines[p.b].rank == 1


def test_encounter_from_the_other_side_is_turned_round():
    t = started(TEAM, _teams("PQ")).pair_next_round()
    p = t.rounds[-1][0]
    assert p.b is not None
    games = (GameResult(1, 3), GameResult(2, 2), GameResult(2, 0))
    t = t.record(Result(1, p.b, p.a, 5, 5, games=games))
    assert {s.entrant: s.points for s in t.standings()} == {p.a: 3.0, p.b: 5.0}


def test_all_games_are_played_in_cup_and_title_events():
    # 004 § 29 (7)
    t = started(TEAM, _teams("PQ")).pair_next_round()
    p = t.rounds[-1][0]
    assert p.b is not None
    with pytest.raises(BadScore):
        t.record(Result(1, p.a, p.b, 6, 0, games=(GameResult(3, 0), GameResult(3, 0))))


def test_elsewhere_an_encounter_may_stop_once_decided():
    three = tuple(GameSpec("singles", (i,), 4) for i in (1, 2, 3))
    conf = Settings(form="team", games=three, play_all_games=False)
    t = started(conf, _teams("PQ", 3)).pair_next_round()
    p = t.rounds[-1][0]
    assert p.b is not None
    with pytest.raises(BadScore):  # 2:0 in points after one game: not decided
        t.record(Result(1, p.a, p.b, 3, 0, games=(GameResult(3, 0),)))
    t = t.record(Result(1, p.a, p.b, 6, 1, games=(GameResult(3, 0), GameResult(3, 1))))
    assert {s.entrant: s.points for s in t.standings()} == {p.a: 4.0, p.b: 0.0}


def test_a_game_lost_by_no_show_and_a_wrong_sum_of_sets():
    t = started(TEAM, _teams("PQ")).pair_next_round()
    p = t.rounds[-1][0]
    assert p.b is not None
    games = (GameResult(0, 0, forfeit=p.b), GameResult(3, 0), GameResult(1, 1))
    with pytest.raises(BadScore):
        t.record(Result(1, p.a, p.b, 9, 9, games=games))
    t = t.record(Result(1, p.a, p.b, 4, 1, games=games))
    assert {s.entrant: s.points for s in t.standings()} == {p.a: 6.0, p.b: 2.0}


def test_swiss_team_bye_is_a_drawn_encounter():
    # 004 § 29 (5): the team without an opponent gets the points of a drawn result
    conf = Settings(form="team", system="swiss", rounds=2, games=GAMES)
    t = started(conf, _teams("PQR")).pair_next_round()
    bye = next(p.a for p in t.rounds[-1] if p.b is None)
    assert {s.entrant: s.points for s in t.standings()}[bye] == 1 + 1 + 2


def test_team_round_robin_of_six_to_the_end():
    t = started(TEAM, _teams("PQRSTU"))
    while not t.finished:
        t = t.pair_next_round()
        for p in t.pending():
            assert p.b is not None
            games = (GameResult(3, 0), GameResult(1, 3), GameResult(1, 1))
            t = t.record(Result(p.round, p.a, p.b, 5, 4, games=games))
    assert t.round == 5
    # every encounter gives 2 + 2 + 2 + 2 = 8 points between the teams; 15 encounters
    assert sum(s.points for s in t.standings()) == 8 * 15


def test_individual_team_counts_for_players_too():
    # 004 § 6 (4): the same results for each player and for the team
    conf = Settings(form="individual_team", games=GAMES)
    t = started(conf, _teams("PQ")).pair_next_round()
    p = t.rounds[-1][0]
    assert p.b is not None
    games = (GameResult(3, 1), GameResult(2, 2), GameResult(0, 2))
    t = t.record(Result(1, p.a, p.b, 5, 5, games=games))
    got = {s.player: s.points for s in t.player_standings()}
    a1, a2 = t.entrant(p.a).members
    b1, b2 = t.entrant(p.b).members
    assert got == {a1: 2.0, a2: 1.0, b1: 4.0, b2: 5.0}
    assert t.player_standings()[0].player == b2


def test_team_settings_and_members_are_checked():
    with pytest.raises(BadSettings):
        Settings(form="team")
    with pytest.raises(BadSettings):
        started(TEAM, _teams("PQ", size=1))
    with pytest.raises(BadSettings):
        GameSpec("doubles", (1,), 2)


def test_three_team_round_robin_by_hand():
    # games: singles I, singles II (2/1/0), doubles I+II over two sets (4/2/0)
    encounters = {
        frozenset("PQ"): ("P", (GameResult(3, 0), GameResult(1, 3), GameResult(2, 0))),  # 6:2
        frozenset("PR"): ("P", (GameResult(2, 2), GameResult(2, 2), GameResult(1, 1))),  # 4:4
        frozenset("QR"): ("Q", (GameResult(3, 1), GameResult(3, 0), GameResult(0, 2))),  # 4:4
    }
    t = started(Settings(form="team", games=GAMES, tiebreaks=("sets_difference",)), _teams("PQR"))
    while not t.finished:
        t = t.pair_next_round()
        for p in t.pending():
            assert p.b is not None
            first, games = encounters[frozenset((p.a, p.b))]
            second = p.b if first == p.a else p.a
            sa, sb = sum(g.sets_a for g in games), sum(g.sets_b for g in games)
            t = t.record(Result(p.round, first, second, sa, sb, games=games))
    got = [(s.rank, s.entrant, s.points, s.sets_for, s.sets_against, s.wins, s.draws, s.losses)
           for s in t.standings()]  # fmt: skip
    assert got == [
        (1, "P", 10.0, 11, 8, 1, 1, 0),
        (2, "R", 8.0, 8, 11, 0, 2, 0),
        (3, "Q", 6.0, 9, 9, 0, 1, 1),
    ]
