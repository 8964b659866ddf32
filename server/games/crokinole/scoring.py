"""Scoring of seed 002 § 4: a disc's region, a round's totals, and round points."""

from __future__ import annotations

import math
from collections.abc import Sequence

from server.games.crokinole.board import Board

RANK_POINTS = (8, 6, 4, 2)  # 002 7 d


def disc_value(board: Board, x: float, y: float, on_line_counts: bool = False) -> int:
    """The value of a disc at rest on the board (002 4 a, c, d).

    A disc touching a line scores the lower region (4 c); lines are circles of zero width
    and a disc touches one when its footprint crosses it (4 d: the bottom edge, which is
    the footprint of a flat disc). On or beyond the shooting line it scores nothing (4 e),
    or 5 with the optional rule 7 b (`on_line_counts`)."""
    reach = math.sqrt(x * x + y * y) + board.disc_radius
    if reach < board.ring15_radius:
        return 15
    if reach < board.ring10_radius:
        return 10
    if reach < board.shooting_radius or on_line_counts:
        return 5
    return 0


def touching_or_within_15(board: Board, x: float, y: float) -> bool:
    """The 'no hiding' test of 002 3 b: the disc touches or is inside the 15 line."""
    return math.sqrt(x * x + y * y) - board.disc_radius <= board.ring15_radius


def on_or_beyond_shooting_line(board: Board, x: float, y: float) -> bool:
    """002 4 e, 6 a: a disc on or beyond the shooting line is out of play."""
    return math.sqrt(x * x + y * y) + board.disc_radius > board.shooting_radius


def tournament_points(totals: Sequence[int]) -> tuple[int, ...]:
    """Two sides: the round's winner 2, a tie 1 each (002 4 f)."""
    a, b = totals
    if a == b:
        return (1, 1)
    return (2, 0) if a > b else (0, 2)


def cancelled_points(totals: Sequence[int]) -> tuple[int, ...]:
    """Two sides: the points cancelled down, only the higher side scores (002 4 g)."""
    a, b = totals
    return (max(a - b, 0), max(b - a, 0))


def rank_points(totals: Sequence[int]) -> tuple[int, ...]:
    """Three or four players: 8, 6, 4, 2 by rank, tied players share the sum of the
    places they hold equally (002 7 d)."""
    order = sorted(totals, reverse=True)
    out = []
    for total in totals:
        first = order.index(total)
        tied = order.count(total)
        out.append(sum(RANK_POINTS[first : first + tied]) // tied)
    return tuple(out)
