"""Computer matches beside the human ones in the load harness (`bench.load --bots N`): a
client plays a whole match against the computer through the protocol (`computer`), as a
person who chose "Play the computer" does; the server thinks for the other seat in its
worker processes. The player strikes, rematches and is timed as every other player."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bench.load_client import Worker

LEVELS = 5


async def start_computer_match(worker: Worker, i: int, delay: float, level: int) -> None:
    """After `delay`, a player asks to play the computer (singles, long match: it lasts the
    whole run), at `level` (0: every level in turn)."""
    await asyncio.sleep(delay)
    tag = f"w{worker.plan.worker}c{i}"
    player = await worker.open(f"{tag}a", spectator=False)
    player.room_msg = asyncio.get_running_loop().create_future()
    worker.spawn(player)
    level = level or 1 + i % LEVELS
    await player.send("computer", mode="singles", level=level, sets=8, clock=300.0)
    await asyncio.wait_for(player.room_msg, 60)
    worker.count("computer_matches")
    worker.stats.counts["players"] += 1
