"""A tournament's document and what is done to it, without I/O: entries, the tables of a
pairing, results into the pure table (server/competitions/table/). The service
(server/competitions/service.py) reads, runs these under the tournament's lock, and writes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from server.competitions.errors import CompetitionError, bad_request, not_organiser
from server.competitions.table import BOTH, Entrant, Result, Settings, Tournament
from server.competitions.table.model import GameResult, Pairing
from server.competitions.table.scoring import check_match_score
from server.competitions.table.teams import order_boards
from server.competitions.tables import Table, by_hand, new_table

Doc = dict[str, Any]
ENTRIES_MAX = 64
REQUESTS_MAX = 64  # entries waiting for the organiser's approval
REASON_MAX = 200


@dataclass(frozen=True)
class Who:
    """A logged-in account acting (the HTTP layer's LoggedIn, as this layer needs it)."""

    uid: str
    name: str


def organiser_only(doc: Doc, who: Who) -> None:
    """`not_organiser` for anybody but the tournament's organiser."""
    if doc["organiser"] != who.uid:
        raise not_organiser()


def refuse_unless(status: str, *allowed: str) -> None:
    """`bad_status` unless the tournament is in one of these states."""
    if status not in allowed:
        raise CompetitionError("bad_status", f"Not possible while the tournament is {status}.")


def table_of(doc: Doc) -> Tournament:
    """The pure table of a started tournament."""
    if doc["table"] is None:
        raise CompetitionError("bad_status", "The tournament has not started.")
    return Tournament.from_dict(doc["table"])


def add_entry(doc: Doc, eid: str, name: str, players: list[tuple[str, str]]) -> None:
    """Enter an entrant of these (uid, username) players; `already_entered`, `full`."""
    taken = {u for e in doc["entries"] for u in e["members"]}
    if any(uid in taken for uid, _ in players):
        raise CompetitionError("already_entered", "A player is entered already.")
    if len(doc["entries"]) >= ENTRIES_MAX:
        raise CompetitionError("full", f"At most {ENTRIES_MAX} entries.")
    doc["entries"].append({"id": eid, "name": name, "members": [u for u, _ in players]})
    doc["people"].update(dict(players))
    for uid, _ in players:  # the organiser's own entry lifts an earlier refusal or removal
        doc.get("removed", {}).pop(uid, None)
    # and answers its players' requests: their own, and the pairs or teams naming them,
    # which can no longer be completed
    entered = {uid for uid, _ in players}
    doc["requests"] = [r for r in doc.get("requests", []) if not entered & set(r["members"])]


def committed(doc: Doc) -> set[str]:
    """The players who gave their word: entered, or waiting in a request they made or
    confirmed. Being named by somebody else commits nobody: a proposal naming a player
    does not hold him, else anybody could keep any eleven players from entering."""
    given = {u for r in doc.get("requests", []) for u in r.get("confirmed", r["members"])}
    return {u for e in doc["entries"] for u in e["members"]} | given


def _unheld(doc: Doc, uid: str) -> None:
    """`uid` gave his word to one waiting entry: the others naming him, which he can no
    longer confirm, are off (as if he had declined them)."""
    doc["requests"] = [
        r
        for r in doc["requests"]
        if uid not in r["members"] or uid in r.get("confirmed", r["members"])
    ]


# -- registration: approval and removal (issue 37) --------------------------------------
# A document stored before these has no `requests` nor `removed`: read with .get().


def ask_entry(doc: Doc, uid: str, name: str) -> None:
    """A player's `join` when entry needs the organiser's approval: a request waits in
    `requests` (not an entrant: not counted, not paired). Refused: `already_entered` (entered
    or waiting already), `refused` (the organiser refused him here), `requests_full`."""
    requests = doc.setdefault("requests", [])
    if uid in committed(doc):
        raise CompetitionError("already_entered", "A player is entered already.")
    if doc.get("removed", {}).get(uid, {}).get("what") == "refused":
        raise CompetitionError("refused", "The organiser has refused your entry.")
    if len(requests) >= REQUESTS_MAX:
        raise CompetitionError("requests_full", f"At most {REQUESTS_MAX} entries wait.")
    requests.append({"id": uid, "name": name, "members": [uid]})
    _unheld(doc, uid)
    doc["people"][uid] = name
    doc.get("removed", {}).pop(uid, None)


def propose_entry(doc: Doc, eid: str, name: str, players: list[tuple[str, str]]) -> None:
    """A player enters his own pair or team (issue 36): `players` (uid, username), he first.
    It waits in `requests` till each player named has confirmed (`confirm_entry`), or the
    organiser approves it. Refused: `already_entered` (a player named twice, or one who is
    entered or has confirmed a waiting entry: `committed`), `refused` (one the organiser
    refused here), `requests_full`."""
    requests = doc.setdefault("requests", [])
    taken = committed(doc)
    if len({uid for uid, _ in players}) < len(players) or any(u in taken for u, _ in players):
        raise CompetitionError("already_entered", "A player is entered already.")
    if any(doc.get("removed", {}).get(u, {}).get("what") == "refused" for u, _ in players):
        raise CompetitionError("refused", "The organiser has refused an entry of this player.")
    if len(requests) >= REQUESTS_MAX:
        raise CompetitionError("requests_full", f"At most {REQUESTS_MAX} entries wait.")
    by = players[0][0]  # who entered it: his word is given
    members = [u for u, _ in players]
    requests.append({"id": eid, "name": name, "members": members, "confirmed": [by]})
    _unheld(doc, by)
    doc["people"].update(dict(players))
    doc.get("removed", {}).pop(by, None)


def confirm_entry(doc: Doc, uid: str, entrant: Any, approval: bool) -> None:
    """A player named in a waiting pair or team confirms it; once all have, it is an entry,
    unless entries need the organiser's approval (then it waits for him, as a `join` does).
    `unknown_entrant` for a waiting entry that does not name him; `already_entered` when he
    has given his word to another (entered, or confirmed another waiting entry)."""
    r = _request(doc, entrant)
    if uid not in r["members"]:
        raise no_entrant()
    if uid not in r.get("confirmed", [r["id"]]) and uid in committed(doc):
        raise CompetitionError("already_entered", "A player is entered already.")
    confirmed = r.setdefault("confirmed", [r["id"]])
    if uid not in confirmed:
        confirmed.append(uid)
        _unheld(doc, uid)
    doc.get("removed", {}).pop(uid, None)
    if not approval and set(confirmed) >= set(r["members"]):
        _enter_request(doc, r)


def _enter_request(doc: Doc, r: Doc) -> None:
    """A waiting entry becomes an entry (`full` at 64): a player's request, or a pair or
    team entered by one of its players."""
    add_entry(doc, r["id"], r["name"], [(u, doc["people"].get(u, "?")) for u in r["members"]])
    doc["requests"] = [q for q in doc["requests"] if q["id"] != r["id"]]


def reason_of(value: Any) -> str:
    """The organiser's optional reason for a removal or a refusal (shown to the player)."""
    if value is None:
        return ""
    if not isinstance(value, str) or len(value) > REASON_MAX:
        raise bad_request(f"reason: text of at most {REASON_MAX} characters.")
    return value.strip()


def _request(doc: Doc, entrant: Any) -> Doc:
    found: list[Doc] = [r for r in doc.get("requests", []) if r["id"] == entrant]
    if not found:
        raise no_entrant()
    return found[0]


def approve(doc: Doc, entrant: Any) -> None:
    """The organiser approves a waiting request: it becomes an entry (`full` at 64)."""
    _enter_request(doc, _request(doc, entrant))  # his approval stands for every player's


def refuse(doc: Doc, entrant: Any, reason: str) -> None:
    """The organiser refuses a waiting request: that account may not ask again here (so a
    stranger cannot keep filling his list); his own `entry` of the player lifts it."""
    r = _request(doc, entrant)
    doc["requests"].remove(r)
    doc.setdefault("removed", {})[r["id"]] = {"what": "refused", "reason": reason}


def remove(doc: Doc, entrant: Any, reason: str) -> None:
    """The organiser takes an entry (or a waiting request) off before the start; its players
    may enter again, unlike a refused one. After the start this is `withdraw`."""
    found = [e for e in doc["entries"] if e["id"] == entrant]
    if found:
        gone = found[0]
        doc["entries"].remove(gone)
    else:
        gone = _request(doc, entrant)
        doc["requests"].remove(gone)
    for uid in gone["members"]:
        doc.setdefault("removed", {})[uid] = {"what": "removed", "reason": reason}


def leave(doc: Doc, uid: str) -> None:
    """A player takes back his entry or his waiting request, or declines a waiting pair or
    team naming him (it is then off for all its players); `not_entered`."""
    entries = [e for e in doc["entries"] if uid not in e["members"]]
    requests = [r for r in doc.get("requests", []) if uid not in r["members"]]
    if len(entries) == len(doc["entries"]) and len(requests) == len(doc.get("requests", [])):
        raise CompetitionError("not_entered", "You are not entered.")
    doc["entries"], doc["requests"] = entries, requests


def no_entrant() -> CompetitionError:
    """No entry nor waiting request has that id."""
    return CompetitionError("unknown_entrant", "No entrant or request has that id.", 404)


def entrants(doc: Doc, settings: Settings, ratings: dict[str, float]) -> list[Entrant]:
    """The entries as the table's entrants, each with its rating (a Swiss table's order at
    the start: highest first, Tournament.start): a player's, or a pair's or team's the mean
    of its rated players'; a team's players on boards I, II ... by rating (004 § 29 (2)),
    the unrated after them in the order entered. `ratings`: uid -> rating (absent: unrated)."""
    out = []
    for e in doc["entries"]:
        known = [ratings[u] for u in e["members"] if u in ratings]
        rating = sum(known) / len(known) if known else None
        entrant = Entrant(e["id"], e["name"], rating, tuple(e["members"]))
        out.append(order_boards(entrant, dict(ratings)) if settings.teams else entrant)
    return out


def find_table(doc: Doc, rnd: Any, a: Any, b: Any, game: Any) -> Table:
    """The table of the current round where `a` and `b` meet (in `game`), still open; else
    `not_paired`, `late_result` or `result_twice`."""
    tables: dict[str, Table] = doc["tables"]
    for t in tables.values():
        if t["round"] == rnd and {t["a"], t["b"]} == {a, b} and t["game"] == game:
            if rnd != doc["round"]:
                raise CompetitionError("late_result", "That round is over.")
            if t["outcome"] is not None:
                raise CompetitionError("result_twice", "That match has its result already.")
            return t
    raise CompetitionError("not_paired", "Those entrants do not meet in that round.")


def tables_of(p: Pairing, sets: int, doc: Doc) -> list[Table]:
    """The tables (matches) of a pairing: none for a bye, one per game of a team encounter."""
    if p.b is None:
        return []  # the bye: scored by the table itself
    if p.games:
        return [new_table(p.round, p.table, g.game, p.a, p.b, g.a_players, g.b_players,
                          g.opener, g.sets) for g in p.games]  # fmt: skip
    members = {e["id"]: tuple(e["members"]) for e in doc["entries"]}
    return [new_table(p.round, p.table, None, p.a, p.b, members[p.a], members[p.b],
                      p.opener, sets)]  # fmt: skip


def record_table(doc: Doc, t: Table) -> None:
    """Record a decided table into the pure table: an individual encounter at once; a
    team encounter once all its games are decided (004 § 29 (7): all are played). Both
    sides absent: lost by both (004 § 22 (3); the table's BOTH)."""
    out = t["outcome"]
    if out.get("withdrawn"):
        return
    if t["game"] is None:
        result = Result(t["round"], t["a"], t["b"], out["sets"][0], out["sets"][1],
                        out["by_hand"], _loser(t, out["forfeit"]))  # fmt: skip
    else:
        games = sorted(
            (g for g in doc["tables"].values()
             if g["round"] == t["round"] and g["table"] == t["table"]),
            key=lambda g: g["game"],
        )  # fmt: skip
        if any(g["outcome"] is None for g in games):
            return
        parts = tuple(
            GameResult(g["outcome"]["sets"][0], g["outcome"]["sets"][1],
                       _loser(t, g["outcome"]["forfeit"]))
            for g in games
        )  # fmt: skip
        sa, sb = sum(g.sets_a for g in parts), sum(g.sets_b for g in parts)
        result = Result(t["round"], t["a"], t["b"], sa, sb,
                        any(g["outcome"]["by_hand"] for g in games), None, parts)  # fmt: skip
    doc["table"] = table_of(doc).record(result).to_dict()


def close_tables_of(doc: Doc, entrant: str) -> None:
    """A withdrawn entrant's open tables are closed: their matches count for nothing (their
    rooms end: `ending`)."""
    for t in doc["tables"].values():
        if t["outcome"] is None and entrant in (t["a"], t["b"]):
            t["outcome"] = {"sets": [0, 0], "forfeit": None, "match": None,
                            "by_hand": False, "withdrawn": entrant}  # fmt: skip
            t["ending"] = bool(t["room"])


def hand_outcome(t: Table, a: Any, sets_a: int, sets_b: int, forfeit: Any) -> Table:
    """The table with the organiser's result (`a` names which side `sets_a` is), checked; its
    room, if it has one (its match may be being played), is to be ended (`ending`: the
    service's loop ends it wherever it lives, its players told and sent on)."""
    sa, sb = (sets_b, sets_a) if t["a"] != a else (sets_a, sets_b)
    if forfeit is not None and forfeit not in (t["a"], t["b"]):
        raise bad_request("forfeit: one of the two entrants.")
    if forfeit is None:
        check_match_score(int(t["sets"]), sa, sb)  # 004 § 32 (1)
        return {**by_hand(t, sa, sb), "ending": bool(t["room"])}
    side = "a" if forfeit == t["a"] else "b"
    outcome = {"sets": [0, 0], "forfeit": side, "match": None, "by_hand": True}
    return {**t, "outcome": outcome, "ending": bool(t["room"])}


def _loser(table: Table, forfeit: str | None) -> str | None:
    """The table's forfeit ("a", "b", "both" or None) as the pure table names it."""
    if forfeit is None:
        return None
    return BOTH if forfeit == "both" else str(table[forfeit])
