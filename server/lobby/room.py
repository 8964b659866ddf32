"""A room: its seats, their presence, its event sequence and its match. Pure logic, no I/O.

Every change appends to `outbox` (messages, sequenced or not) and `log` (match-log entries);
the hub drains them, stores them in one commit, then delivers them. Sequenced events are kept
in a bounded buffer so a client that reconnects gets exactly what it missed.
"""

from __future__ import annotations

import secrets
from collections import deque
from typing import Any, cast

from server import wire
from server.games.core.play import MatchRefused, Out, Settings, Shot, Step, as_struck
from server.games.registry import DEFAULT, game
from server.games.seam import GameMatch, MatchSpec
from server.lobby import room_views
from server.lobby.events import Event, EventBuffer
from server.lobby.seat import Player, Seat

SEATS = {"singles": 2, "doubles": 4}


class LobbyError(Exception):
    """A lobby action refused: a protocol error code and a sentence."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


WAITING_GRACE = 20.0  # seconds an absent player keeps a seat when no match is being played


def new_id(prefix: str) -> str:
    """A short random id for rooms and matches (not a secret: invites and tokens are)."""
    return prefix + secrets.token_hex(5)


class Room:
    """One table: seats, presence, the match, the event sequence.

    Why one class of ~480 lines: every step it takes (a seat taken or left, a player gone or
    back, a ready, a stroke, a tick) changes seats, presence and the match together and emits
    the events of that change in one order, and its checkpoint is all of it at once. What
    stands apart is apart: the event sequence and its bounds (server/lobby/events.py), what
    the room shows (server/lobby/room_views.py), a seat (server/lobby/seat.py), the game's
    match behind the seam.
    """

    def __init__(
        self,
        rid: str,
        mode: str,
        sets: int,
        clock: float,
        private: bool,
        settings: Settings,
        grace: float,
        buffer: int = 256,
        game: str = DEFAULT,
        options: dict[str, Any] | None = None,
        rated: bool = False,
    ):
        self.id = rid
        self.rated = rated  # the result changes the players' ratings: registered players only
        self.game = game
        self.options = dict(options or {})  # a Crokinole room's rule options
        self.mode = mode
        self.sets = sets
        self.clock = clock
        self.private = private
        self.invite = secrets.token_urlsafe(16) if private else None
        self.settings = settings
        self.grace = grace
        # 002 7 d: a Crokinole room of 3 or 4 players each alone names its seats
        self.seats: list[Seat | None] = [None] * int(self.options.get("players") or SEATS[mode])
        self.match: GameMatch | None = None
        self.matches: list[str] = []  # ids of this room's matches, oldest first
        self.rematch: set[int] = set()
        self.struck: set[int] = set()  # the teams that struck in the current match
        self.resigning: int | None = None  # a seat that resigned while the discs moved
        self.buffer = EventBuffer(buffer)
        self.watchers = 0
        self.outbox: list[Out | Event] = []
        self.log: list[tuple[str, dict[str, Any]]] = []
        self.records: list[dict[str, Any]] = []
        self.closed = False
        self.seat_index: dict[str, Room] | None = None  # the lobby's session -> room index

    # -- views -----------------------------------------------------------------------
    @property
    def seq(self) -> int:
        """The `seq` of the room's newest event."""
        return self.buffer.seq

    @property
    def events(self) -> deque[Event]:
        """The events kept for resume, oldest first."""
        return self.buffer.events

    @property
    def status(self) -> str:
        """ "open" before the first match, "playing" during one, "over" after."""
        if self.match is None:
            return "open"
        return "over" if self.match.shown.finished else "playing"

    @property
    def match_on(self) -> bool:
        """A match is on from its start until its result is delivered. The last stroke's
        ruling already finishes the rules' state, but the result is news only when its
        motion has played: until then nobody has seen it, the seats are still ready from
        the start, and a `ready` or a rematch (the computer's, offered as soon as a match
        is over) would start the next match over the last stroke, its result never told."""
        return self.match is not None and self.match.phase != "over"

    def seat_of(self, sid: str) -> int | None:
        """The seat a session holds here, or None."""
        for i, s in enumerate(self.seats):
            if s is not None and s.sid == sid:
                return i
        return None

    def team_of(self, seat: int) -> int:
        """A seat's team: partners sit opposite; each player alone is his own (002 7 d)."""
        return seat if "players" in self.options else seat % 2

    def seated(self) -> list[tuple[int, Seat]]:
        """The occupied seats."""
        return [(i, s) for i, s in enumerate(self.seats) if s is not None]

    def rule_options(self) -> wire.RoomOptions:
        """The room's options as the protocol types them (the ones `create` read)."""
        return cast(wire.RoomOptions, self.options)

    def summary(self) -> wire.RoomSummary:
        """The room as the lobby lists it (server/lobby/room_views.py)."""
        return room_views.summary(self)

    def snapshot(self, seat: int | None, now: float) -> wire.Room:
        """The full `room` message for a player at `seat` (None: a watcher)."""
        return room_views.snapshot(self, seat, now)

    def missed(
        self, since: int, team: int | None, sid: str | None = None
    ) -> list[dict[str, Any]] | None:
        """The events after `since` as `sid` of `team` may see them (EventBuffer.missed)."""
        return self.buffer.missed(since, team, sid)

    # -- emitting --------------------------------------------------------------------
    def emit(self, out: Out) -> None:
        """Queue a message; a sequenced one gets the next seq and is kept for resume."""
        if not out.sequenced:
            self.outbox.append(out)
            return
        self.outbox.append(self.buffer.add(out.kind, out.data, out.audience, out.readers))

    def apply(self, step: Step) -> Step:
        """Queue a match step's messages and log entries; return it for its motion."""
        for out in step.out:
            if out.kind == "result":
                # the next match is every seat's to agree to (ready or rematch), not the
                # first to send `ready`; and each is charged as a room created (net/play.py)
                for _, s in self.seated():
                    s.ready = False
            if out.kind == "result" and self.private and self.invite:  # its record's link
                record = f"{out.data['record']}?invite={self.invite}"  # works with the invite
                out = Out(out.kind, {**out.data, "record": record}, out.sequenced, out.audience)
            self.emit(out)
        if self.match is not None:
            for entry in step.log:
                if entry.get("kind") == "stroke":
                    self.struck.add(self.team_of(entry["seat"]))
            self.log.extend((self.match.id, entry) for entry in step.log)
            if step.log:  # the header's stroke count and result follow the log
                self.records.append(self.record_header())
        return step

    def changed(self, now: float) -> None:
        """Broadcast the whole room after a change of seats, readiness or rematch offers."""
        snap = self.snapshot(None, now)
        del snap["t"], snap["seq"], snap["you"], snap["invite"]
        self.emit(Out("room", dict(snap)))

    def record_header(self) -> dict[str, Any]:
        """The match record's header: players, settings, times, result."""
        return room_views.record_header(self)

    def aborted(self) -> bool:
        """A match against the computer in which its people never struck: nobody played it,
        so it is no record (not listed, archived or rated: its keys are deleted as it ends).
        A flood of these (create or rematch, resign at once) filled Redis (issue 37)."""
        people = {self.team_of(i) for i, s in self.seated() if s.computer is None}
        machine = any(s.computer is not None for _, s in self.seated())
        return machine and not (people & self.struck)

    # -- seats -----------------------------------------------------------------------
    def join(
        self, who: Player | str, name: str, seat: int | None, team: int | None, now: float
    ) -> int:
        """Seat a player (or a guest session by id): at `seat`, or the first free seat of
        `team`, or the first free one. A rated room seats registered players only."""
        chosen = self._take(who, name, seat, team)
        self.rematch.clear()
        self.changed(now)
        return chosen

    def join_together(self, players: list[Player], now: float) -> None:
        """Seat players at seats 0, 1, ... of a fresh room in one change (a challenge's two):
        one `room` broadcast with all of them, none ready; each refused as join refuses."""
        taken = [self._take(p, p.name, i, None) for i, p in enumerate(players)]
        assert taken == list(range(len(players)))
        self.changed(now)

    def _take(self, who: Player | str, name: str, seat: int | None, team: int | None) -> int:
        """The seat `who` takes (join's checks), taken; no event yet."""
        player = who if isinstance(who, Player) else Player(who, name)
        sid = player.sid
        if self.rated and player.account is None:
            raise LobbyError("account_needed", "Rated matches are for registered players.")
        if self.rated and any(s.account == player.account for _, s in self.seated()):
            # two sessions of one account at two seats: it would rate itself (issue 37)
            raise LobbyError(
                "self_play", "Your account has a seat here already: a rated match is between"
                " different players."
            )  # fmt: skip
        if self.seat_of(sid) is not None:
            raise LobbyError("in_room", "You already have a seat here.")
        if self.match_on:
            raise LobbyError("not_now", "The match has started; you can watch it.")
        free = [i for i, s in enumerate(self.seats) if s is None]
        if seat is not None:
            if seat >= len(self.seats):
                raise LobbyError(
                    "bad_field", f"join.seat: this room has seats 0 to {len(self.seats) - 1}."
                )
            if seat not in free:
                raise LobbyError("seat_taken", f"Seat {seat} is taken.")
            chosen = seat
        else:
            options = [i for i in free if team is None or self.team_of(i) == team]
            if not options:
                raise LobbyError(
                    "room_full", "No free seat" + ("" if team is None else " in that team") + "."
                )
            chosen = options[0]
        self._seat_at(chosen, player.seat())
        return chosen

    def seat_ready(self, players: list[Player], now: float) -> Step:
        """Seat a filled quick-match table in seat order, everybody ready, and start the
        match: one `room` broadcast, with the match on."""
        for i, player in enumerate(players):
            self._seat_at(i, player.seat(ready=True))
        return self.start_if_ready(now)

    def leave(self, sid: str, now: float) -> Step:
        """A player leaves: during a live match that resigns it; the seat is freed."""
        seat = self.seat_of(sid)
        if seat is None:
            return Step()
        step = Step()
        if self.match is not None and self.match.phase == "motion":
            raise LobbyError("not_now", "Wait until the discs are at rest to leave.")
        if self.match is not None and self.match.phase == "play":
            step = self.apply(self.match.resign(seat, now))
        self._seat_at(seat, None)
        self.rematch.discard(seat)
        self.changed(now)
        return step

    def set_ready(self, sid: str, ready: bool, now: float) -> Step:
        """Ready (or not); when every seat is filled and ready, the match starts."""
        seat = self._seat(sid)
        if self.match_on:
            raise LobbyError("not_now", "The match has started.")
        taken = self.seats[seat]
        assert taken is not None  # _seat found the session there
        taken.ready = ready
        if not ready:
            self.rematch.discard(seat)  # an offer withdrawn
        self.changed(now)
        return self.start_if_ready(now)

    def start_if_ready(self, now: float) -> Step:
        """Start a match when every seat is filled, ready and present; first strike by lot."""
        if self.match_on:
            return Step()
        if any(s is None or not s.ready or s.away_until is not None for s in self.seats):
            return Step()
        played = game(self.game)
        # the game's own options only: the room's own (practice, a competition's opener) are
        # the platform's, and a game's rules take no option they do not know
        own = {k: v for k, v in self.options.items() if k in played.options}
        spec = MatchSpec(self.mode, len(self.seats), self.sets, self.clock, self.grace, own)
        # 004 § 31 (1) 2), 002 1: the first strike by lot, between the sides (002 7 d: players);
        # a competition's table names its opener (§ 31 (1) 1), (2): server/lobby/reserved.py)
        first_team = self.options.get("opener")
        if first_team is None:
            first_team = secrets.randbelow(self.team_of(len(self.seats) - 1) + 1)
        self.match, step = played.new_match(new_id("m"), spec, first_team, now, self.settings)
        self.matches.append(self.match.id)
        self.rematch.clear()
        self.struck = set()
        self.changed(now)
        return self.apply(step)

    def offer_rematch(self, sid: str, now: float) -> Step:
        """After a match, offer a rematch; when every seat has agreed (offered, or sent
        `ready`), the next match starts."""
        seat = self._seat(sid)
        if self.match is None or self.match_on:
            raise LobbyError("not_now", "A rematch can be offered after a match.")
        self.rematch.add(seat)
        offered = self.seats[seat]
        assert offered is not None  # _seat found the session there
        offered.ready = True  # an offer is this seat's consent, not the others'
        finished = self.match
        step = self.start_if_ready(now)  # when every seat has agreed, by `ready` or offer
        if self.match is finished:  # not started: the offer is news (a start is news itself)
            self.changed(now)
        return step

    def _seat_at(self, i: int, seat: Seat | None) -> None:
        """Fill or free seat i, keeping the lobby's index of who sits where."""
        old = self.seats[i]
        self.seats[i] = seat
        if self.seat_index is None:
            return
        if old is not None and self.seat_index.get(old.sid) is self:
            del self.seat_index[old.sid]
        if seat is not None:
            self.seat_index[seat.sid] = self

    def _seat(self, sid: str) -> int:
        seat = self.seat_of(sid)
        if seat is None:
            raise LobbyError("not_seated", "You have no seat in this room.")
        return seat

    def _match(self) -> GameMatch:
        if self.match is None:
            raise LobbyError("not_now", "The match has not started.")
        return self.match

    # -- presence --------------------------------------------------------------------
    def drop(self, sid: str, now: float) -> Step:
        """A player's connection dropped: the seat is kept for the grace time (004 § 22 (3)),
        or, with no match being played, for a reload's time (WAITING_GRACE): a table nobody
        is at is neither listed nor kept for two minutes."""
        seat = self.seat_of(sid)
        s = self.seats[seat] if seat is not None else None
        if seat is None or s is None or s.away_until is not None:
            return Step()
        grace = self.grace if self.status == "playing" else min(self.grace, WAITING_GRACE)
        s.away_until = now + grace
        people = [p for _, p in self.seated() if p.computer is None]
        if self.status != "playing" and all(p.away_until is not None for p in people):
            # Nobody left at a table with no match: its kept events (up to 128 KiB in Redis)
            # go now, not as it closes, and a return within the grace gets a whole `room` (issue
            # 37: a rematch flood's abandoned rooms held 20 KB of events each meanwhile).
            self.buffer.forget()
        self.emit(Out("gone", dict(wire.Gone(seat=seat, name=s.name, grace=grace))))
        if self.match is None:
            return Step()
        return self.apply(self.match.set_away(seat, True, now))

    def back(self, sid: str, now: float) -> Step:
        """A dropped player is back within the grace time."""
        seat = self.seat_of(sid)
        s = self.seats[seat] if seat is not None else None
        if seat is None or s is None or s.away_until is None:
            return Step()
        s.away_until = None
        self.emit(Out("back", dict(wire.Back(seat=seat, name=s.name))))
        if self.match is None:
            return self.start_if_ready(now)
        return self.apply(self.match.set_away(seat, False, now))

    def tick(self, now: float) -> Step:
        """Time passes: absences run out, the match's clocks run."""
        step = Step()
        for i, s in enumerate(self.seats):
            if s is None or s.away_until is None or now < s.away_until:
                continue
            if self.match is not None and self.match.phase == "play":
                step.extend(self.apply(self.match.absent(i, now)))
            elif self.match is not None and self.match.phase == "motion":
                continue  # judged once the motion is over
            self._seat_at(i, None)  # the seat is lost; after a match the player is just gone
            self.rematch.discard(i)
            self.changed(now)
        if self.match is not None:
            ticked = self.match.tick(now)
            if ticked.out or ticked.log:  # most visits of the clock loop find nothing due
                step.extend(self.apply(ticked))
        return step

    def next_due(self) -> float | None:
        """The earliest time at which tick() may find something due: an absence running
        out or the match's clocks (None: nothing here waits for time alone)."""
        dues = [s.away_until for s in self.seats if s is not None and s.away_until is not None]
        if self.match is not None:
            due = self.match.next_due()
            if due is not None:
                dues.append(due)
        return min(dues, default=None)

    @property
    def listed(self) -> bool:
        """Shown in the lobby: public, and (unless its match is being played) somebody is at
        the table."""
        if self.private or self.closed:
            return False
        present = any(s.away_until is None for _, s in self.seated())
        return present or self.status == "playing"

    @property
    def empty(self) -> bool:
        """Nobody seated: the room closes."""
        return self.seats.count(None) == len(self.seats)

    # -- match actions (the seat checks live here, the turn checks in the match) ------
    def strike(self, sid: str, shot: Shot, now: float) -> Step:
        """A seated player's (or the computer's) strike, played with its numbers rounded to
        float32 (`as_struck`, docs/protocol.md). Where the rounded shot is refused and the
        shot as sent may not be (a placement touching a line or a disc to the last bit), it
        is played as sent: the archive keeps either exactly."""
        seat, match = self._seat(sid), self._match()
        try:
            step = match.strike(seat, as_struck(shot), now)
        except MatchRefused:
            step = match.strike(seat, shot, now)  # refused again, or the exact shot played
        return self.apply(step)

    def aim(self, sid: str, x: float, y: float, angle: float, power: float, now: float) -> Step:
        """A seated player's aim preview."""
        seat = self.seat_of(sid)
        if seat is None or self.match is None:
            return Step()
        return self.apply(self.match.aim(seat, x, y, angle, power, now))

    def pass_turn(self, sid: str, now: float) -> Step:
        """The player to strike passes."""
        return self.apply(self._match().pass_turn(self._seat(sid), now))

    def resign(self, sid: str, now: float) -> Step:
        """A seated player resigns the match for the side; while the discs move, once they
        rest, after the stroke's ruling (against the computer they move every few seconds:
        refused, a resignation was hard to make)."""
        seat, match = self._seat(sid), self._match()
        if match.phase == "motion":
            self.resigning = seat if self.resigning is None else self.resigning
            return Step()
        return self.apply(match.resign(seat, now))

    def finish_motion(self, now: float) -> Step:
        """The play-out ended: the ruling (and perhaps the result) goes out, then a
        resignation made meanwhile, unless the stroke ended the match."""
        if self.match is None:
            return Step()
        played = self.match.finish_motion(now)
        seat, self.resigning = self.resigning, None
        if seat is None or self.match.phase != "play":
            return self.apply(played)
        # the next stroke's clock would start in a match that ends at once (docs/protocol.md:
        # no `clock` once the match is over)
        played.out = [out for out in played.out if out.kind != "clock"]
        step = self.apply(played)
        step.extend(self.apply(self.match.resign(seat, now)))
        return step

    def chat(self, sid: str | None, name: str, text: str, team: bool) -> None:
        """Room chat from anybody in the room, or team chat between doubles partners."""
        seat = self.seat_of(sid) if sid is not None else None
        audience = None
        readers: tuple[str, ...] = ()
        if team:
            if seat is None or self.mode != "doubles":
                raise LobbyError("not_teammate", "Team chat is for doubles partners.")
            audience = seat % 2
            readers = tuple(s.sid for i, s in self.seated() if i % 2 == audience)
        data = wire.ChatLine(seat=seat, name=name, text=text, team=audience)
        self.emit(Out("chat", dict(data), audience=audience, readers=readers))

    # -- checkpoint ------------------------------------------------------------------
    def to_dict(self, now: float) -> dict[str, Any]:
        """Checkpoint data of the whole room."""
        return {
            "id": self.id,
            "game": self.game,
            "options": self.options,
            "mode": self.mode,
            "sets": self.sets,
            "clock": self.clock,
            "private": self.private,
            "rated": self.rated,
            "invite": self.invite,
            "seats": [None if s is None else s.to_dict() for s in self.seats],
            "match": None if self.match is None else self.match.to_dict(now),
            "matches": list(self.matches),
            "rematch": sorted(self.rematch),
            "struck": sorted(self.struck),
            "resigning": self.resigning,
            "seq": self.seq,
        }

    @classmethod
    def from_dict(
        cls, d: dict[str, Any], events: list[Event], settings: Settings, grace: float, buffer: int
    ) -> Room:
        """Inverse of to_dict, with the kept events."""
        name = d.get("game", DEFAULT)
        room = cls(
            d["id"], d["mode"], d["sets"], d["clock"], d["private"], settings, grace, buffer, name,
            d.get("options"), d.get("rated", False),
        )  # fmt: skip
        room.invite = d["invite"]
        room.seats = [None if s is None else Seat.from_dict(s) for s in d["seats"]]
        match = d["match"]
        room.match = None if match is None else game(name).load_match(match, settings)
        room.matches = list(d["matches"])
        room.rematch = set(d["rematch"])
        # a checkpoint from before "struck": any stroke played counts for every side
        struck = d.get("struck")
        if struck is None and room.match is not None and room.match.strokes:
            struck = [room.team_of(i) for i in range(len(room.seats))]
        room.struck = set(struck or ())
        room.resigning = d.get("resigning")
        room.buffer.restore(d["seq"], events)
        return room

    def reloaded(self, now: float) -> Step:
        """After a restart: everybody is away until they reconnect (the grace starts now); a
        motion cut short by the restart is skipped and its ruling delivered."""
        for i, s in self.seated():
            if s.away_until is None:
                self.emit(Out("gone", dict(wire.Gone(seat=i, name=s.name, grace=self.grace))))
            s.away_until = now + self.grace  # the time the server was down is not theirs
            if self.match is not None:
                self.match.away.add(i)
        if self.match is None:
            return Step()
        if self.match.motion is not None:
            return self.finish_motion(now)
        return self.apply(Step(out=self.match.resume_clock(now)))
