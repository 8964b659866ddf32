"""What the pages show of a tournament, and its exports (CSV). Pure: from the stored document.

`view(doc, uid)` is the answer of `GET /api/tournaments/{id}` (docs/competitions.md, "API");
`you` tells the asking account what it may do and, while a match of theirs waits for them,
which room to go to (the page takes them there).
"""

from __future__ import annotations

import csv
import io
from typing import Any

from server.competitions.table import Tournament
from server.competitions.table.model import TIEBREAKS
from server.competitions.table.swiss import sure_rounds

Doc = dict[str, Any]


def _names(doc: Doc) -> dict[str, str]:
    """Entrant id -> name (teams and pairs by their names, players by username)."""
    return {e["id"]: e["name"] for e in doc["entries"]}


def _table(doc: Doc) -> Tournament | None:
    return None if doc["table"] is None else Tournament.from_dict(doc["table"])


def summary(doc: Doc) -> dict[str, Any]:
    """A tournament as the list shows it."""
    form = doc["form"]
    return {
        "id": doc["id"], "name": doc["name"], "status": doc["status"],
        "organiser": doc["organiser_name"], "created": doc["created"],
        "kind": form["kind"], "form": form["form"], "system": form["system"],
        "entries": len(doc["entries"]), "round": doc["round"],
    }  # fmt: skip


def standings_rows(doc: Doc, table: Tournament | None) -> list[dict[str, Any]]:
    """The standings, best first, with the organiser's tie-breaks (named in `tiebreaks`)."""
    if table is None:
        return []
    names = _names(doc)
    return [
        {
            "rank": s.rank,
            "entrant": s.entrant,
            "name": names.get(s.entrant, s.entrant),
            "points": s.points,
            "sets_for": s.sets_for,
            "sets_against": s.sets_against,
            "tiebreaks": list(s.tiebreaks),
            "played": s.played,
            "wins": s.wins,
            "draws": s.draws,
            "losses": s.losses,
        }
        for s in table.standings()
    ]


def crosstable_view(doc: Doc, table: Tournament | None) -> dict[str, Any] | None:
    """The cross-table (round robin: the tournament table of 004 § 32 (2)), in table order."""
    if table is None or table.settings.system != "round_robin":
        return None
    cross = table.crosstable()
    names = _names(doc)
    return {
        "entrants": [{"id": e, "name": names.get(e, e)} for e in cross.entrants],
        "cells": [list(row) for row in cross.cells],
        "points": list(cross.points),
    }


def players_view(doc: Doc, table: Tournament | None) -> list[dict[str, Any]] | None:
    """An individual-team competition's ranking of the players by the points of the games
    they played (004 § 6 (4)); None for other forms."""
    if table is None or table.settings.form != "individual_team":
        return None
    names, people = _names(doc), doc["people"]
    return [
        {
            "rank": p.rank,
            "name": people.get(p.player, "?"),
            "team": names.get(p.team, p.team),
            "points": p.points,
            "games": p.games,
        }
        for p in table.player_standings()
    ]


def rounds_view(doc: Doc, table: Tournament | None) -> list[dict[str, Any]]:
    """Each round's tables (with their room while open, and outcome) and its bye."""
    if table is None:
        return []
    names = _names(doc)
    people = doc["people"]
    out = []
    for n, pairings in enumerate(table.rounds, start=1):
        tables = sorted(
            (t for t in doc["tables"].values() if t["round"] == n),
            key=lambda t: (t["table"], t["game"] or 0),
        )
        shown = [
            {
                "key": t["key"],
                "table": t["table"],
                "game": t["game"],
                "a": t["a"],
                "b": t["b"],
                "a_name": names.get(t["a"]),
                "b_name": names.get(t["b"]),
                "first": t["first"],
                "players": [people.get(u, "?") for u in t["seats"]],
                "room": t["room"],
                "outcome": t["outcome"],
            }
            for t in tables
        ]
        recorded = {(r.a, r.b): r for r in table.results if r.round == n}
        results = [
            {
                "a": r.a,
                "b": r.b,
                "sets": [r.sets_a, r.sets_b],
                "forfeit": r.forfeit,
                "by_hand": r.by_hand,
            }
            for r in recorded.values()
        ]
        byes = [names.get(p.a, p.a) for p in pairings if p.b is None]
        out.append({"round": n, "tables": shown, "results": results, "byes": byes})
    return out


def you(doc: Doc, uid: str | None) -> dict[str, Any]:
    """What the asking account is here: organiser, entered (which entrant), waiting for the
    organiser's approval (`pending`), taken off by him (`removed`: `what` removed or refused,
    and his `reason`), and the room of its match waiting or being played in the current
    round."""
    if uid is None:
        return {"organiser": False, "entrant": None, "room": None, "pending": False,
                "removed": None, "confirm": []}  # fmt: skip
    entrant = next((e["id"] for e in doc["entries"] if uid in e["members"]), None)
    requests = doc.get("requests", [])
    # his own request, or a pair or team he entered or confirmed, waits
    pending = any(uid in r.get("confirmed", r["members"]) for r in requests)
    # pairs or teams naming him that wait for his confirmation (issue 36)
    confirm = [r["id"] for r in requests if uid not in r.get("confirmed", r["members"])
               and uid in r["members"]]  # fmt: skip
    removed = doc.get("removed", {}).get(uid)
    room = None
    if doc["status"] in ("running", "paused"):
        for t in doc["tables"].values():
            live = t["round"] == doc["round"] and t["outcome"] is None and t["room"]
            if live and uid in t["seats"]:  # one at a time (service.py, _open_free)
                room = t["room"]
    return {"organiser": doc["organiser"] == uid, "entrant": entrant, "room": room,
            "pending": pending, "removed": removed, "confirm": confirm}  # fmt: skip


def requests_view(doc: Doc, uid: str | None) -> list[dict[str, Any]]:
    """The requests waiting for approval: all of them to the organiser, a player's own (and
    a pair or team naming him) to him, none to anybody else (who asks to play is the
    organiser's business till he approves). `waiting`: the players yet to confirm a pair or
    team a player entered (issue 36)."""
    people = doc["people"]
    shown = []
    for r in doc.get("requests", []):
        if uid is None or (doc["organiser"] != uid and uid not in r["members"]):
            continue
        confirmed = r.get("confirmed", r["members"])  # a player's own request: his
        members = [people.get(u, "?") for u in r["members"]]
        waiting = [people.get(u, "?") for u in r["members"] if u not in confirmed]
        shown.append({"id": r["id"], "name": r["name"], "members": members, "waiting": waiting})
    return shown


REGULATIONS = "regulations (§ 3)"


def regulations(doc: Doc) -> list[dict[str, Any]]:
    """The readings the rule book leaves to the organiser, each with its source: 004's
    paragraph when the choice is the rule book's own, "regulations (§ 3)" when it is the
    organiser's (docs/tournaments.md, "The organiser's regulations")."""
    form = doc["form"]
    tiebreaks = [t for t in form["tiebreaks"] if t in TIEBREAKS]
    out: list[dict[str, Any]] = [
        {
            "key": "tiebreaks",
            "value": tiebreaks,
            # 004 § 32 (2) ranks by points alone: level entrants share the place.
            "cite": f"004 § 32 (2), {REGULATIONS}" if tiebreaks else "004 § 32 (2)",
        },
        {
            "key": "byes_count",
            "value": bool(form.get("byes_count", False)),
            "cite": f"004 § 32 (3) 2), {REGULATIONS}",
        },
    ]
    if form["system"] == "swiss":
        # 004 never defines the Swiss system: no rematch, so at most n - 1 rounds (n entrants,
        # n with an odd number) is this server's reading, checked when the competition starts.
        out.append({"key": "swiss_rounds", "value": form["rounds"], "cite": REGULATIONS})
    return out


def sure_rounds_of(doc: Doc, table: Tournament | None) -> int | None:
    """A Swiss's rounds sure to be paired with the entrants it has (those not withdrawn), for
    the organiser's warning when it asks more (issue 36); None for a round robin."""
    if doc["form"]["system"] != "swiss":
        return None
    active = len(doc["entries"]) - (0 if table is None else len(table.withdrawn))
    return sure_rounds(active)


def view(doc: Doc, uid: str | None) -> dict[str, Any]:
    """The whole tournament as its page shows it to `uid` (None: a guest)."""
    people = doc["people"]
    table = _table(doc)
    return {
        **summary(doc),
        "settings": doc["form"],
        "tiebreak_names": [t for t in doc["form"]["tiebreaks"] if t in TIEBREAKS],
        "regulations": regulations(doc),
        "total_rounds": None if table is None else table.total_rounds,
        # a Swiss ended early: its next round could not be paired without a rematch
        "unpaired": table is not None and table.unpaired,
        "sure_rounds": sure_rounds_of(doc, table),
        "entries": [
            {
                "id": e["id"],
                "name": e["name"],
                "members": [people.get(u, "?") for u in e["members"]],
                "withdrawn": table is not None and e["id"] in table.withdrawn,
            }
            for e in doc["entries"]
        ],
        "requests": requests_view(doc, uid),
        "rounds": rounds_view(doc, table),
        "standings": standings_rows(doc, table),
        "crosstable": crosstable_view(doc, table),
        "players": players_view(doc, table),
        "you": you(doc, uid),
    }


def standings_csv(doc: Doc) -> str:
    """The standings as CSV: rank, name, points, sets, the tie-breaks by name, games."""
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(["rank", "name", "points", "sets_for", "sets_against",
                *doc["form"]["tiebreaks"], "played", "wins", "draws", "losses"])  # fmt: skip
    for r in standings_rows(doc, _table(doc)):
        w.writerow([r["rank"], _text(r["name"]), _num(r["points"]), r["sets_for"],
                    r["sets_against"], *(_num(v) for v in r["tiebreaks"]), r["played"], r["wins"],
                    r["draws"], r["losses"]])  # fmt: skip
    return out.getvalue()


def crosstable_csv(doc: Doc) -> str:
    """The cross-table as CSV: a row per entrant in table order, a column per opponent (sets
    from the row's side, + / - for a forfeit), and the points."""
    cross = crosstable_view(doc, _table(doc))
    out = io.StringIO()
    w = csv.writer(out)
    if cross is None:
        return ""
    n = len(cross["entrants"])
    w.writerow(["#", "name", *(str(i + 1) for i in range(n)), "points"])
    for i, (e, row) in enumerate(zip(cross["entrants"], cross["cells"], strict=True)):
        w.writerow([i + 1, _text(e["name"]), *row, _num(cross["points"][i])])
    return out.getvalue()


def _text(value: object) -> str:
    """A name as a CSV cell: one beginning `=`, `+`, `-`, `@` (or a tab or return) gets a `'`
    before it, so a spreadsheet shows it rather than runs it as a formula (issue 37: a team's
    name carried `@SUM(1+1)*cmd|' /C calc'!A0` verbatim; OWASP's CSV injection advice)."""
    text = str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def _num(value: float) -> str:
    """A point count as written: 3, not 3.0; 1.5 stays."""
    return f"{value:g}"
