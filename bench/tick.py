"""Microseconds per visit of the clock loop to a room: what every playing table costs ten
times a second while nothing happens at it.

    python -m bench.tick [--rooms 500] [--passes 5]

Seats two players at each of --rooms singles tables, starts their matches, and then runs
`Room.tick` over every room as the clock loop does (server/net/runtime.py `tick`), 0.1 s
of wall time apart, timed in CPU seconds of this process, best pass of --passes (the
machine is shared: other processes only ever slow a pass down). A pass is 30 s of the loop,
in which every room also sends its clock repeat every 5 s: the usual mix. The stroke clock
is an hour, so that no clock runs out and judges. Then the same through the deadlines
(server/lobby/deadlines.py), as the server's loop now runs: only the rooms with something
due are visited, each rescheduled after its visit. The last line is machine-readable.
"""

from __future__ import annotations

import argparse
import time

from server.games.core.play import Settings
from server.lobby.lobby import Lobby
from server.lobby.room import Room

TICK = 0.1  # the server's default --tick-seconds
VISITS = 300  # 30 s of the clock loop per pass
STROKE_CLOCK = 3600.0  # never runs out here: the visits find only clock repeats due


def seated_rooms(n: int, settings: Settings) -> list[Room]:
    """n singles rooms, both players ready: their matches are in play, the clocks running."""
    rooms = []
    for i in range(n):
        room = Room(f"r{i}", "singles", 1, STROKE_CLOCK, False, settings, grace=120.0)
        for seat in ("a", "b"):
            room.join(f"{seat}{i}", seat.upper(), None, None, 0.0)
            room.set_ready(f"{seat}{i}", True, 0.0)
        room.outbox.clear()  # the seating's messages: not the clock loop's
        rooms.append(room)
    return rooms


def one_pass(rooms: list[Room], start: float) -> tuple[float, int]:
    """CPU seconds for VISITS visits to every room, and how many messages they made."""
    made = 0
    t0 = time.process_time()
    for k in range(VISITS):
        now = start + k * TICK
        for room in rooms:
            room.tick(now)
            made += len(room.outbox)
            room.outbox.clear()
            room.log.clear()
            room.records.clear()
    return time.process_time() - t0, made


def deadline_pass(lobby: Lobby, start: float) -> tuple[float, int, int]:
    """CPU seconds for VISITS ticks of the loop through the deadlines, the messages made
    and the rooms visited."""
    made = visits = 0
    t0 = time.process_time()
    for k in range(VISITS):
        now = start + k * TICK
        for rid in lobby.deadlines.pop_due(now):
            room = lobby.rooms[rid]
            room.tick(now)
            made += len(room.outbox)
            visits += 1
            room.outbox.clear()
            room.log.clear()
            room.records.clear()
            lobby.schedule(room)
    return time.process_time() - t0, made, visits


def main(argv: list[str] | None = None) -> None:
    """Time the visits and print the figures."""
    ap = argparse.ArgumentParser(prog="python -m bench.tick", description=__doc__.split("\n")[0])
    ap.add_argument("--rooms", type=int, default=500)
    ap.add_argument("--passes", type=int, default=5)
    args = ap.parse_args(argv)
    rooms = seated_rooms(args.rooms, Settings())
    best, made = min(one_pass(rooms, 1.0 + p * VISITS * TICK) for p in range(args.passes))
    per_visit = best / (VISITS * args.rooms) * 1e6
    print(f"{args.rooms} rooms in play, {VISITS} visits each a pass ({VISITS * TICK:.0f} s of "
          f"the clock loop): {made} clock messages made in the best pass")  # fmt: skip
    share = per_visit * args.rooms / TICK / 1e4
    print(f"a visit: {per_visit:.2f} us; at {1 / TICK:.0f} visits a second that is "
          f"{share:.2f} % of a core for {args.rooms} rooms")  # fmt: skip
    lobby = Lobby(Settings(), 120.0)
    for room in seated_rooms(args.rooms, Settings()):
        lobby.add(room)
    heap = min(deadline_pass(lobby, 1.0 + p * VISITS * TICK) for p in range(args.passes))
    every_ms = best / VISITS * 1e3
    heap_ms = heap[0] / VISITS * 1e3
    print(f"a tick of the loop: {every_ms:.3f} ms visiting every room, {heap_ms:.3f} ms through"
          f" the deadlines ({heap[2]} visits in a pass, {heap[1]} clock messages)")  # fmt: skip
    print(
        f"rooms={args.rooms} visit_us={per_visit:.2f} clock_messages={made} "
        f"every_tick_ms={every_ms:.3f} deadline_tick_ms={heap_ms:.3f} "
        f"deadline_clock_messages={heap[1]}",
        flush=True,
    )


if __name__ == "__main__":
    main()
