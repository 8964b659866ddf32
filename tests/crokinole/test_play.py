"""Whole scripted games through the rules and the physics, every option set to its end."""

from __future__ import annotations

import pytest

from server.games.crokinole.rules import Options
from tools.crokinole_play import main, play_game


@pytest.mark.parametrize(
    "options",
    [
        Options(),
        Options(scoring="conventional", target=60),
        Options(players=4),
        Options(players=4, free_order=True),
        Options(players=4, teams=False),
        Options(players=3, direct_hit=True, line_discs_stay=True),
    ],
)
def test_a_scripted_game_plays_to_its_end(options: Options) -> None:
    lines: list[str] = []
    state = play_game(options, seed=3, out=lines)
    assert state.over and lines[-1].startswith("game over")
    if options.scoring == "tournament":
        assert len(state.rounds) == 4
        per_round = {2: 2, 3: 8 + 6 + 4, 4: 8 + 6 + 4 + 2}[options.sides()]
        assert sum(state.score) == 4 * per_round
    else:
        assert max(state.score) >= 60 and min(state.score) < 60


def test_the_command_prints_the_game(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--seed", "4"])
    out = capsys.readouterr().out
    assert "(002 4 f)" in out and "game over" in out


def test_a_state_survives_its_plain_data_form() -> None:
    import msgpack

    from server.games.crokinole.rules import State

    lines: list[str] = []
    state = play_game(Options(players=4, free_order=True), seed=5, out=lines)
    back = State.from_dict(msgpack.unpackb(msgpack.packb(state.to_dict()), raw=False))
    assert back == state
