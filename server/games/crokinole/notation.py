"""Crokinole's notation (docs/notation.md, "Crokinole"): a match as text, header tags then
one line per entry of its log, and back again (pure: no I/O). The shared form (tags, exact
floats, hashes) is server/games/core/notation.py's; what is Crokinole's is the header (the
rules' options of seed 002, the first shooter drawn by lot, 002 1) and its entries: shots
(each with the state hash after it: physics.py `state_hash`), resignations and absences.
"""

from __future__ import annotations

from dataclasses import asdict, fields
from datetime import UTC, datetime
from typing import Any

from server.games.core.notation import (
    NotationError,
    Tags,
    entry_line,
    header_lines,
    read_entries,
    read_header,
    read_int,
    start_hash,
)
from server.games.crokinole.rules import Options, ShotRefused, State, new_game

GAME = "crokinole"  # the `Game` tag and a record's `game` (server/games/crokinole/game.py)
# Options field -> tag, every one written so that the start is rebuilt from the tags alone
OPTION_TAGS = (
    ("players", "Players"),  # 002 1, 7 d
    ("teams", "Teams"),  # four players as two teams of partners (002 1) or alone (7 d)
    ("scoring", "Scoring"),  # 002 4 f or 4 g
    ("target", "Target"),  # 002 4 g
    ("direct_hit", "DirectHit"),  # 002 7 a
    ("line_discs_stay", "LineDiscsStay"),  # 002 7 b
    ("free_order", "FreeOrder"),  # 002 7 c
)
REQUIRED = ("Game", "Players", "First", "StartHash")
FORFEITS = ("resign", "absent")


# -- record -> text --------------------------------------------------------------------
def to_notation(record: dict[str, Any]) -> str:
    """A Crokinole match record as notation text; NotationError for a record the notation
    cannot carry (another game's, a start that is not a new game's, a damaged one)."""
    try:
        return _write(record)
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise NotationError(f"The record is not a well-formed match record ({e!r}).") from None


def _write(record: dict[str, Any]) -> str:
    if record.get("game") != GAME:
        raise NotationError(f"Not a Crokinole record (game {record.get('game')!r}).")
    log = record.get("log") or []
    if not log or log[0].get("kind") != "start":
        raise NotationError("The record's log does not begin with the match's start.")
    start = log[0]
    state = State.from_dict(start["state"])
    first = int(start["first_team"])
    if new_game(state.options, first) != state:
        raise NotationError("The record's start is not a new game's: no notation carries it.")
    tags: list[tuple[str, str]] = [("Game", GAME), ("Match", str(record.get("id", "?")))]
    options = asdict(state.options)
    for key, tag in OPTION_TAGS:
        tags.append((tag, _option_text(options[key])))
    tags.append(("Rated", "yes" if record.get("rated") else "no"))
    for p in sorted(record.get("players", []), key=lambda p: int(p["seat"])):
        tags.append((f"Seat{int(p['seat'])}", str(p.get("name", ""))))
    started = record.get("started")
    if isinstance(started, int | float):
        at = datetime.fromtimestamp(started, UTC)
        tags += [("Date", at.strftime("%Y-%m-%d")), ("Time", at.strftime("%H:%M:%SZ"))]
    end = next((e for e in log if e.get("kind") == "end"), None)
    if end is not None and end.get("result"):
        winner = end["result"].get("winner")
        tags.append(("Result", "tie" if winner is None else str(int(winner))))
        tags.append(("Termination", str(end["result"].get("cause", "?"))))
        if "score" in end:
            tags.append(("Score", "-".join(str(int(v)) for v in end["score"])))
    else:
        tags.append(("Result", "*"))
    tags += [("First", str(first)), ("StartHash", start_hash(start["state"]))]
    lines = [*header_lines(tags), ""]
    lines += [entry_line(e, FORFEITS) for e in log[1:] if e.get("kind") != "end"]
    return "\n".join(lines) + "\n"


def _option_text(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


# -- text -> record --------------------------------------------------------------------
def from_notation(text: str) -> dict[str, Any]:
    """Notation text as a match record (summary and log, without rulings) that the replay
    (server/games/crokinole/replay.py) recomputes. Raises NotationError naming the line."""
    lines = text.splitlines()
    tags, body = read_header(lines, REQUIRED)
    game, at = tags["Game"]
    if game != GAME:
        raise NotationError(f"not a Crokinole match's notation (Game {game!r})", at)
    state, first = _start(tags)
    log: list[dict[str, Any]] = [{"kind": "start", "first_team": first, "state": state.to_dict()}]
    players = state.options.players
    log += read_entries(lines, body, FORFEITS, lambda token, n: _seat(token, players, n), "shot")
    end = _end(tags)
    if end is not None:
        log.append(end)
    seats = range(state.options.players)
    doubles = state.options.doubles()
    return {
        "id": tags.get("Match", ("?", 0))[0],
        "game": GAME,
        "mode": "doubles" if doubles else "singles",
        "rated": tags.get("Rated", ("no", 0))[0] == "yes",
        "players": [
            {"seat": s, "team": s % 2 if doubles else s, "name": tags[f"Seat{s}"][0]}
            for s in seats
            if f"Seat{s}" in tags
        ],
        "result": None if end is None else end["result"],
        "log": log,
    }


def _start(tags: Tags) -> tuple[State, int]:
    """The start state the tags describe, checked against StartHash."""
    chosen: dict[str, Any] = {}
    kinds = {f.name: f.type for f in fields(Options)}
    for key, tag in OPTION_TAGS:
        if tag in tags:
            value, at = tags[tag]
            chosen[key] = _option_value(value, str(kinds[key]), tag, at)
    first = read_int(tags["First"][0], "First", tags["First"][1])
    try:
        state = new_game(Options(**chosen), first)
    except (ShotRefused, TypeError) as e:
        raise NotationError(
            f"the header's options make no game ({e})", tags["Players"][1]
        ) from None
    expected, at = tags["StartHash"]
    if start_hash(state.to_dict()) != expected:
        raise NotationError(
            "the header's options do not rebuild the start state its StartHash names", at
        )
    return state, first


def _option_value(value: str, kind: str, tag: str, at: int) -> Any:
    if kind == "bool":
        if value not in ("yes", "no"):
            raise NotationError(f"{tag} is yes or no, not {value!r}", at)
        return value == "yes"
    if kind == "int":
        return read_int(value, tag, at)
    return value


def _end(tags: Tags) -> dict[str, Any] | None:
    """The `end` entry the Result, Termination and Score tags give (None: "*")."""
    token, at = tags.get("Result", ("*", 0))
    if token == "*":
        return None
    winner = None if token == "tie" else read_int(token, "Result (a side, tie or *)", at)
    result: dict[str, Any] = {"winner": winner}
    if "Termination" in tags:
        result["cause"] = tags["Termination"][0]
    end: dict[str, Any] = {"kind": "end", "result": result}
    if "Score" in tags:
        score, at = tags["Score"]
        end["score"] = [read_int(p, "Score", at) for p in score.split("-")]
    return end


def _seat(token: str, players: int, line: int) -> int:
    seat = read_int(token, "a seat", line)
    if not 0 <= seat < players:
        raise NotationError(f"seat {seat} is not a seat of a game of {players} players", line)
    return seat
