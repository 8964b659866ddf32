"""The archive's rows: a finished match as it is kept in PostgreSQL, and read back
(docs/accounts.md, "The archive").

A match is deterministic, so what is kept is what was struck, not what followed:
  start   the log's start entry (the table or board as it was set, the settings, who began),
          shared by every match that started alike (table `starts`, by its hash)
  header  the record without its log (players, settings, result), msgpack
  inputs  msgpack [t0, entries]: t0 the start's time; each stroke 79 bytes (struct STROKE:
          stroke number, seat, its time, the shot's x, y, angle and speed as they were
          struck, the state hash after it, 4 bytes of its ruling's digest); any
          other entry (a pass, a clock run out, a resignation, the end) as a map with its
          ruling's digest in place of the ruling
The rulings, durations and states after each stroke are recomputed on demand by the game's
replay (server/games/*/replay.py), which compares each stroke's recomputed state hash with
the stored one, and each recomputed ruling's digest with the stored digest
(server/games/core/replaying.py `same_ruling`). A stroke that does not fit the packed form
is kept as a map, whole but for its ruling.
"""

from __future__ import annotations

import hashlib
import struct
from typing import Any

import msgpack

from server.games.core.replaying import ruling_digest
from server.store.postgres import Database

STROKE = struct.Struct("<HBddddd32s4s")
_SHOT = ("x", "y", "angle", "speed")
_DROPPED = ("ruling", "duration", "own")  # recomputed by the replay (own: figures, counted)
_STROKE_KEYS = {"kind", "at", "stroke", "seat", "shot", "hash", "ruling_digest", *_DROPPED}


def _pack(data: Any) -> bytes:
    return bytes(msgpack.packb(data, use_bin_type=True))


def _unpack(blob: bytes) -> Any:
    return msgpack.unpackb(blob, raw=False, strict_map_key=False)


def _packed_stroke(entry: dict[str, Any]) -> bytes | None:
    """A stroke in 79 bytes, or None when it does not fit that form exactly."""
    shot, h = entry.get("shot"), entry.get("hash")
    stroke, seat, at = entry.get("stroke"), entry.get("seat"), entry.get("at")
    if set(entry) - _STROKE_KEYS:
        return None
    if not (isinstance(shot, dict) and set(shot) == set(_SHOT)):
        return None
    if not all(isinstance(shot[k], float | int) and not isinstance(shot[k], bool) for k in _SHOT):
        return None
    if not (isinstance(h, str) and len(h) == 64 and h == h.lower()):
        return None
    if not (isinstance(stroke, int) and 0 <= stroke < 1 << 16 and isinstance(seat, int)):
        return None
    if not (0 <= seat < 256 and isinstance(at, float | int) and not isinstance(at, bool)):
        return None
    try:
        digest = bytes.fromhex(h)
    except ValueError:
        return None
    judged = _judged(entry)
    if judged is None:
        return None
    return STROKE.pack(stroke, seat, float(at), *(float(shot[k]) for k in _SHOT), digest, judged)


def _judged(entry: dict[str, Any]) -> bytes | None:
    """The 4 bytes kept of an entry's ruling: its digest (as read back from an archive, or
    made of the ruling), or None."""
    if isinstance(entry.get("ruling"), dict):
        return bytes.fromhex(ruling_digest(entry["ruling"]))
    kept = entry.get("ruling_digest")
    if isinstance(kept, str) and len(kept) == 8:
        try:
            return bytes.fromhex(kept)
        except ValueError:
            return None
    return None


def _stroke_entry(blob: bytes) -> dict[str, Any]:
    stroke, seat, at, x, y, angle, speed, digest, judged = STROKE.unpack(blob)
    return {
        "kind": "stroke", "at": at, "stroke": stroke, "seat": seat,
        "shot": {"x": x, "y": y, "angle": angle, "speed": speed}, "hash": digest.hex(),
        "ruling_digest": judged.hex(),
    }  # fmt: skip


def pack_match(record: dict[str, Any]) -> tuple[bytes, bytes, bytes, bytes]:
    """A finished record (header with its whole log) as its rows: (start id, start entry,
    header, inputs)."""
    log = list(record.get("log") or [])
    start: dict[str, Any] = {}
    if log and log[0].get("kind") == "start":
        start = dict(log.pop(0))
    t0 = float(start.pop("at", record.get("started") or 0.0))
    start_blob = _pack(start)
    start_id = hashlib.sha256(start_blob).digest()[:16]
    items: list[Any] = []
    for entry in log:
        packed = _packed_stroke(entry) if entry.get("kind") == "stroke" else None
        if packed is not None:
            items.append(packed)
        else:
            kept = {k: v for k, v in entry.items() if k not in _DROPPED}
            if "ruling" in entry:
                kept["ruling_digest"] = ruling_digest(entry["ruling"])
            items.append(kept)
    header = {k: v for k, v in record.items() if k != "log"}
    return start_id, start_blob, _pack(header), _pack([t0, items])


def unpack_match(start: bytes, header: bytes, inputs: bytes) -> dict[str, Any]:
    """The record (header and log) from its rows; the log holds what was struck, each stroke
    with its state hash, and no rulings (the replay recomputes them)."""
    record: dict[str, Any] = _unpack(header)
    t0, items = _unpack(inputs)
    first = _unpack(start)
    log: list[dict[str, Any]] = [{"kind": "start", "at": t0, **first}] if first else []
    for item in items:
        log.append(_stroke_entry(item) if isinstance(item, bytes) else item)
    record["log"] = log
    return record


def unpack_header(header: bytes) -> dict[str, Any]:
    """A match's header (the record without its log)."""
    record: dict[str, Any] = _unpack(header)
    return record


class ArchiveReader:
    """The archived matches as the records' readers see them (server/store/redis_store.py
    `Store` asks here for a match that is no longer live)."""

    def __init__(self, db: Database):
        self.db = db

    async def record(self, mid: str) -> dict[str, Any] | None:
        """One archived match, header and log (what was struck), or None."""
        row = await self.db.pool.fetchrow(
            "SELECT s.entry, m.header, m.inputs FROM matches m JOIN starts s ON s.id = m.start"
            " WHERE m.mid = $1",
            mid,
        )
        return None if row is None else unpack_match(row["entry"], row["header"], row["inputs"])

    async def headers(self, mids: list[str]) -> dict[str, dict[str, Any]]:
        """The headers of those of these matches that are archived."""
        if not mids:
            return {}
        rows = await self.db.pool.fetch(
            "SELECT mid, header FROM matches WHERE mid = ANY($1::text[])", mids
        )
        return {r["mid"]: unpack_header(r["header"]) for r in rows}

    async def recent(self, count: int) -> list[dict[str, Any]]:
        """The headers of the newest public archived matches (by start), newest first."""
        rows = await self.db.pool.fetch(
            "SELECT header FROM matches WHERE NOT private ORDER BY started DESC LIMIT $1", count
        )
        return [unpack_header(r["header"]) for r in rows]
