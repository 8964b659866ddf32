"""Crokinole's replay (server/games/seam.py `Replay`): a match recomputed from its log
(docs/crokinole.md, "Records and replays"): the `start` entry's rules state, then every
`stroke` with its shot, a `resign` or `absent`, and the `end`. Each shot is judged again from
the state the replay has reached, by the same physics and referee as the room
(server/games/crokinole/judge.py `judge_shot`, a round closed when its last disc is shot,
002 2 c and 4), and its state hash (physics.py `state_hash`, the exact bits of every disc
where the shot left it) and its ruling are compared with the stored ones. A record from
before the hash was stored has its rulings compared only (hash_ok None). As for Novuss, a
mismatch is reported and the replay goes on from the recomputed state; an entry the
recomputed match refuses (a shot out of turn or from outside the quadrant, 002 2 a and 5)
is reported and ends the replay.

The viewer's steps are the board after every entry; a shot's motion is simulated again from
the recomputed state before it, as the physics' exact segments, each disc's path ending
exactly where the shot leaves it (`t_end`, `x_end`, `y_end`), so that the resting places a
browser samples hash to the stored state hash. Paths are in the rules' coordinates (the
board's centre at the origin): the motion's `origin` (the centre in the protocol's
coordinates) is added to draw them. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from server.games.core.play import Shot
from server.games.core.replaying import (
    Check,
    Replayed,
    ReplayError,
    UnacceptedShot,
    build_steps,
    plain,
    same_hash,
    same_result,
    same_ruling,
    stroke_step,
)
from server.games.crokinole.judge import close_round, judge_shot, round_over
from server.games.crokinole.lines import Line
from server.games.crokinole.match import OFFSET, result_of, ruling_dict, track
from server.games.crokinole.physics import ShotResult
from server.games.crokinole.rules import ShotRefused, State

FORFEITS = ("resign", "absent")


@dataclass(frozen=True, slots=True)
class Position:
    """The recomputed match between entries: the rules' state, and the side that resigned
    or stayed away (with the cause) once one has."""

    game: State
    forfeit: int | None = None
    cause: str = ""

    @property
    def result(self) -> dict[str, Any] | None:
        return result_of(self.game, self.forfeit, self.cause) if self.game.over else None


def _start(entry: dict[str, Any]) -> Position:
    try:
        return Position(State.from_dict(entry["state"]))
    except (KeyError, TypeError, ValueError) as e:
        raise ReplayError(f"The start entry holds no Crokinole game's state ({e!r}).") from None


def _taken_back(entry: dict[str, Any]) -> State:
    """A practice take-back's game (ruling_ok of its check: whether the replay passed through
    it before a shot, else the record restores a game never played)."""
    try:
        return State.from_dict(entry["state"])
    except (KeyError, TypeError, ValueError) as e:
        raise ReplayError(f"A take-back holds no game's state ({e!r}).") from None


def _words(lines: tuple[Line, ...]) -> list[str]:
    """Lines as the command line prints them: code, arguments, seed 002's paragraph."""
    out = []
    for ln in lines:
        args = " ".join(f"{k}={plain(v)}" for k, v in ln.args.items())
        out.append(f"{ln.code}{' ' + args if args else ''} ({ln.rule})")
    return out


def _shot(
    pos: Position, entry: dict[str, Any]
) -> tuple[Position, dict[str, Any], ShotResult, list[str]]:
    """One stored shot judged again (002 2 a, 3, 4 e, 5, 6, 7 a-b), and the round closed
    when it was the round's last disc (002 2 c, 4 f, 4 g, 7 d). Raises ShotRefused."""
    shot = entry["shot"]
    after, ruling, result = judge_shot(
        pos.game, entry["seat"], shot["x"] - OFFSET, shot["y"] - OFFSET, shot["angle"],
        shot["speed"],
    )  # fmt: skip
    words = _words(ruling.lines)
    if round_over(after):
        after, closed = close_round(after)
        words += _words(closed.lines)
    return replace(pos, game=after), ruling_dict(ruling), result, words


def _result_words(pos: Position) -> str:
    result = pos.result
    if result is None:
        return "the recomputed match is not over"
    winner = result["winner"]
    who = "a tie" if winner is None else f"colour {winner} won"
    score = " to ".join(str(v) for v in pos.game.score)
    return f"Result: {who}, {score} ({result['cause']})"


def replay(record: dict[str, Any]) -> Iterator[Check]:
    """Recompute a Crokinole match entry by entry (see the module's docstring)."""
    log = record.get("log") or []
    if not log or log[0].get("kind") != "start":
        raise ReplayError("The log does not begin with the match's start.")
    pos = _start(log[0])
    ended = False
    passed: list[State] = []  # the games before each shot, for practice take-backs
    for i, entry in enumerate(log[1:], start=1):
        kind = entry.get("kind")
        line = entry.get("line")
        stroke = entry.get("stroke")
        if kind == "takeback":
            restored = _taken_back(entry)
            pos = Position(restored)
            back = ("takeback: back to the game before an earlier shot",)
            yield Check(i, kind, None, None, restored in passed, back, line, pos)
            continue
        if kind == "stroke":
            passed.append(pos.game)
        if kind == "end":
            ended = True
            agrees = same_result(pos.result, entry.get("result"))
            if "score" in entry:
                agrees = agrees and plain(entry["score"]) == list(pos.game.score)
            yield Check(i, kind, None, None, agrees, (_result_words(pos),), line, pos)
            continue
        try:
            if kind == "stroke":
                pos, ruling, result, words = _shot(pos, entry)
                stored = entry.get("hash")
                hash_ok = None if stored is None else same_hash(result.state_hash(), stored)
                same = same_ruling(ruling, entry)
                yield Check(
                    i,
                    kind,
                    stroke,
                    hash_ok,
                    same,
                    tuple(words),
                    line,
                    pos,
                    ruling,
                    {"duration": result.duration, "hash": result.state_hash()},
                )
            elif kind in FORFEITS:
                pos = _forfeit(pos, entry["seat"], kind)
                lost = f"{kind}: seat {entry['seat']}, colour {pos.forfeit} loses the game"
                yield Check(i, kind, None, None, None, (lost,), line, pos)
            else:
                raise ReplayError(f"Entry {i} is of no known kind ({kind!r}).")
        except ShotRefused as e:
            # the record went where the recomputed match cannot follow: said, and the end
            why = f"the recomputed match refuses this entry: {e}"
            yield Check(i, str(kind), stroke, None, False, (why,), line)
            return
    if pos.game.over and not ended:
        why = "the recomputed match is over, and the record does not say so"
        yield Check(len(log), "end", None, None, False, (why, _result_words(pos)), None, pos)


def _forfeit(pos: Position, seat: Any, cause: str) -> Position:
    """A side resigns or stays away past the grace: the game ends for it (the room's rule,
    server/games/crokinole/match.py `_forfeit`)."""
    game = pos.game
    if game.over:
        raise ShotRefused("game_over", "4 f" if game.options.scoring == "tournament" else "4 g")
    if not isinstance(seat, int) or not 0 <= seat < game.options.players:
        raise ShotRefused("seat", "1")
    return Position(replace(game, over=True, turn=()), game.options.side_of(seat), cause)


def table_at(pos: Position) -> dict[str, Any]:
    """The board as the viewer shows it: discs at rest (the protocol's coordinates, each
    with its colour as owner), each seat's colour, the game's score, the round, whose turn
    (one seat, or None; `turns` all who may shoot, 002 7 c), twenties aside and discs left,
    the result once there is one."""
    g = pos.game
    side = g.options.side_of
    return {
        "discs": [
            {"id": d.id, "owner": side(d.seat), "x": d.x + OFFSET, "y": d.y + OFFSET}
            for d in g.discs
        ],
        "sides": [side(s) for s in range(g.options.players)],
        "score": list(g.score),
        "set": g.round_no,
        "turn": g.turn[0] if len(g.turn) == 1 else None,
        "turns": list(g.turn),
        "twenties": list(g.twenties),
        "shots_left": list(g.shots_left),
        "result": pos.result,
    }


def recompute(record: dict[str, Any]) -> Replayed:
    """Every entry of a Crokinole record replayed for the viewer."""
    checks = list(replay(record))  # raises for a record it cannot replay at all

    def before_of(pos: Position, entry: dict[str, Any]) -> tuple[State, int, dict[str, Any]]:
        return pos.game, entry["seat"], entry["shot"]

    return build_steps(record, checks, _start(record["log"][0]), table_at, before_of)


def stroke_motion(replayed: Replayed, stroke: int) -> dict[str, Any]:
    """Shot `stroke`'s motion simulated again from the recomputed state before it."""
    step = stroke_step(replayed, stroke)
    before, seat, shot = replayed.before[stroke]
    _after, _ruling, result = judge_shot(
        before, seat, shot["x"] - OFFSET, shot["y"] - OFFSET, shot["angle"], shot["speed"]
    )
    return {
        "stroke": stroke,
        "seat": seat,
        "shot": dict(shot),
        **track(result, before),
        "hash": result.state_hash(),
        "hash_ok": step["hash_ok"],
    }


def position(replayed: Replayed, index: int) -> tuple[State, int] | None:
    """The rules' state at step `index` and the one seat to shoot (None: over, or several
    colours may shoot at once, 002 7 c)."""
    pos: Position = replayed.at[index]
    if pos.result is not None or pos.forfeit is not None or len(pos.game.turn) != 1:
        return None
    return pos.game, pos.game.turn[0]


def expect(state: State, seat: int, shot: Shot) -> dict[str, Any]:
    """`shot` (the protocol's coordinates) judged as `seat`'s from `state` (002 3-5);
    UnacceptedShot for one the rules refuse (002 5: a placement off the baseline)."""
    try:
        _after, ruling, _result = judge_shot(
            state, seat, shot.x - OFFSET, shot.y - OFFSET, shot.angle, shot.speed
        )
    except ShotRefused as e:
        raise UnacceptedShot(str(e)) from None
    return {"legal": ruling.valid, "ruling": ruling_dict(ruling)}


@dataclass(frozen=True, slots=True)
class CrokinoleReplay:
    """Crokinole's `Replay` (server/games/seam.py) on the tournament board."""

    def checks(self, record: dict[str, Any]) -> Iterator[Check]:
        return replay(record)

    def steps(self, record: dict[str, Any]) -> Replayed:
        return recompute(record)

    def stroke(self, replayed: Replayed, n: int) -> dict[str, Any]:
        return stroke_motion(replayed, n)

    def position(self, replayed: Replayed, index: int) -> tuple[Any, int] | None:
        return position(replayed, index)

    def expect(self, position: Any, seat: int, shot: Shot) -> dict[str, Any]:
        return expect(position, seat, shot)


REPLAY = CrokinoleReplay()
"""The replay the game's `Game` offers."""
