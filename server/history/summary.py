"""What archiving one finished match writes, computed from its record (pure: no I/O).

Each player's list gets the match (an account's for good, a guest's for a week); a registered
player's counters move (result by mode, strokes, own pucks pocketed, penalty pucks); a rated
match moves its players' ratings: a draw (004 § 32 (1)) as a draw, a match lost by absence
(004 § 22 (3)) or resignation as a loss, as the result already says.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from server.games.registry import UnknownGame, of_record
from server.history.store import Archived
from server.ratings.model import Skill, rate_ranked

Skills = dict[str, tuple[float, float, int]]  # uid -> (mu, sigma, matches) in the match's mode

# Repeated results between the same accounts stop moving ratings (issue 37: one account won
# 1500 -> 2700 in six matches against a puppet): of the rated matches between the same
# accounts within REPEAT_WINDOW seconds, the first REPEATS_RATED move ratings, the others are
# archived unrated (docs/accounts.md, "Ratings that cannot be farmed").
REPEATS_RATED = 3
REPEAT_WINDOW = 24 * 3600.0


def counter_prefix(record: dict[str, Any]) -> str:
    """The counters' prefix: the mode for Novuss, "<game>-<mode>" for another game."""
    return of_record(record).rating_key(record["mode"], False)


def outcome(result: dict[str, Any] | None, team: int) -> str:
    """win, loss or draw for `team`; "void" when the match has no result."""
    if not result:
        return "void"
    winner = result.get("winner")
    if winner is None:
        return "draw"
    return "win" if winner == team else "loss"


def is_rated(record: dict[str, Any]) -> bool:
    """Does this match move ratings? Rated, of a rated game, every player registered, with a
    result, and played: every side struck at least once."""
    players = record.get("players", [])
    return (
        bool(record.get("rated"))
        and _rated_game(record)
        and bool(players)
        and all(p.get("account") for p in players)
        and len({p["account"] for p in players}) == len(players)  # nobody plays itself
        and bool(record.get("result"))
        and every_side_struck(record)
    )


def every_side_struck(record: dict[str, Any]) -> bool:
    """Did every side strike at least once? A match one side never played (resigned, left or
    timed out before its first stroke) is no contest to rate, as lichess voids a game aborted
    before both sides moved: otherwise a puppet resigning at once is a rating for the asking
    (issue 37). It stays a result (a table of a competition is won so, 004 § 22 (3))."""
    team_of_seat = {p["seat"]: p["team"] for p in record.get("players", [])}
    struck = {
        team_of_seat.get(e.get("seat")) for e in record.get("log", []) if e.get("kind") == "stroke"
    }
    return set(team_of_seat.values()) <= struck


def same_table(record: dict[str, Any], other: dict[str, Any]) -> bool:
    """Is `other` an earlier rated match between the very accounts of `record`, within
    REPEAT_WINDOW before it?"""
    ended, before = record.get("ended") or 0.0, other.get("ended") or 0.0

    def accounts(r: dict[str, Any]) -> list[str]:
        return sorted(str(p.get("account")) for p in r.get("players", []))

    return (
        other.get("id") != record.get("id")
        and bool(other.get("rated"))
        and ended - REPEAT_WINDOW <= before <= ended
        and accounts(other) == accounts(record)
    )


def _rated_game(record: dict[str, Any]) -> bool:
    try:
        return of_record(record).rated
    except UnknownGame:  # a record of a game this server no longer has
        return False


def rating_mode_of(record: dict[str, Any]) -> str:
    """The rating a match moves (server/ratings/model.py `rating_mode`): a Crokinole match of
    more than two sides is one of players each alone (002 7 d)."""
    sides = {p["team"] for p in record.get("players", [])}
    return of_record(record).rating_key(record["mode"], len(sides) > 2)


def ranks_of(record: dict[str, Any], sides: int) -> list[float]:
    """Where each side finished (0 the best, ties equal). Two sides: the winner first, or a
    draw (004 § 32 (1)); a loss by absence or resignation is a loss, as the result says. More
    sides (002 7 d): by the game's points (the record's score), ties sharing a rank, and a side
    that resigned or stayed away last, whatever its points."""
    result = record.get("result") or {}
    if sides == 2:
        winner = result.get("winner")
        return [0.0, 0.0] if winner is None else [0.0 if t == winner else 1.0 for t in range(2)]
    score = list(record.get("score") or [0] * sides)
    quit_seats = {e["seat"] for e in record.get("log", []) if e.get("kind") in ("resign", "absent")}
    quit_teams = {p["team"] for p in record.get("players", []) if p["seat"] in quit_seats}
    key = [(t not in quit_teams, score[t]) for t in range(sides)]
    return [float(sum(other > key[t] for other in key)) for t in range(sides)]


def summarise(
    record: dict[str, Any],
    skills: Skills,
    claimed: dict[str, str] | None = None,
    repeats: int = 0,
) -> Archived:
    """The archive of one finished match (its header and log), given its registered players'
    skills in its mode before it, the guest sessions an account has claimed since (a
    guest who registered: the match goes to the account's list), and how many rated matches
    between the same accounts ended within REPEAT_WINDOW before it (past REPEATS_RATED it
    moves no rating)."""
    prefix = counter_prefix(record)
    by_seat: dict[int, Counter[str]] = {}
    for entry in record.get("log", []):
        ruling = entry.get("ruling") or {}
        if ruling.get("penalty"):
            # 004 § 24 (1), (2): one penalty puck for the faulty stroke, or for the stroke
            # clock run out (§ 24 (1) 18), § 26 (4)), to the player penalised, whether it is
            # placed at once or owed (§ 24 (4)). Not the pucks placed during a stroke: those
            # may be the opponent's debts coming out (§ 24 (5)), counted when incurred.
            by_seat.setdefault(ruling.get("seat", entry.get("seat")), Counter())["penalties"] += 1
        if entry.get("kind") != "stroke":
            continue
        # the striker's side's pucks that stayed in; penalties present (0) for whoever struck
        own = int(entry.get("own", 0))
        by_seat.setdefault(entry["seat"], Counter()).update(strokes=1, pocketed=own, penalties=0)
    players: dict[str, bool] = {}
    counters: dict[str, dict[str, int]] = {}
    for p in record.get("players", []):
        pid = p.get("account") or (claimed or {}).get(p.get("sid", "")) or p.get("sid")
        if not pid:
            continue  # a record from before the history
        players[pid] = p.get("account") is not None or pid != p.get("sid")
        if p.get("account"):
            seat = by_seat.get(p["seat"], Counter())
            counters[pid] = {
                f"{prefix}:matches": 1,
                f"{prefix}:{outcome(record.get('result'), p['team'])}": 1,
                **{f"{prefix}:{k}": v for k, v in seat.items()},
            }
    ratings: dict[str, tuple[float, float, int, float]] = {}
    shown: dict[str, int] = {}
    if is_rated(record) and repeats < REPEATS_RATED:
        sides = max(p["team"] for p in record["players"]) + 1
        teams: list[list[tuple[str, Skill]]] = [[] for _ in range(sides)]
        for p in record["players"]:
            uid = p["account"]
            teams[p["team"]].append((uid, Skill(*skills[uid]) if uid in skills else Skill()))
        after = rate_ranked([[s for _, s in t] for t in teams], ranks_of(record, sides))
        for team, new in zip(teams, after, strict=True):
            for (uid, _), skill in zip(team, new, strict=True):
                ratings[uid] = (skill.mu, skill.sigma, skill.matches, skill.ordinal)
                shown[uid] = skill.shown
    return Archived(
        mid=record["id"],
        ended=float(record.get("ended") or 0.0),
        mode=rating_mode_of(record),
        players=players,
        counters=counters,
        ratings=ratings,
        shown=shown,
        private=bool(record.get("private")),
    )
