"""The public surface others code against (docs/contracts.md)."""

import math

import msgpack

from server.games.novuss.sim import (
    COMPETITION,
    STRIKER_ID,
    Disc,
    Shot,
    StrokeResult,
    Trajectory,
    simulate,
)
from server.games.novuss.sim.engines import Engine


def test_simulate_returns_events_final_duration_and_a_storable_trajectory() -> None:
    pucks = [Disc(1, 540.0, 540.0, "puck", 0), Disc(2, 700.0, 700.0, "puck", 1)]
    result = simulate(COMPETITION, pucks, Shot(540.0, 60.0, math.pi / 2, 2000.0))
    assert isinstance(result, StrokeResult)
    assert [d.id for d in result.final] == [STRIKER_ID, 1, 2]
    assert result.final[1].owner == 0
    assert result.duration > 0.0
    assert [e.t for e in result.events] == sorted(e.t for e in result.events)
    packed = msgpack.packb(result.trajectory.to_compact())
    again = Trajectory.from_compact(msgpack.unpackb(packed))
    assert again == result.trajectory
    assert again.sample(result.duration) == result.final
    assert len(result.state_hash()) == 64


def test_raw_event_codes_and_sizes_match_the_core() -> None:
    from server.games.core import python_core
    from server.games.novuss.sim.engines import MAX_DISCS
    from server.games.novuss.sim.result import RAW_KINDS

    core = python_core()
    codes = [core.K_DISC, core.K_RAIL, core.K_POCKET, core.K_OFF, core.K_ZONE]
    assert codes == list(range(len(RAW_KINDS)))
    assert core.MAXD == MAX_DISCS


def test_doubles_set_up_of_32_pucks_and_the_striker_is_simulated(engine: Engine) -> None:
    import random

    from tools.scenarios import scattered_pucks

    pucks = scattered_pucks(random.Random(4), 32)
    result = simulate(COMPETITION, pucks, Shot(540.0, 80.0, 1.4, 6000.0), engine)
    assert len(result.final) == 33
    assert any(
        d.id != STRIKER_ID and (d.x, d.y) != (p.x, p.y)
        for d, p in zip(result.final[1:], pucks, strict=True)
    )
