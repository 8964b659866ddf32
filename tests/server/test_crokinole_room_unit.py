"""A Crokinole room: checkpoint and reload mid-shot, an absent player, the doubles set-up, the
room shown during a shot, a ruling's lines, a shot out of turn."""

from __future__ import annotations

from dataclasses import replace

import msgpack
import pytest

from server.games.core.play import MatchRefused, Settings
from server.games.crokinole.match import CrokinoleMatch
from server.games.crokinole.rules import ROUNDS_PER_GAME
from server.games.novuss.sim import Shot
from server.lobby.room import LobbyError, Room
from tests.server.test_crokinole_e2e import shot_for

SETTINGS = Settings(speed_factor=10.0)


def started(mode: str = "singles", grace: float = 120.0) -> Room:
    room = Room("r1", mode, 1, 30.0, False, SETTINGS, grace=grace, game="crokinole")
    for i in range(len(room.seats)):
        room.join(f"s{i}", f"P{i}", None, None, 0.0)
    for i in range(len(room.seats)):
        room.set_ready(f"s{i}", True, 0.0)
    assert isinstance(room.match, CrokinoleMatch)
    return room


def game_of(room: Room) -> CrokinoleMatch:
    """The room's game, a Crokinole match."""
    assert isinstance(room.match, CrokinoleMatch)
    return room.match


def shooter(room: Room) -> int:
    """The seat to shoot: a game in play always has one."""
    seat = game_of(room).turn
    assert seat is not None, "a game in play has a seat to shoot"
    return seat


def test_a_room_reloaded_mid_shot_delivers_the_ruling_and_plays_on() -> None:
    room = started()
    seat = shooter(room)
    step = room.strike(f"s{seat}", Shot(**shot_for(seat, 0)), 1.0)
    assert step.motion is not None and game_of(room).phase == "motion"
    data = msgpack.unpackb(msgpack.packb(room.to_dict(1.1)), raw=False)
    back = Room.from_dict(data, list(room.events), SETTINGS, 120.0, 256)
    assert back.game == "crokinole" and isinstance(back.match, CrokinoleMatch)
    back.reloaded(2.0)
    assert back.match.phase == "play" and back.match.turn == 1 - seat
    assert back.events[-1].message["t"] == "ruling"
    assert back.match.game == game_of(room).game
    for i in range(2):
        back.back(f"s{i}", 2.5)
    nxt = shooter(back)
    back.strike(f"s{nxt}", Shot(**shot_for(nxt, 1)), 3.0)
    assert back.match.strokes == 2


def test_an_absent_player_loses_the_game_for_the_side() -> None:
    room = started(grace=2.0)
    room.drop("s1", 1.0)
    room.tick(3.5)
    assert room.status == "over"
    result = next(e.message for e in room.events if e.message["t"] == "result")
    assert result["winner"] == 0 and result["result"]["cause"] == "absent"


def test_doubles_partners_opposite_share_a_colour_and_shoot_clockwise() -> None:
    room = started("doubles")
    snap = room.snapshot(None, 0.0)
    assert snap["table"]["game"] == "crokinole"
    assert snap["match"] is not None
    assert snap["match"]["round"]["shots_left"] == [6, 6, 6, 6]  # 002 1
    first = shooter(room)
    room.strike(f"s{first}", Shot(**shot_for(first, 0, players=4)), 1.0)
    room.finish_motion(10.0)
    assert game_of(room).turn == (first + 1) % 4  # 002 2 a


def test_a_resignation_mid_shot_survives_a_reload_and_follows_the_shots_ruling() -> None:
    """Issue 36: a resignation while the discs move is kept by the room (in its checkpoint)
    and taken when the motion ends, here the reload's, after the shot's ruling."""
    room = started()
    seat = shooter(room)
    room.strike(f"s{seat}", Shot(**shot_for(seat, 0)), 1.0)
    assert room.resign(f"s{1 - seat}", 1.05).out == []  # nothing yet: the discs move
    data = msgpack.unpackb(msgpack.packb(room.to_dict(1.1)), raw=False)
    back = Room.from_dict(data, list(room.events), SETTINGS, 120.0, 256)
    back.reloaded(2.0)
    kinds = [e.message["t"] for e in back.events if e.seq > room.seq]
    assert kinds.index("ruling") < kinds.index("result"), kinds
    result = next(e.message for e in back.events if e.message["t"] == "result")
    assert result["winner"] == seat and result["result"]["cause"] == "resign"
    assert back.resigning is None and back.status == "over"


def test_during_a_shot_the_room_shows_the_game_as_before_it() -> None:
    """As a Novuss room does: the shot's effect (turn, round, score) is the ruling's news,
    told when the motion has played, not the room's before it (docs/protocol.md, `room`)."""
    room = started()
    seat = shooter(room)
    before = room.snapshot(None, 0.5)["match"]
    assert before is not None
    room.strike(f"s{seat}", Shot(**shot_for(seat, 0)), 1.0)
    during = room.snapshot(None, 1.1)["match"]
    assert during is not None and during["phase"] == "motion"
    for key in ("turn", "set", "score", "rules", "round", "result"):
        assert during[key] == before[key], key
    room.finish_motion(10.0)
    after = room.snapshot(None, 10.0)["match"]
    assert after is not None and after["turn"] == 1 - seat != before["turn"]
    assert after["round"]["shots_left"] != before["round"]["shots_left"]


def test_a_shot_that_ends_the_game_shows_no_result_before_its_ruling() -> None:
    room = started()
    struck_last_shot(room)
    during = room.snapshot(None, 1.1)["match"]
    assert during is not None and during["result"] is None and during["phase"] == "motion"
    room.finish_motion(10.0)
    assert [e.message["t"] for e in room.events][-3:] == ["ruling", "round", "result"]


def struck_last_shot(room: Room) -> CrokinoleMatch:
    """Shoot the game's last shot, the last disc of the last round (002 2 c, 4 f): the
    game is over by the rules while its motion plays; the match returned."""
    match = game_of(room)
    last = shooter(room)
    game = match.game
    shots = tuple(1 if s == last else 0 for s in range(len(game.shots_left)))
    match.game = replace(game, shots_left=shots, round_no=ROUNDS_PER_GAME)
    room.strike(f"s{last}", Shot(**shot_for(last, 0)), 1.0)
    assert match.game.over and match.phase == "motion", "the shot ended the game"
    return match


def test_no_rematch_or_ready_starts_the_next_game_over_the_last_shots_motion() -> None:
    # A computer seat offers its rematch as soon as a match is over, and the seats were
    # still ready from the start: the next game began during the last shot's motion, its
    # round and result never told (a test saw rounds 1, 2, 3, then 1, 2, 3, 4)
    room = started()
    match = struck_last_shot(room)
    with pytest.raises(LobbyError) as e:
        room.offer_rematch("s1", 1.1)
    assert e.value.code == "not_now"
    with pytest.raises(LobbyError) as e:
        room.set_ready("s0", True, 1.1)
    assert e.value.code == "not_now"
    assert room.match is match and room.status == "playing"
    room.finish_motion(10.0)
    assert [e.message["t"] for e in room.events][-3:] == ["ruling", "round", "result"]
    room.offer_rematch("s1", 11.0)
    assert room.match is match, "s0 has not agreed: a result clears every seat's ready"
    room.offer_rematch("s0", 12.0)
    assert room.match is not match and room.status == "playing"


def test_a_ruling_carries_its_lines_each_citing_seed_002() -> None:
    room = started()
    seat = shooter(room)
    room.strike(f"s{seat}", Shot(**shot_for(seat, 0)), 1.0)
    room.finish_motion(10.0)
    ruling = next(e.message for e in reversed(room.events) if e.message["t"] == "ruling")
    assert ruling["lines"] and ruling["lines"] == ruling["ruling"]["lines"]
    for line in ruling["lines"]:
        assert line["cite"] == f"002 {line['rule']}"
        assert set(line) == {"code", "rule", "cite", "args"}


def test_a_shot_out_of_turn_is_refused_not_your_turn_citing_2_a() -> None:
    room = started()
    other = 1 - shooter(room)
    with pytest.raises(MatchRefused) as refused:
        room.strike(f"s{other}", Shot(**shot_for(other, 0)), 1.0)
    assert (refused.value.code, refused.value.rule) == ("not_your_turn", "2 a")
    assert game_of(room).strokes == 0
