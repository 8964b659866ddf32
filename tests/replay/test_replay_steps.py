"""The replay viewer's recomputation (server/replay/steps.py), without a server: a scripted
doubles match (with a pass, a clock run out and a resignation) stepped entry by entry, each
stroke's served motion ending exactly in its stored state hash; a record that stops agreeing
or that the core cannot follow is marked, never served as right."""

from __future__ import annotations

import copy

import pytest

from server.games.novuss.sim.result import Trajectory, state_hash
from server.replay.steps import NoSuchStroke, ReplayError, recompute, stroke_motion
from tests.replay.scripted import scripted_record


def test_every_entry_of_a_doubles_match_is_a_step_and_every_motion_is_exact():
    record = scripted_record(seed=5, strokes=40, doubles=True)
    replayed = recompute(record)
    assert replayed.mismatches == 0 and replayed.stopped is None
    kinds = [s["kind"] for s in replayed.steps]
    assert kinds == [e["kind"] for e in record["log"][1:]]
    assert kinds[-4:] == ["pass", "clock", "resign", "end"]
    assert len(replayed.start["sides"]) == 4 and replayed.start["set"] == 1
    for entry in record["log"]:
        if entry["kind"] != "stroke":
            continue
        motion = stroke_motion(replayed, entry["stroke"])
        paths = [[d[0], d[1], -1 if d[0] == 0 else d[2], *d[3:]] for d in motion["paths"]]
        data = {"v": 1, "decel": motion["decel"], "duration": motion["duration"], "discs": paths}
        assert state_hash(Trajectory.from_compact(data).sample(motion["duration"])) == entry["hash"]
        assert motion["paths"][0][2] == entry["seat"]  # the striker shown as the striker's
    with pytest.raises(NoSuchStroke):
        stroke_motion(replayed, 41)


def test_a_stroke_out_of_turn_stops_the_replay_there_with_the_reason():
    record = scripted_record(seed=2, strokes=8)
    altered = copy.deepcopy(record)
    strokes = [e for e in altered["log"] if e["kind"] == "stroke"]
    strokes[4]["seat"] = 1 - strokes[4]["seat"]  # the other player strikes stroke 5
    replayed = recompute(altered)
    assert replayed.stopped is not None and "refuses" in replayed.stopped
    last = replayed.steps[-1]
    assert last["stroke"] == 5 and last["stopped"] == replayed.stopped
    with pytest.raises(NoSuchStroke):  # no motion served for what the core refused
        stroke_motion(replayed, 5)
    assert stroke_motion(replayed, 4)["hash_ok"] is True


def test_a_crokinole_or_startless_record_is_not_replayed():
    with pytest.raises(ReplayError):
        recompute({"game": "crokinole", "log": []})
    with pytest.raises(ReplayError):
        recompute({"log": [{"kind": "stroke"}]})
