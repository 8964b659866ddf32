"""What the referee reads of a stroke without building its objects (StrokeResult's
log, moved_ends and state_hash, server/games/novuss/rules/judge.py) says exactly what
the objects say: the events, the final state and its hash."""

from __future__ import annotations

from server.games.novuss.sim import COMPETITION, STRIKER_ID, simulate
from server.games.novuss.sim.engines import Engine
from server.games.novuss.sim.result import DISC, OFF, ZONE, raw_event, state_hash
from tools.scenarios import mixed_strokes


def test_the_referees_reading_of_200_strokes_is_what_their_objects_say(engine: Engine) -> None:
    for pucks, shot in mixed_strokes(35, 200):
        result = simulate(COMPETITION, pucks, shot, engine=engine)
        log, ids = result.log()
        ends = result.moved_ends()
        digest = result.state_hash()
        # The core's entries with each disc index put as its id (and no speed for a disc
        # leaving, which LeftTable does not keep): the objects' entries.
        named = [
            (k, t, a if k == ZONE else ids[a], ids[b] if k == DISC else b, 0.0 if k == OFF else v)
            for k, t, a, b, v in log
        ]
        assert named == [raw_event(e) for e in result.events]
        assert ids[0] == STRIKER_ID
        placed = {d.id: (d.x, d.y) for d in pucks}
        for d in result.final:
            if d.id in ends:
                assert ends[d.id] == (d.where, (d.x, d.y))
            else:  # never moved: where it was placed, to the bit
                assert d.where == "table" and (d.x, d.y) == placed[d.id]
        assert STRIKER_ID in ends
        assert digest == state_hash(result.final)


def test_the_track_made_from_the_cores_numbers_is_the_trajectorys(engine: Engine) -> None:
    for k, (pucks, shot) in enumerate(mixed_strokes(36, 100)):
        result = simulate(COMPETITION, pucks, shot, engine=engine)
        seat = k % 4
        # repr: the same numbers of the same types (an int where the paths have an int)
        assert repr(result.track(seat)) == repr(result.trajectory.track(seat))
