"""The competitions service's pure parts: a table's room with held seats (who may take them,
who opens), an ended match's result as the table's sets, the organiser's form and results
checked, and the CSV exports (docs/competitions.md)."""

from __future__ import annotations

import copy
import csv
import io
from typing import Any

import pytest

from server.competitions.document import (
    confirm_entry,
    entrants,
    hand_outcome,
    leave,
    propose_entry,
)
from server.competitions.errors import CompetitionError
from server.competitions.settings import parse_form, settings_of
from server.competitions.table import BadScore, BadSettings, Entrant, Result, Tournament
from server.competitions.table import Settings as TournamentSettings
from server.competitions.tables import Tables, new_table
from server.competitions.views import crosstable_csv, standings_csv
from server.games.core.play import Settings
from server.lobby.lobby import Lobby
from server.lobby.reserved import HELD, competition_room, take_held
from server.lobby.room import LobbyError
from server.lobby.seat import Player

NOW = 1000.0


def held(uid: str) -> Player:
    return Player(HELD + uid, uid, uid)


def table_room(lobby: Lobby, mode: str = "singles") -> Any:
    uids = ["ua", "ub"] if mode == "singles" else ["ua", "ub", "uc", "ud"]
    return competition_room(lobby, "r1", "t1", mode, 1, 30.0, [held(u) for u in uids], NOW)


def test_a_tables_seats_are_its_paired_players_and_team_0_opens():
    lobby = Lobby(Settings(), grace=120.0)
    room = table_room(lobby)
    assert room.options == {"tournament": "t1", "opener": 0, "held": ["ua", "ub"]}
    assert all(s is not None and s.away_until == NOW + 120.0 for s in room.seats)
    for stranger in (Player("s9", "Guest"), Player("s8", "Other", "uz")):
        with pytest.raises(LobbyError) as refused:
            take_held(room, stranger, NOW)
        assert refused.value.code == "seat_taken"
    seat, _ = take_held(room, Player("s2", "Bea", "ub"), NOW + 1)
    assert seat == 1 and room.match is None  # the other has not come
    with pytest.raises(LobbyError) as twice:
        take_held(room, Player("s3", "Bea again", "ub"), NOW + 2)
    assert twice.value.code == "in_room"
    seat, _ = take_held(room, Player("s1", "Ann", "ua"), NOW + 3)
    assert seat == 0 and room.match is not None
    # 004 § 31 (1): the side on team 0 (the pairing's opener) has the opening stroke, always
    assert room.match.state.turn_seat == 0
    assert lobby.room_of("s1") is room and lobby.room_of(HELD + "ua") is None
    with pytest.raises(LobbyError) as played:
        take_held(room, Player("s4", "Cid", "ua"), NOW + 4)
    assert played.value.code == "not_now"


def test_a_held_seat_nobody_takes_is_freed_when_its_grace_runs_out():
    lobby = Lobby(Settings(), grace=120.0)
    room = table_room(lobby, "doubles")
    take_held(room, Player("s1", "Ann", "ua"), NOW)
    room.tick(NOW + 121)  # 004 § 22 (3): the 2 minutes are over
    assert [s is not None for s in room.seats] == [True, False, False, False]
    assert room.match is None


def test_an_ended_match_gives_the_table_its_sets_from_a_and_bs_side():
    def outcome(first: str, result: dict[str, Any], sets: int = 4) -> list[int]:
        t = {**new_table(1, 1, None, "A", "B", ("ua",), ("ub",), "B" if first == "b" else "A",
                         sets), "room": "r1", "opened": NOW}  # fmt: skip
        return list(Tables._result(t, {"id": "m1", "result": result})["sets"])

    played = {"winner": 0, "sets_won": [3, 1], "reason": "sets"}
    assert outcome("a", played) == [3, 1] and outcome("b", played) == [1, 3]
    drawn = {"winner": None, "sets_won": [2, 2], "reason": "sets"}
    assert outcome("a", drawn) == [2, 2]  # 004 § 32 (1): a draw in an even number of sets
    # resigned (or absent, 004 § 22 (3)) at 1:1 in 4 sets: the winner gets the sets he needed
    resigned = {"winner": 1, "sets_won": [1, 1], "reason": "resign"}
    assert outcome("a", resigned) == [1, 3] and outcome("b", resigned) == [3, 1]
    # at 2:0 for the loser in 4 sets: 3:1 at most for the winner (3:2 cannot end 4 sets)
    assert outcome("a", {"winner": 1, "sets_won": [2, 0], "reason": "absent"}) == [1, 3]
    assert outcome("a", {"winner": 0, "sets_won": [0, 0], "reason": "resign"}, 1) == [1, 0]


def test_the_organisers_form_is_checked_field_by_field():
    name, form, settings = parse_form({"name": " Cup ", "system": "swiss", "rounds": 5})
    assert name == "Cup" and form["rounds"] == 5 and settings.system == "swiss"
    # 004 § 32 (2) has no tie-break: none unless the organiser lists some (issue 38).
    assert form["tiebreaks"] == [] and form["byes_count"] is False and form["auto"] is True
    for body, field in (
        ({"name": ""}, "name"),
        ({"name": "x", "system": "knockout"}, "system"),
        ({"name": "x", "system": "swiss"}, "rounds"),
        ({"name": "x", "sets": 9}, "sets"),
        ({"name": "x", "clock": 1}, "clock"),
        ({"name": "x", "points": [2, 1]}, "points"),
        ({"name": "x", "tiebreaks": ["coin_toss"]}, "tiebreaks"),
        ({"name": "x", "tiebreaks": ["buchholz", "buchholz"]}, "tiebreaks"),
        ({"name": "x", "tiebreaks": "buchholz"}, "tiebreaks"),
        ({"name": "x", "byes_count": "yes"}, "byes_count"),
        ({"name": "x", "form": "team", "games": [{"kind": "singles", "boards": [0], "sets": 1}]},
         "games.boards"),
    ):  # fmt: skip
        with pytest.raises(CompetitionError) as bad:
            parse_form(body)
        assert bad.value.code == "bad_request" and bad.value.message.startswith(field), body
    with pytest.raises(BadSettings):  # the table's own: a team event needs its games
        parse_form({"name": "x", "form": "team"})
    with pytest.raises(BadSettings):  # points must fall from win to loss (004 § 32 (2))
        parse_form({"name": "x", "points": [1, 2, 0]})


def test_a_result_by_hand_is_oriented_and_checked():
    t = {**new_table(2, 1, None, "A", "B", ("ua",), ("ub",), "A", 1), "room": "r", "opened": 0}
    assert hand_outcome(t, "B", 1, 0, None)["outcome"]["sets"] == [0, 1]  # named b first
    assert hand_outcome(t, "A", 0, 0, "B")["outcome"]["forfeit"] == "b"
    with pytest.raises(BadScore):
        hand_outcome(t, "A", 1, 1, None)  # a one-set match cannot end 1:1 (004 § 32 (1))
    with pytest.raises(CompetitionError) as stranger:
        hand_outcome(t, "A", 0, 0, "C")
    assert stranger.value.code == "bad_request"


def test_the_csv_exports_name_the_tiebreaks_and_the_cells():
    settings = TournamentSettings(tiebreaks=("sets_difference", "buchholz"), sets=1)
    people = [Entrant(u, n) for u, n in (("u1", "Ann"), ("u2", "Bea"), ("u3", "Cid"))]
    table = Tournament.new(settings, people, 7).start()
    while not table.finished:
        table = table.pair_next_round()
        for p in table.pending():  # the later registered wins
            a_wins = p.a > (p.b or "")
            table = table.record(Result(p.round, p.a, p.b or "", int(a_wins), int(not a_wins)))
    doc = {"form": {"tiebreaks": list(settings.tiebreaks)}, "table": table.to_dict(),
           "entries": [{"id": e.id, "name": e.name} for e in people]}  # fmt: skip
    rows = [r.split(",") for r in standings_csv(doc).strip().splitlines()]
    assert rows[0] == ["rank", "name", "points", "sets_for", "sets_against", "sets_difference",
                       "buchholz", "played", "wins", "draws", "losses"]  # fmt: skip
    assert [r[1:4] for r in rows[1:]] == [["Cid", "4", "2"], ["Bea", "2", "1"], ["Ann", "0", "0"]]
    cross = [r.split(",") for r in crosstable_csv(doc).strip().splitlines()]
    assert cross[0] == ["#", "name", "1", "2", "3", "points"] and len(cross) == 4
    cells = {(r[1], i): c for r in cross[1:] for i, c in enumerate(r[2:5])}
    names = [r[1] for r in cross[1:]]
    assert cells[("Cid", names.index("Ann"))] == "1:0" and cells[("Ann", names.index("Ann"))] == "x"


def test_entrants_carry_ratings_and_a_teams_boards_go_by_rating():
    games = [
        {"kind": "singles", "boards": [1], "sets": 1},
        {"kind": "singles", "boards": [2], "sets": 1},
    ]
    _, _, settings = parse_form({"name": "x", "form": "team", "games": games})
    doc = {"entries": [{"id": "e1", "name": "Club", "members": ["u1", "u2", "u3"]},
                       {"id": "e2", "name": "Guests", "members": ["u4", "u5"]}]}  # fmt: skip
    club, guests = entrants(doc, settings, {"u2": 1600.0, "u3": 1500.0})
    # 004 § 29 (2): boards by rating, the unrated after them in the order entered
    assert club.members == ("u2", "u3", "u1") and club.rating == 1550.0
    assert guests.members == ("u4", "u5") and guests.rating is None
    _, _, swiss = parse_form({"name": "x", "system": "swiss", "rounds": 3})
    doc = {"entries": [{"id": u, "name": u, "members": [u]} for u in ("u1", "u2", "u3")]}
    people = entrants(doc, swiss, {"u1": 1400.0, "u3": 1700.0})
    table = Tournament.new(swiss, people, 1).start()
    assert [e.id for e in table.entrants] == ["u3", "u1", "u2"]  # highest first, unrated last


def test_the_regulations_are_stated_with_their_source():
    """Issue 38: each choice 004 leaves open is shown with 004's paragraph or "regulations
    (§ 3)"; a form stored before the choices existed reads as the defaults."""
    from server.competitions.views import regulations

    _, plain, _ = parse_form({"name": "x"})
    assert regulations({"form": plain}) == [
        {"key": "tiebreaks", "value": [], "cite": "004 § 32 (2)"},
        {"key": "byes_count", "value": False, "cite": "004 § 32 (3) 2), regulations (§ 3)"},
    ]
    _, chosen, settings = parse_form(
        {"name": "x", "system": "swiss", "rounds": 3, "tiebreaks": ["buchholz", "head_to_head"],
         "byes_count": True}
    )  # fmt: skip
    assert settings.tiebreaks == ("buchholz", "head_to_head") and settings.byes_count
    assert regulations({"form": chosen}) == [
        {"key": "tiebreaks", "value": ["buchholz", "head_to_head"],
         "cite": "004 § 32 (2), regulations (§ 3)"},
        {"key": "byes_count", "value": True, "cite": "004 § 32 (3) 2), regulations (§ 3)"},
        {"key": "swiss_rounds", "value": 3, "cite": "regulations (§ 3)"},
    ]  # fmt: skip
    old = dict(chosen)
    del old["byes_count"]
    assert settings_of(old).byes_count is False


def test_a_name_that_would_run_as_a_formula_is_exported_as_text():
    settings = TournamentSettings(sets=1)
    names = ("@SUM(1+1)*cmd|' /C calc'!A0", "=1+1", "Bea")
    people = [Entrant(f"u{i}", n) for i, n in enumerate(names)]
    table = Tournament.new(settings, people, 7).start()
    doc = {"form": {"tiebreaks": []}, "table": table.to_dict(),
           "entries": [{"id": e.id, "name": e.name} for e in people]}  # fmt: skip
    standings = list(csv.reader(io.StringIO(standings_csv(doc))))
    cross = list(csv.reader(io.StringIO(crosstable_csv(doc))))
    for rows in (standings[1:], cross[1:]):
        shown = sorted(r[1] for r in rows)
        assert shown == sorted(["'@SUM(1+1)*cmd|' /C calc'!A0", "'=1+1", "Bea"]), shown


def registration() -> dict[str, Any]:
    """A competition's document in registration with nobody entered."""
    return {"entries": [], "requests": [], "people": {}}


def waiting(doc: dict[str, Any]) -> list[str]:
    """The ids of the entries that wait."""
    return [r["id"] for r in doc["requests"]]


def entered_as_already(act: Any) -> None:
    """The act is refused `already_entered` and changes nothing."""
    with pytest.raises(CompetitionError) as e:
        act()
    assert e.value.code == "already_entered"


def test_being_named_in_a_waiting_pair_holds_nobody():
    # anybody may name anybody: were the named held, one player could keep any eleven
    # others from entering (issue 36's proposals); only a player's own word holds him
    doc = registration()
    propose_entry(doc, "p1", "Eve & Ben", [("eve", "Eve"), ("ben", "Ben")])  # Ben not asked
    propose_entry(doc, "p2", "Ben & Cid", [("ben", "Ben"), ("cid", "Cid")])
    assert waiting(doc) == ["p2"], "Ben gave his word to his own pair: Eve's cannot be"
    confirm_entry(doc, "cid", "p2", approval=False)
    assert [e["members"] for e in doc["entries"]] == [["ben", "cid"]] and waiting(doc) == []
    entered_as_already(lambda: propose_entry(doc, "p3", "E", [("eve", "Eve"), ("ben", "Ben")]))


def test_a_player_gives_his_word_to_one_waiting_entry_at_a_time():
    doc = registration()
    team = [("ann", "Ann"), ("ben", "Ben"), ("cid", "Cid")]
    propose_entry(doc, "p1", "Tigers", team)
    propose_entry(doc, "p2", "Dan & Ben", [("dan", "Dan"), ("ben", "Ben")])
    confirm_entry(doc, "ben", "p1", approval=False)  # Cid has not confirmed: it waits
    assert waiting(doc) == ["p1"] and doc["entries"] == [], "Dan's can no longer be completed"
    before = copy.deepcopy(doc)
    entered_as_already(lambda: propose_entry(doc, "p3", "E", [("eve", "Eve"), ("ben", "Ben")]))
    entered_as_already(lambda: propose_entry(doc, "p4", "A", [("ann", "Ann"), ("eve", "Eve")]))
    assert doc == before
    leave(doc, "cid")  # 004's pairs and teams are their players': one who declines ends it
    assert waiting(doc) == []
    propose_entry(doc, "p5", "Eve & Ben", [("eve", "Eve"), ("ben", "Ben")])  # free again
    assert waiting(doc) == ["p5"]
