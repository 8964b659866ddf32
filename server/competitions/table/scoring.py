"""Checking set scores and turning results into table points (004 § 32 (1), (2); § 29 (3)-(5))."""

from __future__ import annotations

from .errors import BadScore
from .model import BOTH, GameResult, GameSpec, Pairing, Result, Scale, Settings


def check_match_score(sets: int, a: int, b: int) -> None:
    """Refuse a set score a match of `sets` sets cannot end with. 004 § 32 (1): the match stops
    as soon as one side has won more than half of the sets; otherwise all are played, and with
    an even number a draw is possible (in four sets: 3:0, 3:1 or 2:2)."""
    if a < 0 or b < 0:
        raise BadScore("sets cannot be negative")
    high, low = max(a, b), min(a, b)
    decided = high == sets // 2 + 1 and low <= sets - high
    drawn = a == b and a + b == sets
    if not (decided or drawn):
        raise BadScore(f"{a}:{b} cannot end a match of {sets} sets (004 § 32 (1))")


def _game_points(spec: GameSpec, game: GameResult, a: str, b: str) -> tuple[float, float]:
    if game.forfeit is not None:
        return _forfeit_points(spec.scale, game.forfeit, a)
    return _points(spec.scale, game.sets_a, game.sets_b)


def _points(scale: Scale, sets_a: int, sets_b: int) -> tuple[float, float]:
    if sets_a > sets_b:
        return scale.win, scale.loss
    if sets_a < sets_b:
        return scale.loss, scale.win
    return scale.draw, scale.draw


def _forfeit_points(scale: Scale, forfeit: str, a: str) -> tuple[float, float]:
    # 004 § 22 (3): a no-show loses the match (both, if neither came); 004 § 32 (3) 1): a
    # withdrawer's minus, the opponent's plus "do not change the counting of points", so they
    # score as a loss and a win.
    if forfeit == BOTH:
        return scale.loss, scale.loss
    return (scale.loss, scale.win) if forfeit == a else (scale.win, scale.loss)


def check_result(settings: Settings, result: Result) -> None:
    """Refuse a result whose scores the settings cannot produce (the pairing is checked by the
    tournament)."""
    if result.forfeit is not None:
        if result.forfeit not in (result.a, result.b, BOTH):
            raise BadScore("the forfeit must name one of the two sides, or both")
        if result.sets_a or result.sets_b or result.games:
            raise BadScore("a forfeited encounter has no sets or games")
        return
    if not settings.teams:
        if result.games:
            raise BadScore("games are for team encounters")
        check_match_score(settings.sets, result.sets_a, result.sets_b)
        return
    _check_games(settings, result)


def _check_games(settings: Settings, result: Result) -> None:
    games = result.games
    if not games or len(games) > len(settings.games):
        raise BadScore(f"a team encounter has {len(settings.games)} games")
    for spec, game in zip(settings.games, games, strict=False):
        if game.forfeit is not None:
            if game.forfeit not in (result.a, result.b, BOTH) or game.sets_a or game.sets_b:
                raise BadScore("a forfeited game names a side (or both) and has no sets")
        else:
            check_match_score(spec.sets, game.sets_a, game.sets_b)
    if (result.sets_a, result.sets_b) != game_sets(games):
        raise BadScore("the sets of a team encounter are the sums of its games' sets")
    if len(games) < len(settings.games):
        # 004 § 29 (7): in cup and title competitions every game is played to the end.
        if settings.play_all_games:
            raise BadScore("every game of the encounter is played (004 § 29 (7))")
        pa, pb = _games_points(settings, result)
        left = sum(s.scale.win for s in settings.games[len(games) :])
        if abs(pa - pb) <= left:
            raise BadScore("the encounter is not decided yet: play the remaining games")


def game_sets(games: tuple[GameResult, ...]) -> tuple[int, int]:
    """Sets won by each side over a team encounter's games."""
    return sum(g.sets_a for g in games), sum(g.sets_b for g in games)


def _games_points(settings: Settings, result: Result) -> tuple[float, float]:
    # 004 § 29 (3): the points of the games add up to the result of the encounter.
    pa = pb = 0.0
    for spec, game in zip(settings.games, result.games, strict=False):
        ga, gb = _game_points(spec, game, result.a, result.b)
        pa, pb = pa + ga, pb + gb
    return pa, pb


def result_points(settings: Settings, result: Result) -> tuple[float, float]:
    """Table points of `a` and `b` for a checked result (004 § 32 (2), § 29 (3), § 22 (3))."""
    if not settings.teams:
        if result.forfeit is not None:
            return _forfeit_points(settings.scale, result.forfeit, result.a)
        return _points(settings.scale, result.sets_a, result.sets_b)
    if result.forfeit is not None:
        whole = Scale(win_points(settings), 0.0)
        return _forfeit_points(whole, result.forfeit, result.a)
    return _games_points(settings, result)


def outcomes(settings: Settings, result: Result) -> tuple[int, int]:
    """Win (1), draw (0) or loss (-1) for `a` and `b`: by the points of the encounter, and a
    loss for both when neither came (004 § 22 (3))."""
    if result.forfeit == BOTH:
        return -1, -1
    pa, pb = result_points(settings, result)
    return (pa > pb) - (pa < pb), (pb > pa) - (pb < pa)


def win_points(settings: Settings) -> float:
    """The most an encounter can give one side."""
    if settings.teams:
        return sum(g.scale.win for g in settings.games)
    return settings.scale.win


def bye_points(settings: Settings) -> float:
    """Points for the entrant left without an opponent in a Swiss round: a drawn result
    (004 § 29 (5), § 32 (2) note 3); in a round robin the free entrant just rests."""
    if settings.system != "swiss":
        return 0.0
    if settings.teams:
        return sum(g.scale.draw for g in settings.games)
    return settings.scale.draw


def player_points(settings: Settings, pairing: Pairing, result: Result) -> dict[str, float]:
    """Points each player earned in a team encounter, for individual-team competitions
    (004 § 6 (4)): the points of every game he played, a doubles game's to both partners.
    The result is oriented as the pairing (a is pairing.a)."""
    out: dict[str, float] = {}
    if result.forfeit is not None:
        return out
    for spec, game, seats in zip(settings.games, result.games, pairing.games, strict=False):
        ga, gb = _game_points(spec, game, result.a, result.b)
        for player in seats.a_players:
            out[player] = out.get(player, 0.0) + ga
        for player in seats.b_players:
            out[player] = out.get(player, 0.0) + gb
    return out
