"""Team encounters: the order of boards and the games of an encounter (004 § 29, § 31 (2))."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace

from .errors import BadSettings
from .model import Entrant, GamePairing, Settings


def order_boards(
    team: Entrant, ratings: Mapping[str, float | None], champion: str | None = None
) -> Entrant:
    """The team with its members on boards I, II, III ... by their classification, highest
    rating first, unrated last, the given order keeping ties (004 § 29 (2)). The winner of the
    club championship, `champion`, may be placed ahead of higher-rated players: on board I."""
    if champion is not None and champion not in team.members:
        raise BadSettings(f"{champion!r} is not a member of {team.id!r}")

    def key(indexed: tuple[int, str]) -> tuple[int, float, int]:
        place, member = indexed
        rating = ratings.get(member)
        first = 0 if member == champion else 1
        return (first, -rating if rating is not None else float("inf"), place)

    ordered = tuple(m for _, m in sorted(enumerate(team.members), key=key))
    return replace(team, members=ordered)


def encounter_games(
    settings: Settings, a: Entrant, b: Entrant, lot: random.Random
) -> tuple[GamePairing, ...]:
    """The games of an encounter of team `a` against team `b`: the players of the boards each
    game names (004 § 29 (3)), and the opening stroke drawn by lot for board I (the first game)
    and alternating from it for the others (004 § 31 (2))."""
    first = lot.choice((a.id, b.id))
    other = b.id if first == a.id else a.id
    games = []
    for index, spec in enumerate(settings.games):
        games.append(
            GamePairing(
                game=index,
                kind=spec.kind,
                a_players=tuple(a.members[board - 1] for board in spec.boards),
                b_players=tuple(b.members[board - 1] for board in spec.boards),
                sets=spec.sets,
                opener=first if index % 2 == 0 else other,
            )
        )
    return tuple(games)
