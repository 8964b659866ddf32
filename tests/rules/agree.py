"""Do a ruling's lines say what its data says? Read from the lines' codes and arguments,
never their text (docs/rules.md, "The referee's lines"), so a rewording cannot hide a
contradiction and a contradiction cannot hide behind a later line."""

from __future__ import annotations

from collections import Counter
from typing import Any

from server.games.novuss.rules import MatchState, Ruling, team_of
from server.games.novuss.rules.lines import TURN_CODES, Line

SET_OUTCOME = {"set.lost": "lost", "set.won": "won", "set.annulled": "annulled"}
SET_OUTCOME["set.replayed"] = "replayed"
MATCH_ENDS = {"match.won", "match.drawn", "forfeit.absent", "forfeit.resign", "caution.match_lost"}
PASS_WHY = {"turn.none_in", "turn.opponent_in", "turn.over_rail", "turn.crossed_line"}


def _set_code(code: str) -> str | None:
    return next((o for prefix, o in SET_OUTCOME.items() if code.startswith(prefix + ".")), None)


def _only(lines: list[Line], code: str, r: Ruling) -> Line:
    found = [ln for ln in lines if ln.code == code]
    assert len(found) == 1, f"{len(found)} lines {code}:\n{r.text()}"
    return found[0]


def _int(value: object) -> int:
    assert isinstance(value, int), value
    return value


def _whose(first: tuple[int, ...], before: MatchState, team: int) -> str:
    if not first:
        return "none"
    own = sum(1 for pid in first if team_of(before.puck(pid).owner) == team)
    return "own" if own == len(first) else "opponent" if own == 0 else "mixed"


def assert_lines_agree(before: MatchState, r: Ruling) -> None:
    """Every line of `r` (judged from `before`) states a fact its data states too, and
    the facts the data decides are each stated once."""
    lines = list(r.lines)
    codes = Counter(ln.code for ln in lines)
    text = r.text()
    team = team_of(r.seat)
    ctx = f"\n{text}\n{r.to_dict()}"

    # -- legal or not, 004 § 24 (1), (2)
    penalties = sum(n for c, n in codes.items() if c.startswith("penalty."))
    assert r.legal == (not r.penalty), ctx
    assert (penalties > 0) == r.penalty, ctx
    assert ("faults.one_penalty" in codes) == (penalties > 1), ctx

    # -- the stroke, 004 § 21
    strokes = [ln for ln in lines if ln.code.startswith("stroke.")]
    if r.kind in ("direct", "rebound"):
        ln = _only(lines, f"stroke.{r.kind}", r)
        assert len(strokes) == 1, ctx
        assert ln.args["n"] == len(r.first_touch), ctx
        assert ln.args["whose"] == _whose(r.first_touch, before, team), ctx
        if r.kind == "rebound":
            assert ln.args["rail"] == r.rebound_rail, ctx
    else:
        assert not strokes, ctx

    # -- where the pucks went, 004 § 20 (8), (14), § 21 (4), (7)-(9)
    for code, ids in (
        ("pucks.pocketed", r.pocketed),
        ("pucks.restored", tuple(s[0] for s in r.restored)),
        ("pucks.respotted", tuple(s[0] for s in r.respotted)),
    ):
        if ids:
            assert _only(lines, code, r).args["pucks"] == tuple(ids), ctx
        else:
            assert code not in codes, ctx

    # -- the end of the set and of the match, 004 § 23, § 27, § 32 (1), § 26 (2)
    set_lines = [ln for ln in lines if _set_code(ln.code)]
    match_lines = [ln for ln in lines if ln.code in MATCH_ENDS]
    assert len(match_lines) == (r.match_result is not None), ctx
    cautioned_out = "caution.match_lost" in codes
    if r.set_result is None or cautioned_out or r.kind in ("absent", "resign"):
        assert not set_lines, ctx
    else:
        assert len(set_lines) == 1, ctx
        _check_set_line(set_lines[0], r.set_result, ctx)
    if r.match_result is not None:
        _check_match_line(match_lines[0], r, ctx)
        assert r.next_seat is None, ctx
    if cautioned_out:
        assert r.set_result is not None and r.set_result["winner"] == 1 - team, ctx

    # -- who strikes next, 004 § 20 (8), § 25 (1), § 24 (6), § 27 (5)
    turn = [ln.code for ln in lines if ln.code in TURN_CODES]
    set_goes_on = r.set_result is None and r.match_result is None
    if not set_goes_on:
        assert not turn and not r.keeps_turn, ctx
    else:
        _check_turn(before, r, turn, ctx)

    # -- penalty pucks placed and owed, 004 § 24 (2)-(7), § 28 (5), (6)
    _check_debts(before, r, lines, set_goes_on, ctx)
    for ln in lines:
        if ln.code == "caution.delay":
            assert r.state.cautions[team] == ln.args["caution"], ctx


def _check_set_line(ln: Line, result: dict[str, Any], ctx: str) -> None:
    assert _set_code(ln.code) == result["outcome"], ctx
    assert ln.args["set"] == result["set"], ctx
    if result["outcome"] == "won":
        assert ln.args["team"] == result["winner"], ctx
    elif result["outcome"] == "lost":
        assert ln.args["team"] == 1 - result["winner"], ctx
    else:
        assert result["winner"] is None and "team" not in ln.args, ctx


def _check_match_line(ln: Line, r: Ruling, ctx: str) -> None:
    m = r.match_result
    assert m is not None
    if ln.code == "match.won":
        assert m["winner"] == ln.args["team"] and m["sets_won"] == [ln.args["a"], ln.args["b"]], ctx
    elif ln.code == "match.drawn":
        assert m["winner"] is None and m["sets_won"] == [ln.args["a"], ln.args["b"]], ctx
    elif ln.code.startswith("forfeit."):
        assert ln.args["seat"] == r.seat and m["winner"] == 1 - team_of(r.seat), ctx
    else:  # caution.match_lost
        assert m["winner"] == 1 - team_of(r.seat), ctx


def _check_turn(before: MatchState, r: Ruling, turn: list[str], ctx: str) -> None:
    """The set goes on: exactly one decision about the strike right, worded once."""
    assert r.next_seat is not None, ctx
    if r.keeps_turn:
        assert turn == ["turn.again"] and r.next_seat == r.seat, ctx
        return
    assert turn and "turn.again" not in turn, ctx
    assert team_of(r.next_seat) != team_of(r.seat), ctx  # § 25 (1), § 28 (1)
    stops = "series.answer" in turn
    debt = "turn.debt_placed" in turn
    assert stops == (before.answering is None and r.state.answering == team_of(r.seat)), ctx
    if stops or debt:
        assert len(turn) == 1, ctx
    if debt:  # 004 § 24 (6) "except in doubles"
        side = team_of(r.seat)
        own = [p for p, _, _ in r.penalty_placed if team_of(r.state.puck(p).owner) == side]
        assert before.config.mode == "doubles" and own and not r.penalty, ctx
    if "turn.passes" in turn:
        assert r.penalty and turn == ["turn.passes"], ctx
    else:
        assert not r.penalty, ctx
    own_in = [p for p in r.pocketed if team_of(before.puck(p).owner) == team_of(r.seat)]
    opp_in = [p for p in r.pocketed if team_of(before.puck(p).owner) != team_of(r.seat)]
    if "turn.none_in" in turn:
        assert not own_in, ctx
    if "turn.opponent_in" in turn:
        assert own_in and opp_in, ctx
    if "turn.over_rail" in turn:
        assert r.respotted or r.restored, ctx
    if "turn.crossed_line" in turn:
        assert r.crossed_line, ctx
    if not stops and not debt and not r.penalty:
        assert set(turn) <= PASS_WHY, ctx


def _check_debts(
    before: MatchState, r: Ruling, lines: list[Line], set_goes_on: bool, ctx: str
) -> None:
    placed_lines = [ln for ln in lines if ln.code in ("debt.placed", "debt.placed_owed")]
    by_team = Counter(team_of(r.state.puck(p).owner) for p, _, _ in r.penalty_placed)
    said = Counter[int]()
    for ln in placed_lines:
        said[team_of(_int(ln.args["seat"]))] += _int(ln.args["n"])
        if ln.code == "debt.placed":
            assert ln.args["seat"] == r.seat and r.penalty, ctx
    assert said == by_team, ctx
    owed = {ln.args["seat"]: ln.args["n"] for ln in lines if ln.code == "debt.owed"}
    for seat, n in owed.items():
        assert r.debts[_int(seat)] == n, ctx
    if set_goes_on:
        for seat in before.seats:
            if r.debts[seat] and r.debts[seat] != before.debt[seat]:
                assert seat in owed, ctx
