"""The replay viewer's suggestion (server/replay/suggest.py), without a server: at a step of a
replayed match, the computer's top level is asked for the stroke of the seat to strike, and
that stroke, simulated from the step's position with the core and judged by the referee
here (not through the code under test), is accepted and legal (004 § 21, § 23: no foul),
with the ruling the suggestion says."""

from __future__ import annotations

import pytest

from server.games.core.replaying import UnacceptedShot, plain
from server.games.crokinole.judge import judge_shot
from server.games.crokinole.match import OFFSET, ruling_dict
from server.games.novuss.replay import REPLAY as NOVUSS_REPLAY
from server.games.novuss.rules import judge, sim_discs
from server.games.novuss.sim import COMPETITION, Shot, simulate
from server.replay.steps import recompute
from server.replay.suggest import NoSuggestion, at_step, suggest
from tests.replay.crokinole_scripted import crokinole_record
from tests.replay.scripted import scripted_record


@pytest.mark.parametrize("doubles", [False, True])
def test_the_suggestion_at_a_stroke_is_a_legal_stroke_the_referee_accepts(doubles):
    record = scripted_record(seed=7, strokes=12, doubles=doubles)
    replayed = recompute(record)
    strokes = [(i, s) for i, s in enumerate(replayed.steps) if s["kind"] == "stroke"]
    for index, step in strokes[::5]:  # the position before strokes 1, 6, 11
        state, seat, _played = replayed.before[step["stroke"]]
        position, to_strike = at_step(replayed, index)
        assert position == state and to_strike == seat == state.turn_seat
        got = suggest(record.get("game"), position, seat, index, None)
        shot = Shot(**got["shot"])
        ruling = judge(state, seat, shot, simulate(COMPETITION, sim_discs(state), shot))
        assert ruling.legal and got["legal"]  # 004 § 23 (1): a stroke with no foul
        assert plain(ruling.to_dict()) == plain(got["ruling"])
        assert got["seat"] == seat and got["candidates"] > 0
        if got["target"] is not None:  # the puck aimed at is one on the table
            assert got["target"] in {p.id for p in state.on_table()}
        assert got["pocket"] in (None, "SW", "SE", "NE", "NW")


def test_the_same_step_suggests_the_same_stroke():
    record = scripted_record(seed=2, strokes=4)
    replayed = recompute(record)
    position, seat = at_step(replayed, 2)
    assert suggest(None, position, seat, 2, None) == suggest(None, position, seat, 2, None)


def test_a_crokinole_suggestion_is_a_shot_its_rules_accept():
    record = crokinole_record(seed=3, shots=5, resign=True)
    replayed = recompute(record)
    position, seat = at_step(replayed, 3)
    got = suggest("crokinole", position, seat, 3, None)
    s = got["shot"]
    _after, ruling, _result = judge_shot(
        position, seat, s["x"] - OFFSET, s["y"] - OFFSET, s["angle"], s["speed"]
    )  # 002 5: a placement it refuses raises
    assert got["legal"] == ruling.valid and plain(ruling_dict(ruling)) == plain(got["ruling"])
    assert got["pocket"] is None


def test_no_suggestion_where_nobody_strikes_and_a_refused_shot_is_said():
    record = scripted_record(seed=4, strokes=3)
    replayed = recompute(record)
    last = len(replayed.steps)  # after the resignation's `end`: the match is over
    with pytest.raises(NoSuggestion):
        at_step(replayed, last)
    with pytest.raises(NoSuggestion):
        at_step(replayed, last + 1)
    state, seat = at_step(replayed, 0)
    with pytest.raises(UnacceptedShot):  # 004 § 18: the striker placed off its zone
        NOVUSS_REPLAY.expect(
            state, seat, Shot(COMPETITION.size / 2, COMPETITION.size / 2, 0.0, 1000.0)
        )
    with pytest.raises(UnacceptedShot):  # out of turn
        NOVUSS_REPLAY.expect(state, 1 - seat, Shot(**record["log"][1]["shot"]))
