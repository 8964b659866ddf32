"""The competitions service: a tournament from creation to its last round (docs/competitions.md).

Its document in PostgreSQL (server/competitions/store.py) holds the organiser, the form, the
entries, the pure table (server/competitions/table/, stored by its `to_dict()`) and the tables of
its rounds (server/competitions/tables.py). Every change is made under the tournament's lock,
from a fresh read, and written back with its version: any process of a cluster may serve any
request, and one killed half-way leaves the document as it was before or after.

A round starts by making the room of each of its tables (the players' seats held for them);
the loop (server/competitions/loop.py), in every process, looks at the open tables of the
tournaments being played about once a second (and at once when a match of one is archived):
an ended match's result, or a no-show after the grace (004 § 22 (3)), is recorded into the
table; when the round is complete the next one starts at once (`auto`), or when the
organiser says so. A table decided outside its room (a result by hand, a withdrawal) is
marked `ending` until the process that owns its room has ended it (its players told and sent
on); the tournament stays in the loop's list till then, even when finished.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable
from typing import Any

from server.competitions import document
from server.competitions.document import (
    Doc,
    Who,
    add_entry,
    ask_entry,
    close_tables_of,
    entrants,
    find_table,
    hand_outcome,
    organiser_only,
    reason_of,
    record_table,
    refuse_unless,
    table_of,
    tables_of,
)
from server.competitions.errors import CompetitionError, bad_request, not_found
from server.competitions.settings import parse_form, settings_of
from server.competitions.store import TournamentStore, VersionConflict
from server.competitions.table import Entrant, Settings, Tournament
from server.competitions.tables import Tables
from server.history.store import HistoryStore
from server.ratings.model import Skill

log = logging.getLogger("novuss.tournaments")


class TournamentService:
    """Tournaments of every process, served by this one."""

    def __init__(
        self,
        tours: TournamentStore,
        tables: Tables,
        uid_of: Callable[[str], Any],
        history: HistoryStore,
    ):
        self.history = history  # the players' ratings
        self.tours = tours
        self.tables = tables
        self.uid_of = uid_of  # username -> uid or None (awaitable)
        self.wake = asyncio.Event()  # a change the loop (server/competitions/loop.py) acts on now

    # -- reading and changing a document --------------------------------------------
    async def read(self, tid: str) -> Doc:
        """A tournament's document, or `no_tournament`."""
        got = await self.tours.read(tid)
        if got is None:
            raise not_found()
        return got[1]

    async def change(self, tid: str, work: Callable[[Doc], Any]) -> Doc:
        """Run `work` (which may be a coroutine function) on a fresh read under the lock and
        write what it left; a refusal it raises writes nothing."""
        async with self.tours.lock(tid):
            got = await self.tours.read(tid)
            if got is None:
                raise not_found()
            version, doc = got
            self._remember_names(doc)  # the held seats' names, in a fresh process too
            done = work(doc)
            if asyncio.iscoroutine(done):
                await done
            self._remember_names(doc)
            try:
                await self.tours.write(tid, version, doc)
            except VersionConflict:  # a writer without the lock (its lock ran out): retry
                raise CompetitionError(
                    "busy", "The tournament changed meanwhile; try again."
                ) from None
        return doc

    def _remember_names(self, doc: Doc) -> None:
        self.tables.names.update(doc["people"])

    # -- the organiser ----------------------------------------------------------------
    async def create(self, who: Who, body: dict[str, Any]) -> Doc:
        """A new tournament, organised by `who` (not open for registration yet)."""
        name, form, _settings = parse_form(body)
        tid = "t" + secrets.token_hex(5)
        now = time.time()
        doc: Doc = {
            "id": tid, "name": name, "organiser": who.uid, "organiser_name": who.name,
            "created": now, "status": "draft", "form": form, "entries": [],
            "people": {who.uid: who.name}, "table": None, "tables": {}, "round": 0,
            "requests": [], "removed": {},
        }  # fmt: skip
        await self.tours.write(tid, 0, doc)
        return doc

    async def open_registration(self, tid: str, who: Who) -> Doc:
        """The organiser opens registration."""

        def work(doc: Doc) -> None:
            organiser_only(doc, who)
            refuse_unless(doc["status"], "draft")
            doc["status"] = "registration"

        return await self.change(tid, work)

    async def _players(self, name: Any, members: Any, most: int) -> list[tuple[str, str]]:
        """An entry's name checked and its players' usernames as (uid, username)."""
        if not isinstance(name, str) or not name.strip() or len(name) > 40:
            raise bad_request("name: 1 to 40 characters.")
        if not isinstance(members, list) or not 1 <= len(members) <= most:
            raise bad_request(f"members: 1 to {most} usernames.")
        uids = []
        for m in members:
            uid = await self.uid_of(m) if isinstance(m, str) else None
            if uid is None:
                raise CompetitionError("no_player", f"No registered player is called {m!r}.", 404)
            uids.append((uid, m))
        return uids

    async def add_entry(self, tid: str, who: Who, name: Any, members: Any) -> Doc:
        """The organiser enters a team or a doubles pair: its name and its players' usernames
        in the order given (boards by rating are the table's, 004 § 29 (2))."""
        uids = await self._players(name, members, 12)

        def work(doc: Doc) -> None:
            organiser_only(doc, who)
            refuse_unless(doc["status"], "draft", "registration")
            add_entry(doc, "e" + secrets.token_hex(3), name.strip(), uids)

        return await self.change(tid, work)

    async def start(self, tid: str, who: Who) -> Doc:
        """Registration closes; the table is drawn and the first round starts."""

        async def work(doc: Doc) -> None:
            organiser_only(doc, who)
            refuse_unless(doc["status"], "registration")
            settings = settings_of(doc["form"])
            entrants = await self._entrants(doc, settings)
            table = Tournament.new(settings, entrants, secrets.randbits(32)).start()
            doc["table"] = table.to_dict()
            doc["status"] = "running"
            doc["requests"] = []  # unanswered, they lapse: nobody enters after the start
            await self._next_round(doc)

        doc = await self.change(tid, work)
        await self.tours.set_live(tid, True)
        return doc

    async def _entrants(self, doc: Doc, settings: Settings) -> list[Entrant]:
        """The entries as the table's entrants, with their players' shown ratings in the kind
        of play (a team event's: singles)."""
        uids = [u for e in doc["entries"] for u in e["members"]]
        mode = "doubles" if settings.kind == "doubles" and not settings.teams else "singles"
        skills = await self.history.skills(uids, mode)
        return entrants(doc, settings, {u: float(Skill(*k).shown) for u, k in skills.items()})

    async def next_round(self, tid: str, who: Who) -> Doc:
        """The organiser starts the next round (the last one complete)."""

        async def work(doc: Doc) -> None:
            organiser_only(doc, who)
            refuse_unless(doc["status"], "running", "paused")
            await self._next_round(doc)

        return await self.change(tid, work)

    async def pause(self, tid: str, who: Who, paused: bool) -> Doc:
        """Pause (no new table opens, nor a new round; matches being played go on) or go
        on."""

        async def work(doc: Doc) -> None:
            organiser_only(doc, who)
            refuse_unless(doc["status"], "paused" if not paused else "running")
            doc["status"] = "paused" if paused else "running"
            if not paused:
                await self.advance(doc)

        return await self.change(tid, work)

    async def registration(
        self, tid: str, who: Who, action: str, entrant: Any, reason: Any = None
    ) -> Doc:
        """The organiser, before the start: `approve` or `refuse` a waiting request, or
        `remove` an entry or a request (`reason` optional, shown to the player). After the
        start an entrant leaves by `withdraw` (004 § 32 (3)), not this."""
        why = reason_of(reason)

        def work(doc: Doc) -> None:
            organiser_only(doc, who)
            refuse_unless(doc["status"], "draft", "registration")
            if action == "approve":
                document.approve(doc, entrant)
            elif action == "refuse":
                document.refuse(doc, entrant, why)
            else:
                document.remove(doc, entrant, why)

        return await self.change(tid, work)

    async def withdraw(self, tid: str, who: Who, entrant: Any) -> Doc:
        """The organiser withdraws an entrant (004 § 32 (3)): the table strikes out or keeps
        his results; his open tables are closed."""

        async def work(doc: Doc) -> None:
            organiser_only(doc, who)
            refuse_unless(doc["status"], "running", "paused")
            doc["table"] = table_of(doc).withdraw(str(entrant)).to_dict()
            close_tables_of(doc, str(entrant))
            await self.advance(doc)

        doc = await self.change(tid, work)
        self.wake.set()
        return doc

    async def enter_result(self, tid: str, who: Who, body: dict[str, Any]) -> Doc:
        """The organiser enters a match's result by hand (played at a real table), marked as
        such: `round`, `a`, `b` (entrant ids), `game` (a team encounter's game), `sets_a`,
        `sets_b`; or `forfeit` (the entrant who did not come). Refused when that pair does
        not meet in that round (`not_paired`), the round is over (`late_result`) or the
        match has its result (`result_twice`)."""
        rnd, a, b, game = body.get("round"), body.get("a"), body.get("b"), body.get("game")
        sets_a, sets_b, forfeit = body.get("sets_a", 0), body.get("sets_b", 0), body.get("forfeit")
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (rnd, sets_a, sets_b)):
            raise bad_request("round, sets_a and sets_b: whole numbers.")
        if game is not None and (not isinstance(game, int) or isinstance(game, bool)):
            raise bad_request("game: the game's number in the encounter.")
        if not isinstance(a, str) or not isinstance(b, str):
            raise bad_request("a, b: the two entrants' ids.")
        if forfeit is not None and not isinstance(forfeit, str):
            raise bad_request("forfeit: one of the two entrants.")

        async def work(doc: Doc) -> None:
            organiser_only(doc, who)
            refuse_unless(doc["status"], "running", "paused")
            t = find_table(doc, rnd, a, b, game)
            entered = hand_outcome(t, a, sets_a, sets_b, forfeit)
            doc["tables"][t["key"]] = entered
            record_table(doc, entered)
            await self.advance(doc)

        doc = await self.change(tid, work)
        self.wake.set()  # its room, if one was open, is ended by the loop at once
        return doc

    # -- the players ------------------------------------------------------------------
    async def join(self, tid: str, who: Who) -> Doc:
        """A registered player enters an individual competition; when its entries need the
        organiser's approval (the form's `approval`), he asks to and waits."""

        def work(doc: Doc) -> None:
            refuse_unless(doc["status"], "registration")
            if doc["form"]["form"] != "individual" or doc["form"]["kind"] != "singles":
                raise CompetitionError("entries_by_organiser", "Teams and pairs are entered"
                                       " with their players' names (enter).")  # fmt: skip
            if doc["form"].get("approval", False):  # forms stored before it: open entry
                ask_entry(doc, who.uid, who.name)
            else:
                add_entry(doc, who.uid, who.name, [(who.uid, who.name)])

        return await self.change(tid, work)

    async def enter_own(self, tid: str, who: Who, name: Any, partners: Any) -> Doc:
        """A player enters his own pair (a doubles competition: one partner, 004 § 31) or
        team (his team-mates, in the order given; boards by rating at the start, 004 § 29
        (2)) during registration. It waits till each named player confirms (`confirm`), or
        the organiser approves it; then it is an entry (with `approval`: once everyone has
        confirmed, it waits for the organiser as a `join` does)."""
        mates = await self._players(name, partners, 11)

        def work(doc: Doc) -> None:
            refuse_unless(doc["status"], "registration")
            form = doc["form"]
            if form["form"] == "individual" and form["kind"] == "singles":
                raise bad_request("A singles player enters alone: join.")
            if form["form"] == "individual" and len(mates) != 1:
                raise bad_request("members: a pair names one partner.")
            players = [(who.uid, who.name), *mates]
            document.propose_entry(doc, "p" + secrets.token_hex(3), name.strip(), players)

        return await self.change(tid, work)

    async def confirm(self, tid: str, who: Who, entrant: Any) -> Doc:
        """A player named in a waiting pair or team confirms it (`enter_own`)."""

        def work(doc: Doc) -> None:
            refuse_unless(doc["status"], "registration")
            approval = bool(doc["form"].get("approval", False))
            document.confirm_entry(doc, who.uid, entrant, approval)

        return await self.change(tid, work)

    async def leave(self, tid: str, who: Who) -> Doc:
        """A player leaves registration (his entry, or his request waiting)."""

        def work(doc: Doc) -> None:
            refuse_unless(doc["status"], "registration")
            document.leave(doc, who.uid)

        return await self.change(tid, work)

    # -- rounds -----------------------------------------------------------------------
    async def _next_round(self, doc: Doc) -> None:
        """Pair the next round and open its tables; or, a Swiss whose next round cannot be
        paired without a rematch, end the competition there (its `unpaired`)."""
        table = table_of(doc).pair_next_round()
        doc["table"] = table.to_dict()
        if table.finished:
            doc["status"] = "finished"
            log.info("tournament %s: ended after round %d, unpairable", doc["id"], table.round)
            return
        doc["round"] = rnd = table.round
        for p in table.pending():  # not the bye, nor a withdrawn entrant's minus
            for t in tables_of(p, table.settings.sets, doc):
                doc["tables"][t["key"]] = t
        await self._open_free(doc)
        log.info("tournament %s: round %d started", doc["id"], rnd)

    async def _open_free(self, doc: Doc) -> None:
        """Open every table of the round whose players are free: a player of a team plays
        his encounter's games one after another (board I's singles, then the doubles), and
        his 2 minutes (004 § 22 (3)) start when his table opens, not before."""
        tables = sorted(doc["tables"].values(), key=lambda t: (t["table"], t["game"] or 0))
        now_playing = {u for t in tables if t["room"] and t["outcome"] is None
                       for u in t["seats"]}  # fmt: skip
        for t in tables:
            if t["round"] != doc["round"] or t["room"] or t["outcome"] is not None:
                continue
            if now_playing.isdisjoint(t["seats"]):
                opened = await self.tables.open(doc["id"], t, doc["form"]["clock"], time.time())
                doc["tables"][t["key"]] = opened
                now_playing.update(t["seats"])

    async def advance(self, doc: Doc) -> None:
        """After a change: the end, or the next round when it may start by itself."""
        table = table_of(doc)
        if table.finished:
            doc["status"] = "finished"
            return
        if table.round_complete and doc["status"] == "running" and doc["form"]["auto"]:
            await self._next_round(doc)
        elif not table.round_complete and doc["status"] == "running":
            await self._open_free(doc)
