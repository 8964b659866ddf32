"""The organiser's form, checked, as the pure table's Settings (004 § 3, § 6, § 29, § 32).

The body of `POST /api/tournaments` (docs/competitions.md, "API"): `name`; `kind` singles or
doubles; `form` individual, team or individual_team; `system` round_robin or swiss; `rounds`
(Swiss only); `sets` per match; `points` [win, draw, loss] or null for the rule book's scale
(004 § 32 (2)); `tiebreaks` in order (none by default: places shared); `byes_count` (a bye
counts as a round played toward "half the rounds", 004 § 32 (3) 2)); a team event's `games`
[{kind, boards, sets}]; `clock`
(the stroke clock, s); `auto` (true: each round starts as soon as the last one is complete;
false: the organiser starts it); `approval` (a player's entry waits for the organiser's
approval; default false: open entry).
"""

from __future__ import annotations

from typing import Any

from server.competitions.errors import bad_request
from server.competitions.table import Settings
from server.competitions.table.model import TIEBREAKS, GameSpec, Kind, Scale

NAME_MAX = 60
KINDS = ("singles", "doubles")
SETS_MAX = 8
ROUNDS_MAX = 20
CLOCK_RANGE = (5.0, 300.0)


def _int(body: dict[str, Any], name: str, low: int, high: int) -> int:
    value = body.get(name)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise bad_request(f"{name}: a whole number from {low} to {high}.")
    return value


def _choice(body: dict[str, Any], name: str, options: tuple[str, ...], default: str) -> str:
    value = body.get(name, default)
    if value not in options:
        raise bad_request(f"{name}: one of {', '.join(options)}.")
    return str(value)


def _scale(value: Any, name: str) -> Scale | None:
    if value is None:
        return None
    if (
        not isinstance(value, list)
        or len(value) != 3
        or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
    ):
        raise bad_request(f"{name}: [win, draw, loss] points, or null for the rule book's.")
    return Scale(float(value[0]), float(value[1]), float(value[2]))


def _games(value: Any) -> tuple[GameSpec, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not 1 <= len(value) <= 12:
        raise bad_request("games: a list of 1 to 12 games {kind, boards, sets}.")
    out = []
    for g in value:
        if not isinstance(g, dict):
            raise bad_request("games: each game is {kind, boards, sets}.")
        boards = g.get("boards")
        if not isinstance(boards, list) or not all(
            isinstance(b, int) and not isinstance(b, bool) and 1 <= b <= 12 for b in boards
        ):
            raise bad_request("games.boards: board numbers from 1 (board I) to 12.")
        kind: Kind = "doubles" if _choice(g, "kind", KINDS, "singles") == "doubles" else "singles"
        out.append(
            GameSpec(
                kind,
                tuple(boards),
                _int(g, "sets", 1, SETS_MAX),
                _scale(g.get("points"), "games.points"),
            )
        )
    return tuple(out)


def parse_form(body: dict[str, Any]) -> tuple[str, dict[str, Any], Settings]:
    """(name, the form as stored, Settings) of a create request; a wrong field is refused
    (`bad_request` naming it; settings the rule book cannot run: the table's `bad_settings`)."""
    name = body.get("name")
    if not isinstance(name, str) or not name.strip() or len(name) > NAME_MAX:
        raise bad_request(f"name: 1 to {NAME_MAX} characters.")
    system = _choice(body, "system", ("round_robin", "swiss"), "round_robin")
    rounds = _int(body, "rounds", 1, ROUNDS_MAX) if system == "swiss" else None
    # 004 § 32 (2) has no tie-break: by default places are shared (docs/tournaments.md).
    tiebreaks = body.get("tiebreaks", [])
    if not isinstance(tiebreaks, list) or not all(isinstance(t, str) for t in tiebreaks):
        raise bad_request("tiebreaks: a list of tie-break names.")
    if len(set(tiebreaks)) != len(tiebreaks) or any(t not in TIEBREAKS for t in tiebreaks):
        raise bad_request(f"tiebreaks: distinct ones of {', '.join(TIEBREAKS)}, in order.")
    byes_count = body.get("byes_count", False)
    if not isinstance(byes_count, bool):
        raise bad_request("byes_count: true or false (does a bye count as a round played).")
    approval = body.get("approval", False)
    if not isinstance(approval, bool):
        raise bad_request("approval: true or false (does an entry need the organiser's approval).")
    auto = body.get("auto", True)
    if not isinstance(auto, bool):  # "no" was stored as true
        raise bad_request("auto: true or false (does the next round start by itself).")
    clock = body.get("clock", 30)
    if not isinstance(clock, int | float) or isinstance(clock, bool):
        raise bad_request("clock: the stroke clock in seconds.")
    if not CLOCK_RANGE[0] <= clock <= CLOCK_RANGE[1]:
        raise bad_request(f"clock: {CLOCK_RANGE[0]:g} to {CLOCK_RANGE[1]:g} seconds.")
    form = {
        "kind": _choice(body, "kind", ("singles", "doubles"), "singles"),
        "form": _choice(body, "form", ("individual", "team", "individual_team"), "individual"),
        "system": system,
        "rounds": rounds,
        "sets": _int({"sets": body.get("sets", 1)}, "sets", 1, SETS_MAX),
        "points": body.get("points"),
        "tiebreaks": list(tiebreaks),
        "byes_count": byes_count,
        "games": body.get("games"),
        "clock": float(clock),
        "auto": auto,
        "approval": approval,
    }
    return name.strip(), form, settings_of(form)


def settings_of(form: dict[str, Any]) -> Settings:
    """The pure table's Settings of a stored form."""
    return Settings(
        kind=form["kind"],
        form=form["form"],
        system=form["system"],
        rounds=form["rounds"],
        sets=form["sets"],
        points=_scale(form["points"], "points"),
        tiebreaks=tuple(form["tiebreaks"]),
        games=_games(form["games"]),
        byes_count=bool(form.get("byes_count", False)),  # forms stored before it: False
    )
