"""The match state machine and the room without sockets or an event loop: time is a number."""

from __future__ import annotations

import math
from typing import Any

import pytest

from server.games.core.paths import disc_view
from server.games.core.play import MatchRefused, Motion, Settings
from server.games.novuss.game import NOVUSS
from server.games.novuss.match import Match
from server.games.novuss.rules import MatchConfig
from server.games.novuss.rules.state import Mode
from server.games.novuss.sim import COMPETITION, Shot, simulate
from server.lobby.events import Event
from server.lobby.lobby import Lobby
from server.lobby.room import LobbyError, Room
from tests.server.server_bot import choose_shot
from tools.scenarios import mixed_strokes

SETTINGS = Settings(speed_factor=10.0)
TABLE = NOVUSS.table_view()


def new(mode: Mode = "singles", sets: int = 1, clock: float = 30.0) -> Match:
    match, step = Match.new(
        "m1", MatchConfig(mode=mode, sets=sets, stroke_clock=clock), 0, 0.0, SETTINGS
    )
    assert step.log[0]["kind"] == "start"
    assert [o.kind for o in step.out] == ["clock"]
    return match


def striker(m: Match) -> int:
    """The seat to strike: a match in play always has one."""
    seat = m.turn
    assert seat is not None, "a match in play has a seat to strike"
    return seat


def bot_shot(m: Match) -> Shot:
    seat = striker(m)
    return Shot(*choose_shot(m.rest_discs(), seat, m.sides()[seat], TABLE, m.state.config.mode))


def test_a_whole_match_runs_through_strike_motion_and_ruling():
    m, now, logged = new(), 0.0, []
    while m.phase != "over":
        seat = striker(m)
        step = m.strike(seat, bot_shot(m), now)
        assert m.phase == "motion" and step.motion is not None
        assert [o.kind for o in step.out] == ["stroke"]
        logged += step.log
        with pytest.raises(MatchRefused) as e:
            m.strike(seat, bot_shot_from(m, seat), now)
        assert e.value.code == "not_now", "no strike during motion"
        motion = step.motion
        assert step.out[0].data["paths"] == motion.start_view()["paths"], "sent with the stroke"
        assert motion.ends(SETTINGS) == pytest.approx(now + motion.duration / 10)
        assert motion.time_at(motion.ends(SETTINGS) + 1, SETTINGS) == motion.duration
        now = motion.ends(SETTINGS)
        done = m.finish_motion(now)
        kinds = [o.kind for o in done.out]
        assert kinds[0] == "ruling"
        assert 0 in {d["id"] for d in motion.discs_at(0.0)}, "the striker moves"
        assert m.strokes < 300
    assert kinds == ["ruling", "result"]
    assert logged[-1]["kind"] == "end" and m.ended is not None
    assert sum(e["kind"] == "stroke" for e in logged) == m.strokes


def bot_shot_from(m: Match, seat: int) -> Shot:
    return Shot(540.0, 60.0, math.pi / 2, 1000.0)


def test_strike_out_of_turn_and_illegal_placement_are_refused_and_change_nothing():
    m = new()
    before = m.to_dict(0.0)
    with pytest.raises(MatchRefused) as e:
        m.strike(1 - striker(m), Shot(540.0, 60.0, 1.5, 1000.0), 0.0)
    assert e.value.code == "not_your_turn"
    with pytest.raises(MatchRefused) as e:
        m.strike(striker(m), Shot(540.0, 540.0, 1.5, 1000.0), 0.0)
    assert e.value.code == "bad_stroke" and e.value.rule.startswith("004")
    assert m.to_dict(0.0) == before


def test_the_clock_runs_out_into_the_rules_ruling_and_waits_for_an_absent_striker():
    m = new(clock=10.0)
    seat = striker(m)
    assert m.tick(4.0).out == []
    assert m.tick(5.0).out[0].data == {"seat": seat, "remaining": 5.0, "running": True}
    away = m.set_away(seat, True, 6.0)
    assert away.out[0].data == {"seat": seat, "remaining": 4.0, "running": False}
    assert m.tick(50.0).out == [], "held while the player to strike is away"
    back = m.set_away(seat, False, 50.0)
    assert back.out[0].data["remaining"] == 10.0 and back.out[0].data["running"]
    step = m.tick(60.0)
    ruling = next(o for o in step.out if o.kind == "ruling")
    assert ruling.data["cause"] == "clock" and step.log[0]["kind"] == "clock"
    assert m.turn != seat and m.clock_view(60.0)["running"]


def test_absence_and_resignation_end_the_match():
    m = new()
    step = m.absent(1, 10.0)
    assert [o.kind for o in step.out] == ["ruling", "result"]
    assert step.out[1].data["winner"] == 0 and m.phase == "over"
    m = new()
    step = m.resign(0, 1.0)
    assert step.out[1].data["winner"] == 1 and step.out[1].data["cause"] == "resign"
    with pytest.raises(MatchRefused):
        m.resign(1, 2.0)


def test_aim_previews_are_rate_limited_and_coalesced():
    m = new()
    seat = striker(m)
    assert len(m.aim(seat, 540.0, 60.0, 1.5, 0.1, 10.0).out) == 1
    assert m.aim(seat, 541.0, 60.0, 1.5, 0.2, 10.01).out == []
    assert m.aim(seat, 542.0, 60.0, 1.5, 0.3, 10.02).out == []
    late = m.tick(10.1).out
    assert [o.data["x"] for o in late if o.kind == "aim"] == [542.0], "the newest, once"
    assert m.aim(1 - seat, 540.0, 60.0, 1.5, 0.1, 11.0).out == [], "only the striker's"


def test_checkpoint_round_trip_mid_motion_delivers_the_ruling_after_a_restart():
    m = new()
    step = m.strike(striker(m), bot_shot(m), 0.0)
    saved = m.to_dict(0.1)
    again = Match.from_dict(saved, SETTINGS)
    assert again.phase == "motion" and again.state == m.state
    assert again.discs(0.2) == again.rest_discs(), "no trajectory after a restart"
    late = again.finish_motion(5.0)
    ours = m.finish_motion(5.0)
    assert [o.data for o in late.out if o.kind == "ruling"] == [
        o.data for o in ours.out if o.kind == "ruling"
    ]
    assert step.log[0]["stroke"] == 1


def test_room_seats_teams_sequence_and_missed_events():
    room = Room("r1", "doubles", 1, 30.0, False, SETTINGS, grace=120.0, buffer=8)
    assert room.join("s0", "A", None, None, 0.0) == 0
    assert room.join("s1", "B", None, 1, 0.0) == 1
    assert room.join("s2", "C", None, 0, 0.0) == 2
    with pytest.raises(LobbyError) as e:
        room.join("s3", "D", None, 0, 0.0)
    assert e.value.code == "room_full"
    with pytest.raises(LobbyError):
        room.join("s3", "D", 2, None, 0.0)
    room.join("s3", "D", None, None, 0.0)
    for sid in ("s0", "s1", "s2"):
        room.set_ready(sid, True, 0.0)
    assert room.match is None
    room.set_ready("s3", True, 0.0)
    assert room.status == "playing" and room.match is not None
    room.chat("s1", "B", "left side", team=True)
    last = room.events[-1]
    assert last.audience == 1 and last.message["team"] == 1
    assert room.missed(room.seq - 1, 0, "s0") == [{"t": "hidden", "seq": room.seq}]
    assert room.missed(room.seq - 1, 1, "s3")[0]["text"] == "left side"
    assert room.missed(0, None) is None, "older than the buffer: a full resync"
    assert room.missed(room.seq, None) == []
    assert room.missed(room.seq + 5, None) is None, "a seq from the future: a full resync"
    assert [e.seq for e in room.events] == list(range(room.seq - 7, room.seq + 1))
    assert all(isinstance(e, Event) and isinstance(e.packed, bytes) for e in room.events)


def test_room_drop_back_and_grace():
    room = Room("r1", "singles", 1, 30.0, False, SETTINGS, grace=2.0)
    room.join("a", "A", None, None, 0.0)
    room.join("b", "B", None, None, 0.0)
    room.set_ready("a", True, 0.0)
    room.set_ready("b", True, 0.0)
    room.drop("b", 1.0)
    seat = room.snapshot(None, 1.5)["seats"][1]
    assert seat is not None and seat["away"] == 1.5
    room.back("b", 2.0)
    back = room.seats[1]
    assert back is not None and back.away_until is None
    room.drop("b", 3.0)
    room.tick(4.9)
    assert room.status == "playing"
    room.tick(5.1)
    assert room.status == "over"
    assert [e.message["t"] for e in room.events][-3:] == ["ruling", "result", "room"]
    assert room.seats[1] is None, "the absent player lost the seat too"


def test_after_a_match_a_new_player_can_take_the_free_seat_and_start_the_next():
    room = Room("r1", "singles", 1, 30.0, False, SETTINGS, grace=2.0)
    room.join("a", "A", None, None, 0.0)
    room.join("b", "B", None, None, 0.0)
    room.set_ready("a", True, 0.0)
    room.set_ready("b", True, 0.0)
    assert room.match is not None
    first = room.match.id
    room.resign("b", 1.0)
    room.leave("b", 2.0)
    assert room.join("c", "C", None, None, 3.0) == 1
    room.set_ready("c", True, 3.0)
    assert room.match.id == first, "A, who stayed, has not agreed to a new match yet"
    room.set_ready("a", True, 4.0)
    assert room.match is not None
    assert room.match.id != first and room.status == "playing"
    assert room.matches == [first, room.match.id]


def match_id(room: Room) -> str:
    """The id of the room's match, its last one: a test's failure when it has had none."""
    assert room.match is not None, "the room has had a match"
    return room.match.id


def resigned_by_b() -> tuple[Room, str]:
    """A singles room of "a" and "b" whose match b resigned: the room and that match's id."""
    room = Room("r1", "singles", 1, 30.0, False, SETTINGS, grace=2.0)
    for sid in ("a", "b"):
        room.join(sid, sid.upper(), None, None, 0.0)
        room.set_ready(sid, True, 0.0)
    assert room.match is not None
    first = room.match.id
    room.resign("b", 1.0)
    return room, first


def test_after_a_match_nobody_is_ready_and_one_ready_does_not_start_the_next():
    room, first = resigned_by_b()
    assert room.status == "over"
    assert [s.ready for _, s in room.seated()] == [False, False]
    room.set_ready("b", False, 1.5)  # the next `room` shows it
    assert [s["ready"] for s in room.events[-1].message["seats"]] == [False, False]
    room.set_ready("a", True, 2.0)
    assert match_id(room) == first and room.status == "over", "B has not agreed"
    room.offer_rematch("b", 3.0)  # B's rematch is B's consent, and A's ready was A's
    assert match_id(room) != first and room.status == "playing"


def test_a_room_after_the_match_shows_its_result_as_the_result_message_does():
    # docs/protocol.md: room.match.result is "as in `result`": a client that reloads, or
    # gets a `room` after the `result`, still shows why the match ended and its record
    room, first = resigned_by_b()
    sent = [e.message for e in room.events if e.kind == "result"][-1]
    match = room.snapshot(None, 2.0)["match"]
    assert match is not None
    shown = match["result"]
    assert {k: v for k, v in sent.items() if k not in ("t", "seq")} == shown
    assert shown["result"]["reason"] == "resign" and shown["record"] == f"/api/matches/{first}"


def test_a_rematch_offer_is_the_offering_seat_ready_only():
    room, first = resigned_by_b()
    room.offer_rematch("a", 2.0)
    assert [s.ready for _, s in room.seated()] == [True, False]
    room.set_ready("b", False, 3.0)
    assert match_id(room) == first, "B's not-ready is no consent"


def test_a_resync_shows_the_last_ruling_once_its_motion_has_ended():
    m = new()
    assert m.view(0.0)["last_ruling"] is None
    step = m.strike(striker(m), bot_shot(m), 0.0)
    assert m.view(0.0)["last_ruling"] is None, "the ruling is not shown before its motion ends"
    assert step.motion is not None
    done = m.finish_motion(step.motion.ends(SETTINGS))
    ruling = next(o.data for o in done.out if o.kind == "ruling")
    assert m.view(0.0)["last_ruling"] == ruling
    again = Match.from_dict(m.to_dict(0.0), SETTINGS)
    assert again.view(0.0)["last_ruling"] == ruling, "a checkpoint keeps it across a restart"


def test_the_paths_show_every_disc_where_its_trajectory_has_it():
    """The wire's paths, evaluated as a client evaluates them (server/games/core/paths.py),
    show what the physics' own trajectory shows, at every 1/120 s of breaks and mid-game
    strokes and at their end."""
    for discs, shot in mixed_strokes(7, 200):
        result = simulate(COMPETITION, discs, shot)
        track = result.trajectory.track(0)
        motion = Motion(1, 0, shot, result.duration, 0.0, [], track)
        steps = int(result.duration * 120) + 1
        for t in [k / 120 for k in range(steps)] + [result.duration]:
            expected = [
                disc_view(d.id, 0 if d.id == 0 else d.owner, d.x, d.y)  # striker: who struck
                for d in result.trajectory.sample(t)
                if d.where == "table"
            ]
            assert motion.discs_at(t) == expected


def test_the_lobby_knows_where_each_session_sits_through_joins_leaves_and_closes():
    lobby = Lobby(Settings(), grace=60.0)
    first = lobby.new_room("singles", 1, 60.0, private=False)
    first.join("s0", "A", None, None, 0.0)
    assert lobby.room_of("s0") is None, "not listed yet"
    lobby.add(first)
    assert lobby.room_of("s0") is first
    first.join("s1", "B", None, None, 0.0)
    assert lobby.room_of("s1") is first and lobby.room_of("watcher") is None
    first.leave("s1", 0.0)
    assert lobby.room_of("s1") is None, "a freed seat"
    second = lobby.add(lobby.new_room("singles", 1, 60.0, private=False))
    second.join("s1", "B", None, None, 0.0)
    assert lobby.room_of("s1") is second
    lobby.remove(first)
    assert lobby.room_of("s0") is None, "a closed room"
    first.join("s2", "C", None, None, 0.0)
    assert lobby.room_of("s2") is None, "a closed room no longer writes the index"


def test_team_chat_stays_with_the_team_that_wrote_it():
    # a doubles team's chat is theirs: whoever takes a freed seat later reads none of it
    room = Room("r2", "doubles", 1, 30.0, False, SETTINGS, grace=120.0, buffer=64)
    for seat, sid in enumerate(("s0", "s1", "s2", "s3")):
        room.join(sid, sid.upper(), seat, None, 0.0)
    room.chat("s1", "S1", "our plan", team=True)
    written = room.seq
    assert room.events[-1].readers == ("s1", "s3")
    room.leave("s3", 1.0)
    room.join("s9", "S9", 3, None, 2.0)
    assert missed(room, written - 1, 1, "s9")[0] == {"t": "hidden", "seq": written}
    assert missed(room, written - 1, 1, "s1")[0]["text"] == "our plan"
    assert missed(room, written - 1, None, None)[0]["t"] == "hidden", "watchers never read it"


def missed(room: Room, since: int, team: int | None, sid: str | None) -> list[dict[str, Any]]:
    """The events a session missed since `since`, which the room's buffer still holds."""
    events = room.missed(since, team, sid)
    assert events is not None, "within the buffer"
    return events


def test_a_resignation_made_during_a_stroke_starts_no_clock_in_the_ended_match():
    # docs/protocol.md: no `clock` once the match is over; the stroke's ruling (which would
    # start the next stroke's clock), then the resignation's ruling and the result
    room = Room("r1", "singles", 1, 30.0, False, SETTINGS, grace=2.0)
    for sid in ("a", "b"):
        room.join(sid, sid.upper(), None, None, 0.0)
        room.set_ready(sid, True, 0.0)
    match = room.match
    assert isinstance(match, Match) and match.turn is not None
    striker = "ab"[match.turn]
    room.strike(striker, bot_shot(match), 1.0)
    assert room.resign("ab"[1 - match.turn], 1.05).out == [], "taken once the discs rest"
    room.outbox.clear()
    room.finish_motion(10.0)
    kinds = [o.message["t"] if isinstance(o, Event) else o.kind for o in room.outbox]
    causes = [
        o.message["cause"] for o in room.outbox if isinstance(o, Event) and "cause" in o.message
    ]
    assert "clock" not in kinds, kinds
    assert kinds[:3] == ["ruling", "ruling", "result"] and causes[:2] == ["stroke", "resign"]
