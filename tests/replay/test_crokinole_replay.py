"""Crokinole's replay without a server (server/games/crokinole/replay.py, through the seam as
server/replay asks it): scripted games of every kind recomputed shot by shot with every state
hash and ruling agreeing; the hash the same bits with either collision core; an altered shot
marked and the replay going on; a shot out of turn ending it; a shot's served paths ending
exactly in its stored hash; `python -m server.replay` on a Crokinole record."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from server.games.core import python_core
from server.games.crokinole.match import OFFSET
from server.games.crokinole.physics import Final, Flick, Piece, simulate, state_hash
from server.games.crokinole.rules import State
from server.games.registry import game
from server.replay.steps import NoSuchStroke, recompute, stroke_motion
from server.replay.verify import ReplayError, replay
from tests.replay.crokinole_scripted import crokinole_record

KINDS = {
    "singles": {},
    "doubles": {"players": 4},
    "four alone (7 d)": {"players": 4, "options": {"players": 4}},
    "conventional, direct hit (4 g, 7 a)": {
        "options": {"scoring": "conventional", "target": 8, "direct_hit": True}
    },
    "line discs stay (7 b)": {"options": {"line_discs_stay": True}},
}


@pytest.mark.parametrize("kind", list(KINDS), ids=list(KINDS))
def test_a_whole_game_replays_with_every_hash_and_ruling_agreeing(kind):
    record = crokinole_record(seed=7, **KINDS[kind])  # type: ignore[arg-type]
    shots = [e for e in record["log"] if e["kind"] == "stroke"]
    checks = list(replay(record))
    assert [c.kind for c in checks] == [e["kind"] for e in record["log"][1:]]
    strokes = [c for c in checks if c.kind == "stroke"]
    assert len(strokes) == len(shots) >= 16  # a round at least
    assert all(c.hash_ok is True and c.ruling_ok is True for c in strokes)
    assert checks[-1].kind == "end" and checks[-1].ruling_ok is True
    assert any("round.scored" in line for c in strokes for line in c.lines)  # 002 2 c, 4


def test_the_hash_is_the_same_bits_with_either_core():
    record = crokinole_record(seed=4, shots=20)
    assert all(c.hash_ok for c in replay(record))
    # the last shot simulated again with the pure-Python twin of the collision core
    last = [e for e in record["log"] if e["kind"] == "stroke"][-1]
    before: State = recompute(record).before[last["stroke"]][0]
    shot = last["shot"]
    pieces = [Piece(d.id, d.x, d.y) for d in before.discs]
    flick = Flick(
        before.next_disc_id(last["seat"]), shot["x"] - OFFSET, shot["y"] - OFFSET, shot["angle"],
        shot["speed"],
    )  # fmt: skip
    compiled = simulate(before.board, pieces, flick)
    twin = simulate(before.board, pieces, flick, core=python_core())
    assert compiled.state_hash() == twin.state_hash() == last["hash"]


def test_an_altered_shot_is_marked_and_the_replay_goes_on():
    record = crokinole_record(seed=5, shots=10)
    shots = [e for e in record["log"] if e["kind"] == "stroke"]
    shots[2]["shot"]["speed"] *= 0.9
    checks = list(replay(record))
    assert checks[2].hash_ok is False and not checks[2].ok
    assert checks[0].ok and checks[1].ok
    assert len(checks) == 10  # every shot replayed from the recomputed state
    assert recompute(record).mismatches >= 1


def test_a_shot_out_of_turn_ends_the_replay_there():
    record = crokinole_record(seed=6, shots=8)
    shots = [e for e in record["log"] if e["kind"] == "stroke"]
    shots[4]["seat"] = 1 - shots[4]["seat"]  # 002 2 a: the other player shoots shot 5
    checks = list(replay(record))
    assert checks[-1].stroke == 5 and checks[-1].ruling_ok is False
    assert "refuses" in checks[-1].lines[0] and "not_your_turn" in checks[-1].lines[0]
    replayed = recompute(record)
    assert replayed.stopped is not None and replayed.steps[-1]["stopped"] == replayed.stopped
    with pytest.raises(NoSuchStroke):
        stroke_motion(replayed, 5)


def test_a_shots_paths_end_exactly_in_its_stored_hash():
    record = crokinole_record(seed=8, shots=18)
    replayed = recompute(record)
    assert replayed.game == "crokinole" and replayed.mismatches == 0
    for entry in (e for e in record["log"] if e["kind"] == "stroke"):
        motion = stroke_motion(replayed, entry["stroke"])
        wheres = motion["wheres"]
        finals = [Final(p[0], wheres[p[3]], p[5], p[6], False) for p in motion["paths"]]
        assert state_hash(finals) == motion["hash"] == entry["hash"]
        assert motion["hash_ok"] is True and motion["shot"] == entry["shot"]
    with pytest.raises(NoSuchStroke):
        stroke_motion(replayed, 19)


def test_a_record_from_before_the_hash_has_its_rulings_compared():
    record = crokinole_record(seed=9, shots=5, resign=True)
    for entry in record["log"]:
        entry.pop("hash", None)
    checks = list(replay(record))
    assert [c.kind for c in checks] == ["stroke"] * 5 + ["resign", "end"]
    assert all(c.hash_ok is None and c.ruling_ok is not False for c in checks)
    assert checks[-1].ruling_ok is True


def test_bad_records_are_refused_clearly():
    with pytest.raises(ReplayError, match="begin with the match's start"):
        list(replay({"game": "crokinole", "log": []}))
    with pytest.raises(ReplayError, match="no Crokinole game's state"):
        list(replay({"game": "crokinole", "log": [{"kind": "start", "state": {"x": 1}}]}))
    with pytest.raises(ReplayError, match="called 'chess'"):
        list(replay({"game": "chess", "log": []}))
    record = crokinole_record(seed=3, shots=2)
    record["log"].append({"kind": "foul", "seat": 0})
    with pytest.raises(ReplayError, match="no known kind"):
        list(replay(record))
    assert game("crokinole").replay is not None


def test_the_command_line_verifies_a_crokinole_record(tmp_path: Path):
    record = crokinole_record(seed=2, shots=17, resign=True)
    path = tmp_path / "crokinole.json"
    path.write_text(json.dumps(record))
    done = subprocess.run(
        [sys.executable, "-m", "server.replay", str(path)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    last = done.stdout.splitlines()[-1]
    assert last == "19 entries, 17 strokes, every hash matches, 0 mismatched"
    record["log"][3]["shot"]["angle"] += 1e-9
    path.write_text(json.dumps(record))
    done = subprocess.run(
        [sys.executable, "-m", "server.replay", str(path)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 1 and "stroke 3" in done.stdout and "MISMATCH: hash" in done.stdout
