"""What the referee reads of a stroke without building its objects (StrokeResult's
striker_log, moved_ends and state_hash, server/games/novuss/rules/judge.py) says exactly what
the objects say: the events, the final state and its hash."""

from __future__ import annotations

from server.games.novuss.sim import COMPETITION, STRIKER_ID, simulate
from server.games.novuss.sim.engines import Engine
from server.games.novuss.sim.result import plain_event, state_hash
from server.games.novuss.sim.types import DiscContact, Event, Pocketed, RailContact
from tools.scenarios import mixed_strokes


def read_by_referee(e: Event) -> bool:
    """The events striker_log keeps: the striker's, every leaving, every zone crossing."""
    if isinstance(e, DiscContact):
        return STRIKER_ID in (e.a, e.b)
    if isinstance(e, (RailContact, Pocketed)):
        return e.disc == STRIKER_ID
    return True


def test_the_referees_reading_of_200_strokes_is_what_their_objects_say(engine: Engine) -> None:
    for pucks, shot in mixed_strokes(35, 200):
        result = simulate(COMPETITION, pucks, shot, engine=engine)
        log = result.striker_log()
        ends = result.moved_ends()
        digest = result.state_hash()
        assert log == [plain_event(e) for e in result.events if read_by_referee(e)]
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
