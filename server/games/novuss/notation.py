"""The match notation (docs/notation.md): a Novuss match as text, header tags then one line
per entry of its log, and back again (pure: no I/O).

    text = to_notation(record)      # a record as GET /api/matches/{id} serves it
    record = from_notation(text)    # a record the replay (server/replay/verify.py) reads

Floats are written as Python's repr (the shortest decimal string that reads back as the same
IEEE-754 double) and read back with float(): the replay must simulate the very bits that were
simulated, and a state hash would tell any last-bit difference. Hex floats (float.hex) are
read too. The notation has no rulings: a replay of it compares the state hash of every
stroke, and the match's result, with what the core makes of it.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from server.games.core.notation import (
    NotationError,
    entry_line,
    header_lines,
    read_entries,
    read_header,
    read_int,
    read_number,
    start_hash,
    write_number,
)
from server.games.novuss.rules import MatchConfig, MatchState, new_match, team_of

NO_STROKE_KINDS = ("pass", "clock", "absent", "resign")
# config key -> tag, in the order written; every one is written, so that the start state is
# rebuilt from the tags alone (StartHash checks that it is the recorded one)
CONFIG_TAGS = (
    ("mode", "Mode"),
    ("sets", "Sets"),
    ("stroke_clock", "Clock"),
    ("absent_limit", "AbsentLimit"),
    ("three_miss", "ThreeMiss"),
    ("blind_hit_moves", "BlindHitMoves"),
    ("max_speed", "MaxSpeed"),
    ("edition", "Edition"),  # absent: the first (MatchConfig.edition)
)
REQUIRED = ("Game", "Mode", "Sets", "FirstTeam", "FirstSeat", "StartHash")

RESULTS = {"1-0": 0, "0-1": 1, "1/2-1/2": None}


GAME = "novuss"  # the `Game` tag and a record's `game` (server/games/novuss/game.py)


# -- record -> text --------------------------------------------------------------------
def to_notation(record: dict[str, Any]) -> str:
    """A Novuss match record (docs/protocol.md, `GET /api/matches/{id}`) as notation text.
    Raises NotationError for a record the notation cannot carry (another game's, one whose
    start is not a new match's, one with a field missing or of the wrong kind)."""
    try:
        return _write(record)
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        # a damaged record is reported, never written as a match it is not
        raise NotationError(f"The record is not a well-formed match record ({e!r}).") from None


def _write(record: dict[str, Any]) -> str:
    game = record.get("game", GAME)
    if game != GAME:
        raise NotationError(
            f"A {game} record has no state hash per stroke: the notation carries Novuss only."
        )
    log = record.get("log") or []
    if not log or log[0].get("kind") != "start":
        raise NotationError("The record's log does not begin with the match's start.")
    start = log[0]
    state = MatchState.from_dict(start["state"])
    first_team = int(start["first_team"])
    first_seat = state.turn_seat
    if first_seat is None or new_match(state.config, first_team, first_seat) != state:
        raise NotationError("The record's start is not a new match's: no notation carries it.")
    tags: list[tuple[str, str]] = [("Game", GAME), ("Match", str(record.get("id", "?")))]
    config = start["state"]["config"]
    for key, tag in CONFIG_TAGS:
        if key == "edition" and key not in config:
            continue  # a match of the first edition: its notation as it was written
        value = config[key]
        tags.append((tag, value if isinstance(value, str) else write_number(value)))
    tags.append(("Rated", "yes" if record.get("rated") else "no"))
    for p in sorted(record.get("players", []), key=lambda p: int(p["seat"])):
        tags.append((f"Seat{int(p['seat'])}", str(p.get("name", ""))))
    started = record.get("started")
    if isinstance(started, int | float):
        at = datetime.fromtimestamp(started, UTC)
        tags += [("Date", at.strftime("%Y-%m-%d")), ("Time", at.strftime("%H:%M:%SZ"))]
    result = _end_result(log)
    won = (result or {}).get("sets_won", record.get("score", [0, 0]))
    tags += [("Result", _result_token(result)), ("Score", "-".join(str(n) for n in won))]
    if result:
        tags.append(("Termination", str(result.get("reason", "?"))))
    tags += [
        ("FirstTeam", str(first_team)),
        ("FirstSeat", str(first_seat)),
        ("StartHash", start_hash(start["state"])),
    ]
    lines = [*header_lines(tags), ""]
    lines += [entry_line(e, NO_STROKE_KINDS) for e in log[1:] if e.get("kind") != "end"]
    return "\n".join(lines) + "\n"


def _end_result(log: list[dict[str, Any]]) -> dict[str, Any] | None:
    for e in log:
        if e.get("kind") == "end":
            result: dict[str, Any] | None = e.get("result")
            return result
    return None


def _result_token(result: dict[str, Any] | None) -> str:
    if not result:
        return "*"
    winner = result.get("winner")
    return "1-0" if winner == 0 else "0-1" if winner == 1 else "1/2-1/2"


# -- text -> record --------------------------------------------------------------------
def from_notation(text: str) -> dict[str, Any]:
    """Notation text as a match record (summary and log, without rulings) that
    server.replay.verify.replay recomputes. Raises NotationError naming the line at fault."""
    lines = text.splitlines()
    tags, body = read_header(lines, REQUIRED)
    game, at = tags["Game"]
    if game != GAME:  # the notation is Novuss's own (docs/notation.md)
        raise NotationError(f"only Novuss matches have a notation, not {game!r}", at)
    state = _start_state(tags)
    first_team = int(tags["FirstTeam"][0])
    log: list[dict[str, Any]] = [
        {"kind": "start", "first_team": first_team, "state": state.to_dict()}
    ]
    log += read_entries(
        lines, body, NO_STROKE_KINDS, lambda token, n: _seat(token, state, n), "stroke"
    )
    result = _result(tags)
    if result is not None:
        log.append({"kind": "end", "result": result})
    return {
        "id": tags.get("Match", ("?", 0))[0],
        "game": GAME,
        "mode": state.config.mode,
        "sets": state.config.sets,
        "clock": state.config.stroke_clock,
        "rated": tags.get("Rated", ("no", 0))[0] == "yes",
        "players": [
            {"seat": s, "team": team_of(s), "name": tags[f"Seat{s}"][0]}
            for s in state.seats
            if f"Seat{s}" in tags
        ],
        "result": result,
        "log": log,
    }


def _start_state(tags: dict[str, tuple[str, int]]) -> MatchState:
    """The start state the tags describe, checked against StartHash."""
    config: dict[str, Any] = {}
    for key, tag in CONFIG_TAGS:
        if tag in tags:
            value, at = tags[tag]
            config[key] = value if key in ("mode", "three_miss") else read_number(value, at)
    try:
        match_config = MatchConfig.from_dict(config)
    except (ValueError, TypeError) as e:
        raise NotationError(f"the header's settings make no match: {e}", tags["Mode"][1]) from None
    first_team = read_int(tags["FirstTeam"][0], "FirstTeam", tags["FirstTeam"][1])
    first_seat, at = tags["FirstSeat"]
    try:
        state = new_match(match_config, first_team, read_int(first_seat, "FirstSeat", at))
    except ValueError as e:
        raise NotationError(f"the first strike makes no match: {e}", at) from None
    expected, at = tags["StartHash"]
    if start_hash(state.to_dict()) != expected:
        raise NotationError(
            "the header's settings do not rebuild the start state its StartHash names"
            " (another setting, or a rules version that sets the table up otherwise)",
            at,
        )
    return state


def _result(tags: dict[str, tuple[str, int]]) -> dict[str, Any] | None:
    """The match's result as the Result, Score and Termination tags give it (None: "*")."""
    token, at = tags.get("Result", ("*", 0))
    if token == "*":
        return None
    if token not in RESULTS:
        raise NotationError(f"Result is 1-0, 0-1, 1/2-1/2 or *, not {token!r}", at)
    result: dict[str, Any] = {"winner": RESULTS[token]}
    if "Score" in tags:
        score, at = tags["Score"]
        parts = score.split("-")
        if len(parts) != 2:
            raise NotationError(f"Score is sets won by team 0 and 1, like 3-1, not {score!r}", at)
        result["sets_won"] = [read_int(p, "Score", at) for p in parts]
    if "Termination" in tags:
        result["reason"] = tags["Termination"][0]
    return result


def _seat(token: str, state: MatchState, line: int) -> int:
    seat = read_int(token, "a seat", line)
    if seat not in state.seats:
        raise NotationError(f"seat {seat} is not a seat of a {state.config.mode} match", line)
    return seat
