"""The match history: the finished matches' queue in Redis, the archive and everything
derived from it in PostgreSQL (docs/accounts.md, "History"; server/store/migrations/).

Redis (prefix "nv:"), what is live:
  match:{mid}, log:{mid}  a match while it is played and until it is archived
                      (server/store/redis_store.py); deleted once its archive is committed
  finished            stream of finished match ids (field m), written in the same commit as the
                      match's end, read by the archivists' consumer group: a match waits there
                      while PostgreSQL is away, and is archived when it returns

PostgreSQL (tables), what lasts:
  matches, starts     the archive: header and inputs (server/store/archive.py)
  player_matches      each player's matches (an account's uid or a guest's session id, whose
                      list lapses GUEST_DAYS after its last match unless they register), public
                      and private apart (a private one is served to its invite only)
  stats               a player's counters "<kind>:<win|loss|draw|matches|strokes|pocketed|
                      penalties>"
  ratings             (uid, mode) -> mu, sigma, matches, ordinal (the leaderboard's order), and
                      whether it is listed (not once the account is deleted)
  rating_history      (uid, mode) -> time, shown rating, match id (the chart)
  merged_sessions     guest session ids whose matches the account took over

One match's archive is one transaction: the match, each player's index entry, counters,
ratings and rating history, or nothing. It inserts the match first and stops if it was there
(archived twice is one row), and it takes a transaction-scoped advisory lock per rated player,
in order, before reading their ratings: two matches of one player, archived by two processes at
once, move the rating one after the other.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import redis.asyncio as aioredis
from redis.exceptions import ResponseError

from server.store.archive import pack_header, pack_match, unpack_header
from server.store.postgres import Database
from server.store.redis_store import P, _bytes, log_key, match_key

if TYPE_CHECKING:
    from server.store.postgres import Conn

GROUP = "archivist"
# A finished match read by a consumer that has not acknowledged it for this long is claimed by
# another: its process died or hangs. Short, as archiving twice is harmless (the archive's
# transaction inserts the match first and stops if it is there).
CLAIM_IDLE_MS = 10_000
SCAN_EARLIER = 200  # a player's earlier matches looked at for repeats (the newest)
GUEST_DAYS = 7  # a guest's list of matches lasts this long (a guest who registers keeps it)

Skills = dict[str, tuple[float, float, int]]


@dataclass(frozen=True)
class Archived:
    """What archiving one match writes (computed by server/history/summary.py, written in the
    match's transaction).
    Ratings are (mu, sigma, matches, ordinal) in the rating's `mode` (server/ratings/model.py
    `rating_mode`: "singles", "crokinole-7d", ...)."""

    mid: str
    ended: float
    mode: str
    players: dict[str, bool]  # pid -> registered (a guest's index expires)
    counters: dict[str, dict[str, int]]  # uid -> counter -> increment
    ratings: dict[str, tuple[float, float, int, float]]  # uid -> skill after, in `mode`
    shown: dict[str, int]  # uid -> shown rating after this match, in `mode`
    private: bool = False  # indexed apart: a profile does not list it


class HistoryStore:
    """Async access to the history: the queue in Redis, the rest in PostgreSQL."""

    def __init__(self, redis: aioredis.Redis, db: Database):
        self.redis = redis
        self.db = db

    # -- the archivist's queue ------------------------------------------------------
    async def ensure_group(self) -> None:
        """Create the archivist's consumer group (from the stream's start) if there is none."""
        try:
            await self.redis.xgroup_create(P + "finished", GROUP, id="0", mkstream=True)
        except ResponseError as e:
            if "BUSYGROUP" not in str(e):
                raise

    async def next_finished(self, consumer: str, block_ms: int) -> list[tuple[str, str]]:
        """Finished matches for this consumer: first any another consumer left pending for
        CLAIM_IDLE_MS (it died), then new ones; [(stream entry id, match id)]."""
        claimed: Any = await self.redis.xautoclaim(
            P + "finished", GROUP, consumer, min_idle_time=CLAIM_IDLE_MS, count=20
        )
        entries: Any = claimed[1] if claimed else []
        if not entries:
            reply: Any = await self.redis.xreadgroup(
                GROUP, consumer, {P + "finished": ">"}, count=20, block=block_ms
            )
            entries = reply[0][1] if reply else []
        # an entry deleted meanwhile comes back with no fields: nothing to archive
        return [(_bytes(i).decode(), _bytes(f[b"m"]).decode()) for i, f in entries if f]

    async def ack(self, entry: str) -> None:
        """The entry is archived (or cannot be): the group forgets it and the stream drops it."""
        await self.redis.xack(P + "finished", GROUP, entry)
        await self.redis.xdel(P + "finished", entry)

    async def drop_live(self, mid: str) -> None:
        """Delete a match's live keys once its archive is committed (its record is served
        from PostgreSQL from then on)."""
        async with self.redis.pipeline(transaction=False) as pipe:  # one key a command
            pipe.delete(match_key(mid))
            pipe.delete(log_key(mid))
            pipe.zrem(P + "matches", mid)
            await pipe.execute()

    # -- writing one match's archive -----------------------------------------------
    async def archived(self, mid: str) -> bool:
        """Has this match been archived already?"""
        row = await self.db.pool.fetchval("SELECT 1 FROM matches WHERE mid = $1", mid)
        return row is not None

    async def skills(self, uids: list[str], mode: str) -> Skills:
        """The (mu, sigma, matches) of these accounts in a mode (absent: never rated)."""
        if not uids:
            return {}
        rows = await self.db.pool.fetch(
            "SELECT uid, mu, sigma, matches FROM ratings WHERE uid = ANY($1::text[])"
            " AND mode = $2",
            uids, mode,
        )  # fmt: skip
        return {r["uid"]: (r["mu"], r["sigma"], r["matches"]) for r in rows}

    async def archive(
        self,
        record: dict[str, Any],
        rated: list[str],
        mode: str,
        plan: Callable[[Skills, list[dict[str, Any]]], Archived],
        window: float = 0.0,
    ) -> Archived | None:
        """Archive one finished record in one transaction: the match (its header and inputs),
        then what `plan` makes of the `rated` players' skills in `mode` and of their earlier
        matches (`_earlier`), read under their locks. None (and nothing written) if the match
        was archived already."""
        start_id, start, header, inputs = pack_match(record)
        async with self.db.pool.acquire() as conn, conn.transaction():
            await conn.execute(
                "INSERT INTO starts (id, entry) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                start_id, start,
            )  # fmt: skip
            new = await conn.fetchval(
                "INSERT INTO matches (mid, game, started, ended, private, start, header, inputs)"
                " VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (mid) DO NOTHING"
                " RETURNING 1",
                record["id"], str(record.get("game") or "novuss"),
                float(record.get("started") or record.get("ended") or 0.0),
                float(record.get("ended") or 0.0), bool(record.get("private")), start_id,
                header, inputs,
            )  # fmt: skip
            if new is None:
                return None
            for uid in sorted(set(rated)):
                await conn.execute("SELECT pg_advisory_xact_lock(hashtext($1))", uid)
            rows = await conn.fetch(
                "SELECT uid, mu, sigma, matches FROM ratings WHERE uid = ANY($1::text[])"
                " AND mode = $2",
                rated, mode,
            )  # fmt: skip
            earlier = await self._earlier(conn, record, rated, window)
            a = plan({r["uid"]: (r["mu"], r["sigma"], r["matches"]) for r in rows}, earlier)
            await self._write(conn, a)
            return a

    async def _earlier(
        self, conn: Conn, record: dict[str, Any], rated: list[str], window: float
    ) -> list[dict[str, Any]]:
        """The headers of the first rated player's matches, public or private, that ended
        within `window` before this one (the newest SCAN_EARLIER), read under the players'
        locks: the repeats' damping counts them (server/history/summary.py)."""
        if not rated or window <= 0:
            return []
        ended = float(record.get("ended") or 0.0)
        rows = await conn.fetch(
            "SELECT m.header FROM player_matches p JOIN matches m USING (mid)"
            " WHERE p.pid = $1 AND p.ended BETWEEN $2 AND $3 AND p.mid <> $4"
            " ORDER BY p.ended DESC LIMIT $5",
            rated[0], ended - window, ended, record["id"], SCAN_EARLIER,
        )  # fmt: skip
        return [unpack_header(r["header"]) for r in rows]

    async def _write(self, conn: Conn, a: Archived) -> None:
        guest_until = a.ended + GUEST_DAYS * 86400
        await conn.executemany(
            "INSERT INTO player_matches (pid, private, ended, mid, expires)"
            " VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
            [(pid, a.private, a.ended, a.mid, None if reg else guest_until)
             for pid, reg in a.players.items()],
        )  # fmt: skip
        guests = [pid for pid, reg in a.players.items() if not reg]
        if guests:  # a guest's list lasts GUEST_DAYS after their last match
            await conn.execute(
                "UPDATE player_matches SET expires = greatest(expires, $2)"
                " WHERE pid = ANY($1::text[]) AND expires IS NOT NULL",
                guests, guest_until,
            )  # fmt: skip
        counts = [(uid, name, inc) for uid, cs in a.counters.items() for name, inc in cs.items()]
        if counts:
            await conn.executemany(
                "INSERT INTO stats (uid, counter, value) VALUES ($1, $2, $3)"
                " ON CONFLICT (uid, counter) DO UPDATE SET value = stats.value + excluded.value",
                counts,
            )
        if a.ratings:
            await conn.executemany(
                "INSERT INTO ratings (uid, mode, mu, sigma, matches, ordinal)"
                " VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (uid, mode) DO UPDATE SET"
                " mu = excluded.mu, sigma = excluded.sigma, matches = excluded.matches,"
                " ordinal = excluded.ordinal",
                [(uid, a.mode, *r) for uid, r in a.ratings.items()],
            )
        if a.shown:
            await conn.executemany(
                "INSERT INTO rating_history (uid, mode, at, shown, mid)"
                " VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
                [(uid, a.mode, a.ended, shown, a.mid) for uid, shown in a.shown.items()],
            )

    # -- reading --------------------------------------------------------------------
    async def matches_of(
        self, pid: str, start: int, count: int, private: bool = False
    ) -> tuple[int, list[str]]:
        """How many matches a player has, and a page of their ids, newest first (by offset;
        `page_of` goes by key). `private`: of their private matches, which only they are
        shown."""
        now = time.time()
        async with self.db.pool.acquire() as conn:
            total = await conn.fetchval(
                "SELECT count(*) FROM player_matches WHERE pid = $1 AND private = $2"
                " AND (expires IS NULL OR expires > $3)",
                pid, private, now,
            )  # fmt: skip
            rows = await conn.fetch(
                "SELECT mid FROM player_matches WHERE pid = $1 AND private = $2"
                " AND (expires IS NULL OR expires > $3) ORDER BY ended DESC, mid DESC"
                " LIMIT $4 OFFSET $5",
                pid, private, now, count, start,
            )  # fmt: skip
        return int(total), [r["mid"] for r in rows]

    async def page_of(
        self,
        pid: str,
        count: int,
        before: tuple[float, str] | None = None,
        private: bool = False,
    ) -> list[tuple[float, str]]:
        """A page of a player's public (or `private`) matches newest first by key: (ended,
        mid) of those older than `before` (None: the newest)."""
        ended, mid = before if before is not None else (float("inf"), "")
        rows = await self.db.pool.fetch(
            "SELECT ended, mid FROM player_matches WHERE pid = $1 AND private = $6"
            " AND (expires IS NULL OR expires > $2) AND (ended, mid) < ($3, $4)"
            " ORDER BY ended DESC, mid DESC LIMIT $5",
            pid, time.time(), ended, mid if before is not None else "~", count, private,
        )  # fmt: skip
        return [(r["ended"], r["mid"]) for r in rows]

    async def headers(self, mids: list[str]) -> list[dict[str, Any] | None]:
        """The match headers of these ids (None where one is missing)."""
        if not mids:
            return []
        rows = await self.db.pool.fetch(
            "SELECT mid, header FROM matches WHERE mid = ANY($1::text[])", mids
        )
        found = {r["mid"]: unpack_header(r["header"]) for r in rows}
        return [found.get(mid) for mid in mids]

    async def stats(self, uid: str) -> dict[str, int]:
        """A player's counters."""
        rows = await self.db.pool.fetch("SELECT counter, value FROM stats WHERE uid = $1", uid)
        return {r["counter"]: int(r["value"]) for r in rows}

    async def rating_history(self, uid: str, mode: str, last: int) -> list[list[Any]]:
        """The last `last` points of a player's rating in a mode, oldest first. A private
        match's point names no match and says only its day: the chart is public (issue 37
        found private matches' ids and times in it)."""
        rows = await self.db.pool.fetch(
            "SELECT h.at, h.shown, h.mid, m.private FROM rating_history h"
            " JOIN matches m USING (mid) WHERE h.uid = $1 AND h.mode = $2"
            " ORDER BY h.at DESC, h.mid DESC LIMIT $3",
            uid, mode, last,
        )  # fmt: skip
        return [_point(r["at"], r["shown"], r["mid"], r["private"]) for r in reversed(rows)]

    async def leaderboard(self, mode: str, start: int, count: int) -> tuple[int, list[str]]:
        """How many players are rated in a mode, and a page of them, best first."""
        async with self.db.pool.acquire() as conn:
            total = await conn.fetchval(
                "SELECT count(*) FROM ratings WHERE mode = $1 AND listed", mode
            )
            rows = await conn.fetch(
                "SELECT uid FROM ratings WHERE mode = $1 AND listed"
                " ORDER BY ordinal DESC, uid DESC LIMIT $2 OFFSET $3",
                mode, count, start,
            )  # fmt: skip
        return int(total), [r["uid"] for r in rows]

    async def merge_guest(self, sid: str, uid: str) -> None:
        """A guest who registers or logs in keeps the matches of their session (and the
        profile knows which seat was theirs by the session's id), in one transaction."""
        async with self.db.pool.acquire() as conn, conn.transaction():
            await conn.execute(
                "INSERT INTO merged_sessions (uid, sid) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                uid, sid,
            )  # fmt: skip
            await conn.execute(
                "INSERT INTO player_matches (pid, private, ended, mid, expires)"
                " SELECT $2, private, ended, mid, NULL FROM player_matches WHERE pid = $1"
                " ON CONFLICT DO NOTHING",
                sid, uid,
            )  # fmt: skip
            await conn.execute("DELETE FROM player_matches WHERE pid = $1", sid)

    async def sessions_of(self, uid: str) -> set[str]:
        """The guest sessions whose matches an account took over."""
        rows = await self.db.pool.fetch("SELECT sid FROM merged_sessions WHERE uid = $1", uid)
        return {r["sid"] for r in rows}

    async def forget_player(self, uid: str, shown_as: str) -> None:
        """A deleted account leaves the leaderboards, and its archived matches name it
        `shown_as` instead of its name (the matches stay, their other players' too), in one
        transaction."""
        async with self.db.pool.acquire() as conn, conn.transaction():
            await conn.execute("UPDATE ratings SET listed = false WHERE uid = $1", uid)
            rows = await conn.fetch(
                "SELECT m.mid, m.header FROM player_matches p JOIN matches m USING (mid)"
                " WHERE p.pid = $1 FOR UPDATE OF m",
                uid,
            )
            changed = []
            for row in rows:
                header = unpack_header(row["header"])
                for p in header.get("players", []):
                    if p.get("account") == uid:
                        p["name"] = shown_as
                changed.append((row["mid"], pack_header(header)))
            await conn.executemany("UPDATE matches SET header = $2 WHERE mid = $1", changed)


def _point(at: float, shown: int, mid: str, private: bool) -> list[Any]:
    """A rating chart's point: [time, shown rating, match id], or for a private match
    [its day (UTC midnight), shown rating, None]."""
    if private:
        return [at - at % 86400, shown, None]
    return [at, shown, mid]
