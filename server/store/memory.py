"""Redis's memory against its limit, watched so that the server refuses new sessions and rooms
cleanly before Redis refuses writes.

Redis runs with a `maxmemory` and the `noeviction` policy (the embedded one is started so,
server/store/embedded.py; docker-compose.yml sets the same): evicting would drop match data,
so at the limit Redis refuses writes instead, which would fail commits of live matches. The
server reads Redis's memory once a second and, from `refuse_at` of the limit, refuses what
would add new state (new sessions, new rooms) with `server_full`, leaving the headroom to the
matches already played; it logs a warning from `warn_at`.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

log = logging.getLogger("novuss.memory")

WARN_AT = 0.8


@dataclass(slots=True)
class MemoryWatch:
    """The last reading of Redis's memory, and what follows from it."""

    refuse_at: float = 0.9  # fraction of maxmemory from which new sessions and rooms wait
    used: int = 0
    limit: int = 0  # 0: Redis has no limit (then nothing is refused)
    warned: bool = False

    def update(self, used: int, limit: int) -> None:
        """Take a new reading (bytes used, maxmemory); log once when crossing the warning."""
        self.used, self.limit = used, limit
        high = self.fraction >= WARN_AT
        if high and not self.warned:
            log.warning(
                "Redis memory at %.0f %% of its limit (%d of %d bytes): new sessions and rooms"
                " are refused from %.0f %%",
                100 * self.fraction,
                used,
                limit,
                100 * self.refuse_at,
            )
        self.warned = high

    @property
    def fraction(self) -> float:
        """Used memory as a fraction of the limit (0 without a limit)."""
        return self.used / self.limit if self.limit else 0.0

    @property
    def full(self) -> bool:
        """True when new sessions and rooms must be refused."""
        return self.limit > 0 and self.fraction >= self.refuse_at

    def view(self) -> dict[str, float | int]:
        """What /healthz shows."""
        return {"used": self.used, "limit": self.limit, "fraction": round(self.fraction, 3)}
