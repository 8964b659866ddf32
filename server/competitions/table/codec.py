"""Plain-data forms of the tournament values, for storage and the wire: dicts, lists, strings,
numbers and booleans only, so json and msgpack carry them and a restart loses nothing."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from .model import (
    Entrant,
    GamePairing,
    GameResult,
    GameSpec,
    Pairing,
    Result,
    Scale,
    Settings,
    Withdrawal,
)

Data = dict[str, Any]


def plain(value: object) -> Any:
    """A dataclass value as dicts and lists (tuples become lists)."""
    if hasattr(value, "__dataclass_fields__"):
        return {k: plain(v) for k, v in asdict(value).items()}  # type: ignore[call-overload]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


def _scale(d: Data | None) -> Scale | None:
    return None if d is None else Scale(float(d["win"]), float(d["draw"]), float(d["loss"]))


def settings_from(d: Data) -> Settings:
    """Settings from their plain form."""
    games = tuple(
        GameSpec(g["kind"], tuple(g["boards"]), int(g["sets"]), _scale(g.get("points")))
        for g in d.get("games", ())
    )
    return Settings(
        kind=d["kind"],
        form=d["form"],
        system=d["system"],
        rounds=d.get("rounds"),
        sets=int(d["sets"]),
        points=_scale(d.get("points")),
        tiebreaks=tuple(d.get("tiebreaks", ())),
        games=games,
        play_all_games=bool(d.get("play_all_games", True)),
        byes_count=bool(d.get("byes_count", False)),  # absent from tables stored before it
    )


def entrant_from(d: Data) -> Entrant:
    """An entrant from its plain form."""
    rating = d.get("rating")
    return Entrant(
        str(d["id"]),
        str(d["name"]),
        None if rating is None else float(rating),
        tuple(d.get("members", ())),
    )


def pairing_from(d: Data) -> Pairing:
    """A pairing from its plain form."""
    games = tuple(
        GamePairing(
            int(g["game"]),
            g["kind"],
            tuple(g["a_players"]),
            tuple(g["b_players"]),
            int(g["sets"]),
            g["opener"],
        )
        for g in d.get("games", ())
    )
    return Pairing(int(d["round"]), int(d["table"]), d["a"], d.get("b"), d.get("opener"), games)


def result_from(d: Data) -> Result:
    """A result from its plain form."""
    games = tuple(
        GameResult(int(g["sets_a"]), int(g["sets_b"]), g.get("forfeit")) for g in d.get("games", ())
    )
    return Result(
        round=int(d["round"]),
        a=d["a"],
        b=d["b"],
        sets_a=int(d["sets_a"]),
        sets_b=int(d["sets_b"]),
        by_hand=bool(d.get("by_hand", False)),
        forfeit=d.get("forfeit"),
        games=games,
    )


def withdrawal_from(d: Data) -> Withdrawal:
    """A withdrawal from its plain form."""
    return Withdrawal(d["entrant"], int(d["round"]), int(d["played"]), bool(d["kept"]))
