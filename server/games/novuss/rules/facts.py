"""What a stroke did, read from the physics' event log: the kind of stroke, what the
striker touched first, the pucks that left the table (004 § 21, § 24 (1)); and which pucks
are blind for whom (004 § 21 (1), (3), (6))."""

from __future__ import annotations

from collections.abc import Container, Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from server.games.novuss.rules.geometry import (
    OPPOSITE,
    in_circle,
    in_zone,
)
from server.games.novuss.rules.state import MatchState, Puck
from server.games.novuss.sim.result import DISC, OFF, RAIL, ZONE, RawEvent
from server.games.novuss.sim.types import SIDES, Side

SAME_INSTANT = 1e-12
"""Contacts closer in time than this (s) are simultaneous (004 § 24 (1) 2): 'at the same time')."""
MOVED = 1e-6
"""A puck displaced by more than this (mm) has moved (004 § 23 (1) 4))."""


# -- what happened ---------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Facts:
    """The striker's story and the pucks' fates, read from the event log."""

    kind: Literal["direct", "rebound"]
    rebound_rail: str | None  # "opposite" | "side" for a rebound
    rails: tuple[Side, ...]  # the rails the striker touched before its first puck
    first_touch: tuple[int, ...]
    touched: frozenset[int]  # every puck the striker touched
    touch_order: tuple[int, ...]  # the pucks the striker touched, in the order of first touch
    striker_pocketed: bool
    striker_off: bool
    crossed_back: bool  # the striker's hole came back inside its own edge zone
    off: tuple[tuple[int, Side], ...]  # pucks over the rail, in order


def read_events(
    log: Iterable[RawEvent], ids: Sequence[int], own: Side, puck_ids: Container[int]
) -> Facts:
    """The facts of a stroke from the physics' ordered event log as the core made it
    (server.games.novuss.sim.result.RawEvent, each disc by its index in `ids`, the striker
    first), read in one pass without an object an event (robust to any legal log: nothing
    touched, several pucks leaving at once, the striker gone)."""
    # The striker's contacts in order: its pucks (t, id) and its rails (t, side).
    touches: list[tuple[float, int]] = []
    rails_met: list[tuple[float, Side]] = []
    striker_pocketed = striker_off = left_zone = crossed = False
    off: list[tuple[int, Side]] = []
    own_side = SIDES.index(own)
    # The striker is disc 0 of the log; most events are pucks meeting pucks and rails.
    for code, t, a, b, _ in log:
        if code == DISC:
            if a == 0 or b == 0:
                other = ids[b if a == 0 else a]
                if other in puck_ids:
                    touches.append((t, other))
        elif code == ZONE:
            if a == own_side:
                # 004 § 20 (7), § 25 (1) 4): the striker leaves its zone on the way out;
                # its hole coming back entirely inside means the line was crossed going back.
                if not b:
                    left_zone = True
                elif left_zone:
                    crossed = True
        elif code == OFF:
            if a == 0:
                striker_off = True
            else:
                pid = ids[a]
                if pid in puck_ids and all(pid != d for d, _ in off):
                    off.append((pid, SIDES[b]))
        elif a == 0:
            if code == RAIL:
                rails_met.append((t, SIDES[b]))
            else:  # POCKET
                striker_pocketed = True
    order = dict.fromkeys([pid for _, pid in touches])  # each puck once, by first touch
    if not touches:
        first: tuple[int, ...] = ()
        rails = [x for _, x in rails_met]
    else:
        first_t = touches[0][0]
        # A puck touched several times in the same instant (a row pressed together)
        # counts once.
        first = tuple(
            dict.fromkeys([pid for t, pid in touches if abs(t - first_t) <= SAME_INSTANT])
        )
        rails = [x for t, x in rails_met if t < first_t - SAME_INSTANT]
    # 004 § 21 (2): a rebound stroke touches at least one rail before any puck.
    kind: Literal["direct", "rebound"] = "rebound" if rails else "direct"
    rebound_rail = None
    if rails:
        rebound_rail = "opposite" if OPPOSITE[own] in rails else "side"
    return Facts(
        kind=kind,
        rebound_rail=rebound_rail,
        rails=tuple(rails),
        first_touch=first,
        touched=frozenset(order),
        touch_order=tuple(order),
        striker_pocketed=striker_pocketed,
        striker_off=striker_off,
        crossed_back=crossed,
        off=tuple(off),
    )


def blind_for(state: MatchState, side: Side, p: Puck) -> bool:
    """Is puck p blind for a striker at `side`: in the centre circle or in his own edge
    zone, judged by its hole (004 § 21 (1), (3), 000 § 3; doubles § 28 (3): the
    partner's rail zone is not blind)."""
    return in_circle(state.table, p.x, p.y) or in_zone(state.table, side, p.x, p.y)


def blind_for_owner(state: MatchState, p: Puck) -> bool:
    """Is puck p in a blind position for its owner (004 § 21 (6), (7))."""
    return blind_for(state, state.side_of(p.owner), p)
