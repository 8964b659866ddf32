"""The archive's rows: a finished match as it is kept in PostgreSQL, and read back
(docs/accounts.md, "The archive").

A match is deterministic, so what is kept is what was struck, not what followed:
  start   the log's start entry (the table or board as it was set, the settings, who began),
          shared by every match that started alike (table `starts`, by its hash)
  header  the record without its log (players, settings, result): the form's number (a
          byte), then its msgpack deflated with a preset dictionary of what headers say
          (`sealed`; about 90 bytes, not 330)
  inputs  the form's number, then msgpack [t0, last, items], deflated alike: t0 the start's time,
          `last` the whole state hash after the last packed stroke, and the entries in
          order: each run of strokes as one byte string of packed strokes (STROKES below),
          any other entry (a pass, a clock run out, a resignation, the end, a stroke that
          does not fit the packed form) as a map, its ruling replaced by the ruling's digest.
A packed stroke (form 3), 27 bytes as a rule (a shot struck as the server plays it, float32):
  1 byte        its seat (bits 0-2), whether its number follows (bit 3: else it is the one
                after the stroke before), whether its shot is four float64 (bit 4: else four
                float32, which hold it exactly)
  varint        its time: milliseconds after t0, less the stroke before's (zigzag)
  [varint]      its number, when not the one after the stroke before
  16 or 32      the shot's x, y, angle and speed, exactly as struck
  4             the first 4 bytes of the state hash after it (the last stroke's whole: `last`)
  4             the first 4 bytes of the SHA-256 of its ruling
The rulings, durations and states after each stroke are recomputed on demand by the game's
replay (server/games/*/replay.py), which compares each stroke's recomputed state hash with
the stored one, or the start of it that is kept (server/games/core/replaying.py
`same_hash`), and each recomputed ruling's digest with the stored digest (`same_ruling`).

Earlier forms are read as they are (the form's byte tells which):
  form 2  written on 2026-11-27: as form 3, but each packed stroke keeps 8 bytes of its state
          hash (31 bytes a stroke);
  form 1  written until 2026-11-27: the header plain msgpack, the inputs msgpack [t0, entries],
          each stroke 79 bytes (STROKE_V1: number, seat, time, shot as float64, the whole state
          hash, the ruling's digest).
"""

from __future__ import annotations

import hashlib
import math
import struct
import zlib
from typing import Any

import msgpack

from server.games.core.play import nearest_single
from server.games.core.replaying import ruling_digest
from server.store.postgres import Database

FORM = 3  # the form written now (the first byte of the header and inputs)
# bytes of each packed stroke's state hash kept, by form (3: a stroke that went otherwise still
# shows at that stroke, with a chance of 2^-32 that it passes, and in every stroke after it
# and the last state, kept whole; 2 kept 8)
HASH_KEPT_BY_FORM = {2: 8, 3: 4}
STROKE_V1 = struct.Struct("<HBddddd32s4s")
SINGLES = struct.Struct("<4f")  # the shot, each number a float32 that holds it exactly
DOUBLES = struct.Struct("<4d")  # ... one that does not fit a float32
HASH_KEPT = HASH_KEPT_BY_FORM[FORM]
JUDGED = 4  # bytes of each ruling's digest
SEAT_MASK, NUMBERED, WIDE = 0x07, 0x08, 0x10  # the flag byte of a packed stroke
_SHOT = ("x", "y", "angle", "speed")
_DROPPED = ("ruling", "duration", "own")  # recomputed by the replay (own: figures, counted)
_STROKE_KEYS = {"kind", "at", "stroke", "seat", "shot", "hash", "ruling_digest", *_DROPPED}


class ArchiveFormError(ValueError):
    """Stored inputs that are of no known form, or cut short."""


def _pack(data: Any) -> bytes:
    return bytes(msgpack.packb(data, use_bin_type=True))


# What a header and the map entries of the inputs mostly say, deflate's preset dictionary for
# both (forms 2 and 3): a header of 330 bytes is kept in about 90. Theirs for ever: another
# dictionary would be another form.
_WORDS = _pack([
    {"kind": "end", "at": 0.0, "result": {"winner": 0, "cause": "rounds"}, "score": [0, 0]},
    "crokinole", "doubles", "resign", "clock", "pass", "absent", "takeback", "ruling_digest",
    {"id": "", "room": "", "game": "novuss", "mode": "singles", "sets": 1, "clock": 120.0,
     "players": [{"seat": 0, "team": 0, "name": "", "sid": "", "account": ""},
                 {"seat": 1, "team": 1, "name": "", "sid": "", "account": ""}],
     "rated": True, "started": 0.0, "ended": 0.0, "strokes": 0, "score": [1, 0],
     "result": {"winner": 0, "sets_won": [1, 0], "reason": "sets", "rule": "004 § 27 (3)"},
     "private": False},
])  # fmt: skip


def sealed(data: Any, form: int = FORM) -> bytes:
    """Data as forms 2 and 3 keep it: the form's byte, then its msgpack deflated (raw, with
    _WORDS as the preset dictionary)."""
    z = zlib.compressobj(9, zlib.DEFLATED, -15, 9, zlib.Z_DEFAULT_STRATEGY, zdict=_WORDS)
    return bytes([form]) + z.compress(_pack(data)) + z.flush()


def opened(blob: bytes) -> Any:
    """What `sealed` kept (ArchiveFormError if it is not of form 2 or 3, or broken)."""
    if blob[:1] not in _SEALED:
        raise ArchiveFormError(f"not of form 2 or 3 ({blob[:1].hex()})")
    try:
        z = zlib.decompressobj(-15, zdict=_WORDS)
        return _unpack(z.decompress(blob[1:]) + z.flush())
    except (zlib.error, ValueError) as e:
        raise ArchiveFormError(f"archived data that does not open: {e}") from None


_SEALED = {bytes([form]) for form in HASH_KEPT_BY_FORM}


def _unpack(blob: bytes) -> Any:
    return msgpack.unpackb(blob, raw=False, strict_map_key=False)


def _varint(n: int) -> bytes:
    """An unsigned integer in 7-bit groups, the lowest first (LEB128)."""
    out = bytearray()
    while n >= 0x80:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def _read_varint(blob: bytes, at: int) -> tuple[int, int]:
    """The unsigned integer at `at`, and where what follows it begins."""
    n = shift = 0
    while True:
        if at >= len(blob) or shift > 63:
            raise ArchiveFormError("a packed stroke is cut short")
        byte = blob[at]
        n |= (byte & 0x7F) << shift
        at, shift = at + 1, shift + 7
        if byte < 0x80:
            return n, at


def _zigzag(n: int) -> int:
    return n * 2 if n >= 0 else -n * 2 - 1


def _unzigzag(n: int) -> int:
    return n // 2 if n % 2 == 0 else -(n + 1) // 2


def _number(value: Any) -> bool:
    return isinstance(value, float | int) and not isinstance(value, bool) and math.isfinite(value)


def _judged(entry: dict[str, Any]) -> bytes | None:
    """The 4 bytes kept of an entry's ruling: its digest (as read back from an archive, or
    made of the ruling), or None."""
    if isinstance(entry.get("ruling"), dict):
        return bytes.fromhex(ruling_digest(entry["ruling"]))
    kept = entry.get("ruling_digest")
    if isinstance(kept, str) and len(kept) == 2 * JUDGED:
        try:
            return bytes.fromhex(kept)
        except ValueError:
            return None
    return None


class _Packer:
    """The entries of one log packed in order: what a packed stroke leaves out (its number,
    most of its time) is what the strokes before it say."""

    def __init__(self, t0: float, kept: int):
        self.t0 = t0
        self.kept = kept  # bytes of each state hash kept (HASH_KEPT_BY_FORM)
        self.stroke = 0  # the number of the last stroke so far
        self.ms = 0  # the time of the last packed stroke, ms after t0
        self.last: bytes | None = None  # the whole state hash after the last packed stroke

    def stroke_bytes(self, entry: dict[str, Any]) -> bytes | None:
        """A stroke packed, or None when it does not fit the packed form exactly."""
        shot, h, stroke = entry.get("shot"), entry.get("hash"), entry.get("stroke")
        seat, at = entry.get("seat"), entry.get("at")
        if set(entry) - _STROKE_KEYS or not (isinstance(shot, dict) and set(shot) == set(_SHOT)):
            return None
        numbers = [shot[k] for k in _SHOT]
        if not (all(_number(v) for v in numbers) and _number(at)):
            return None
        if not (isinstance(stroke, int) and not isinstance(stroke, bool) and stroke >= 0):
            return None
        if not (isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat <= SEAT_MASK):
            return None
        if not (isinstance(h, str) and len(h) == 64 and h == h.lower()):
            return None
        try:
            digest = bytes.fromhex(h)
        except ValueError:
            return None
        judged = _judged(entry)
        if judged is None:
            return None
        ms = round((float(entry["at"]) - self.t0) * 1000)
        flags = seat
        extra = b""
        if stroke != self.stroke + 1:
            flags |= NUMBERED
            extra = _varint(stroke)
        values = [float(v) for v in numbers]
        if all(nearest_single(v) == v for v in values):  # as the server strikes (as_struck)
            shot_bytes = SINGLES.pack(*values)
        else:
            flags |= WIDE
            shot_bytes = DOUBLES.pack(*values)
        out = bytes([flags]) + _varint(_zigzag(ms - self.ms)) + extra + shot_bytes
        self.stroke, self.ms, self.last = stroke, ms, digest
        return out + digest[: self.kept] + judged

    def seen(self, entry: dict[str, Any]) -> None:
        """An entry kept as a map: a stroke's number is the one the next follows."""
        if entry.get("kind") == "stroke" and isinstance(entry.get("stroke"), int):
            self.stroke = int(entry["stroke"])


class _Reader:
    """The packed strokes read back in order (the inverse of _Packer)."""

    def __init__(self, t0: float, kept: int):
        self.t0 = t0
        self.kept = kept
        self.stroke = 0
        self.ms = 0

    def strokes(self, run: bytes) -> list[dict[str, Any]]:
        out = []
        at = 0
        try:
            while at < len(run):
                flags = run[at]
                delta, at = _read_varint(run, at + 1)
                self.ms += _unzigzag(delta)
                self.stroke += 1
                if flags & NUMBERED:
                    self.stroke, at = _read_varint(run, at)
                form = DOUBLES if flags & WIDE else SINGLES
                shot = form.unpack_from(run, at)
                at += form.size
                h, judged = run[at : at + self.kept], run[at + self.kept : at + self.kept + JUDGED]
                at += self.kept + JUDGED
                if len(judged) != JUDGED:
                    raise ArchiveFormError("a packed stroke is cut short")
                out.append({
                    "kind": "stroke", "at": self.t0 + self.ms / 1000, "stroke": self.stroke,
                    "seat": flags & SEAT_MASK, "shot": dict(zip(_SHOT, shot, strict=True)),
                    "hash": h.hex(), "ruling_digest": judged.hex(),
                })  # fmt: skip
        except struct.error as e:
            raise ArchiveFormError(f"a packed stroke is cut short: {e}") from None
        return out

    def seen(self, entry: dict[str, Any]) -> None:
        if entry.get("kind") == "stroke" and isinstance(entry.get("stroke"), int):
            self.stroke = int(entry["stroke"])


def pack_match(record: dict[str, Any], form: int = FORM) -> tuple[bytes, bytes, bytes, bytes]:
    """A finished record (header with its whole log) as its rows: (start id, start entry,
    header, inputs), of `form` (3; 2 is written by the tests of rows written before)."""
    log = list(record.get("log") or [])
    start: dict[str, Any] = {}
    if log and log[0].get("kind") == "start":
        start = dict(log.pop(0))
    t0 = float(start.pop("at", record.get("started") or 0.0))
    start_blob = _pack(start)
    start_id = hashlib.sha256(start_blob).digest()[:16]
    packer = _Packer(t0, HASH_KEPT_BY_FORM[form])
    items: list[Any] = []
    for entry in log:
        packed = packer.stroke_bytes(entry) if entry.get("kind") == "stroke" else None
        if packed is not None:
            if items and isinstance(items[-1], bytearray):
                items[-1] += packed
            else:
                items.append(bytearray(packed))
            continue
        packer.seen(entry)
        kept = {k: v for k, v in entry.items() if k not in _DROPPED}
        if "ruling" in entry:
            kept["ruling_digest"] = ruling_digest(entry["ruling"])
        items.append(kept)
    items = [bytes(i) if isinstance(i, bytearray) else i for i in items]
    header = {k: v for k, v in record.items() if k != "log"}
    return start_id, start_blob, sealed(header, form), sealed([t0, packer.last, items], form)


def _log_v1(inputs: bytes) -> tuple[float, list[dict[str, Any]]]:
    """Form 1's t0 and entries."""
    t0, items = _unpack(inputs)
    log = []
    for item in items:
        if isinstance(item, bytes):
            stroke, seat, at, x, y, angle, speed, digest, judged = STROKE_V1.unpack(item)
            item = {
                "kind": "stroke", "at": at, "stroke": stroke, "seat": seat,
                "shot": {"x": x, "y": y, "angle": angle, "speed": speed}, "hash": digest.hex(),
                "ruling_digest": judged.hex(),
            }  # fmt: skip
        log.append(item)
    return float(t0), log


def _log_packed(inputs: bytes) -> tuple[float, list[dict[str, Any]]]:
    """Form 2's or 3's t0 and entries, the last packed stroke with its whole state hash."""
    t0, last, items = opened(inputs)
    reader = _Reader(float(t0), HASH_KEPT_BY_FORM[inputs[0]])
    log: list[dict[str, Any]] = []
    final = None
    for item in items:
        if isinstance(item, bytes):
            strokes = reader.strokes(item)
            log += strokes
            final = strokes[-1] if strokes else final
        else:
            reader.seen(item)
            log.append(item)
    if final is not None and isinstance(last, bytes) and last.hex().startswith(final["hash"]):
        final["hash"] = last.hex()
    return float(t0), log


def unpack_match(start: bytes, header: bytes, inputs: bytes) -> dict[str, Any]:
    """The record (header and log) from its rows, of either form; the log holds what was
    struck, each stroke with its state hash (or the start of it kept), and no rulings (the
    replay recomputes them). ArchiveFormError for inputs of no known form."""
    record = unpack_header(header)
    if inputs[:1] in _SEALED:
        t0, entries = _log_packed(inputs)
    elif inputs[:1] == b"\x92":  # form 1: a msgpack array of two
        t0, entries = _log_v1(inputs)
    else:
        raise ArchiveFormError(f"archived inputs of no known form ({inputs[:1].hex()})")
    first = _unpack(start)
    log: list[dict[str, Any]] = [{"kind": "start", "at": t0, **first}] if first else []
    record["log"] = log + entries
    return record


def pack_header(header: dict[str, Any]) -> bytes:
    """A match's header (the record without its log) as the archive keeps it (form 3)."""
    return sealed(header)


def unpack_header(header: bytes) -> dict[str, Any]:
    """A match's header (the record without its log), of any form (form 1: msgpack)."""
    record = opened(header) if header[:1] in _SEALED else _unpack(header)
    if not isinstance(record, dict):
        raise ArchiveFormError("an archived header that is not a map")
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
