"""The tables of a round: the room of each match, and what became of it.

A table (one match: an individual encounter, or one game of a team encounter) is kept in the
tournament's document as a map (docs/competitions.md, "Storage"): `key` ("round.table" or
"round.table.game"), `round`, `table`, `game` (None for an individual encounter), `a` and `b`
(the entrants), `first` ("a" or "b": the side on team 0, which has the opening stroke, 004
§ 31), `seats` (the account uid of each seat, in seat order), `sets`, `room`, `opened` (when
its players were called) and `outcome` (None until decided; then `sets` [a, b], `forfeit` (the
entrant who lost by absence, or None), `match` (the match id, None for a result by hand),
`by_hand`).

The room is made in this process, its seats held for the players (server/lobby/reserved.py).
Its outcome is read from the match record when the match has ended (its `result`); a room
nobody came to is decided by the 2-minute rule (004 § 22 (3)): after the grace time, a side
none of whose players took their seats in time loses (one who came and left again did come);
when neither side came, both lose.
"""

from __future__ import annotations

import time
from typing import Any

from server.competitions.store import TournamentStore
from server.lobby.lobby import Lobby
from server.lobby.members import Cluster, Stage
from server.lobby.reserved import HELD, competition_room, decided_elsewhere
from server.lobby.room import new_id
from server.lobby.seat import Player
from server.store.redis_store import Store

Table = dict[str, Any]

NO_SHOW_MARGIN = 1.0  # s after the grace: the room's own tick has freed the seats by then


def table_key(rnd: int, table: int, game: int | None) -> str:
    """The key of a table in the document."""
    return f"{rnd}.{table}" if game is None else f"{rnd}.{table}.{game}"


def new_table(
    rnd: int,
    table: int,
    game: int | None,
    a: str,
    b: str,
    a_players: tuple[str, ...],
    b_players: tuple[str, ...],
    opener: str | None,
    sets: int,
) -> Table:
    """A table not opened yet. Seats: the opener's side on team 0 (seats 0 and 2), partners
    opposite (server/lobby/room.py); `opener` None: `a` opens."""
    first = "b" if opener == b else "a"
    one, two = (a_players, b_players) if first == "a" else (b_players, a_players)
    seats = [one[0], two[0]] if len(one) == 1 else [one[0], two[0], one[1], two[1]]
    return {
        "key": table_key(rnd, table, game), "round": rnd, "table": table, "game": game,
        "a": a, "b": b, "first": first, "seats": seats, "sets": sets, "room": None,
        "opened": None, "outcome": None,
    }  # fmt: skip


def by_hand(table: Table, sets_a: int, sets_b: int) -> Table:
    """The table with a result entered by the organiser (a match played at a real table)."""
    outcome = {"sets": [sets_a, sets_b], "forfeit": None, "match": None, "by_hand": True}
    return {**table, "outcome": outcome}


class Tables:
    """Opening the rooms of tables and reading their outcomes (one per process)."""

    def __init__(
        self,
        lobby: Lobby,
        stage: Stage,
        cluster: Cluster,
        store: Store,
        tours: TournamentStore,
        names: dict[str, str],
    ):
        self.lobby = lobby
        self.stage = stage
        self.cluster = cluster
        self.store = store
        self.tours = tours
        self.names = names  # uid -> username, filled by the service
        self.started = time.time()  # this process's start

    async def open(self, tid: str, table: Table, clock: float, now: float) -> Table:
        """Make the table's room in this process, its seats held for the players; the table
        with its room and call time."""
        rid = new_id("r")
        await self.cluster.claim(rid)  # a fresh random id: nobody else holds it
        players = [Player(HELD + uid, self.names.get(uid, "?"), uid) for uid in table["seats"]]
        mode = "singles" if len(players) == 2 else "doubles"
        room = competition_room(self.lobby, rid, tid, mode, table["sets"], clock, players, now)
        await self.stage.flush(room)
        await self.tours.bind_room(rid, tid)
        return {**table, "room": rid, "opened": now}

    async def outcome(self, table: Table, now: float) -> dict[str, Any] | None:
        """What became of an open table: its match's result, or a no-show's loss once the
        grace is over (`forfeit`: "a", "b" or "both"), or None while it is undecided."""
        rid = table["room"]
        loaded = await self.store.load_room(rid)
        mids: list[str] = [] if loaded is None else list(loaded[0].get("matches", []))
        if loaded is None:  # closed: its match (if any) is in its players' archives
            for uid in table["seats"][:2]:
                mids += await self.tours.recent_matches(uid, 10)
        for header in await self.store.match_headers(mids):
            if header is None or header.get("room") != rid:
                continue
            if header.get("ended") and header.get("result"):
                return self._result(table, header)
            return None  # being played
        # the time this process was not running is nobody's: the 2 minutes start again at
        # its start, as the reloaded rooms' graces do (Room.reloaded)
        if now < max(table["opened"], self.started) + self.lobby.grace + NO_SHOW_MARGIN:
            return None
        came = await self.tours.came(rid)
        first = table["first"]
        sides = {first: table["seats"][0::2], ("b" if first == "a" else "a"): table["seats"][1::2]}
        absent = sorted(side for side, uids in sides.items() if not all(u in came for u in uids))
        if not absent:  # everybody came: the match starts when they are back at the table
            return None
        # 004 § 22 (3): a side not at the table two minutes after the call loses
        forfeit = absent[0] if len(absent) == 1 else "both"
        return {"sets": [0, 0], "forfeit": forfeit, "match": None, "by_hand": False}

    async def end_decided(self, table: Table, now: float) -> bool:
        """A table decided outside its room (a result by hand, a withdrawal): if this process
        owns its room, end it there (its players told, the match stopped, the room closed:
        server/lobby/reserved.py, `decided_elsewhere`). True once the room is closed, here or
        already; False while its owner is another process or its discs still move."""
        rid = table["room"]
        room = self.lobby.rooms.get(rid)
        if room is None or room.closed:
            return await self.store.load_room(rid) is None
        out = table["outcome"]
        first = table["first"]
        sets = list(out["sets"]) if first == "a" else list(out["sets"])[::-1]
        forfeit = out.get("forfeit")
        team = None if forfeit is None else "both" if forfeit == "both" else int(forfeit != first)
        outcome = {"sets": sets, "forfeit": team, "withdrawn": bool(out.get("withdrawn"))}
        step = decided_elsewhere(room, outcome, now)
        if step is None:
            return False
        await self.stage.flush(room)
        return True

    @staticmethod
    def _result(table: Table, header: dict[str, Any]) -> dict[str, Any]:
        """The outcome of an ended match, from the sides' teams to the table's a and b. A match
        lost by absence or resignation (004 § 22 (3)) counts as lost in sets: the winner is
        given the sets still needed (004 § 32 (1)), the loser keeps what he had, so far as
        a match of that length can end so."""
        result = header["result"]
        won = list(result.get("sets_won", [0, 0]))
        winner = result.get("winner")
        sets = int(table["sets"])
        if winner in (0, 1) and result.get("reason") != "sets":
            high = sets // 2 + 1
            won[winner] = high
            won[1 - winner] = min(won[1 - winner], sets - high)
        team0, team1 = int(won[0]), int(won[1])
        sets_ab = [team0, team1] if table["first"] == "a" else [team1, team0]
        return {"sets": sets_ab, "forfeit": None, "match": header["id"], "by_hand": False}
