"""The archive's rows (server/store/archive.py) without a database: both games' records packed
to what was struck and read back, replayed hash by hash and ruling by ruling (the rulings by
their digests), a record altered after it was packed caught, and the rows of the forms written
before (1 until 2026-11-27, 2 on 2026-11-27) still read and replayed."""

from __future__ import annotations

import copy
import hashlib
import struct
from typing import Any

import msgpack
import pytest

from server.games.core.replaying import KEPT_HASH_DIGITS, plain, ruling_digest
from server.games.registry import of_record
from server.history.http import with_rulings
from server.store.archive import (
    FORM,
    HASH_KEPT,
    HASH_KEPT_BY_FORM,
    STROKE_V1,
    ArchiveFormError,
    opened,
    pack_match,
    sealed,
    unpack_match,
)
from tests.replay.crokinole_scripted import crokinole_record
from tests.replay.scripted import scripted_record


def round_trip(record: dict[str, Any]) -> dict[str, Any]:
    _, start, header, inputs = pack_match(record)
    return unpack_match(start, header, inputs)


def checks(record: dict[str, Any]) -> list[Any]:
    replay = of_record(record).replay
    assert replay is not None
    return list(replay.checks(record))


RECORDS = {
    "novuss singles": lambda: scripted_record(seed=3, strokes=30, sets=1),
    "novuss doubles": lambda: scripted_record(seed=4, strokes=12, doubles=True),
    "crokinole": lambda: crokinole_record(seed=2),
    "crokinole resigned": lambda: crokinole_record(seed=5, shots=9, resign=True),
    # no stroke at all: its rulings (pass, clock, resign) recomputed all the same
    "novuss resigned at once": lambda: scripted_record(seed=3, strokes=0, sets=1),
}


@pytest.mark.parametrize("kind", sorted(RECORDS))
def test_an_archived_record_replays_hash_by_hash_and_ruling_by_ruling(kind):
    record = RECORDS[kind]()
    back = round_trip(record)
    strokes = [e for e in record["log"] if e["kind"] == "stroke"]
    kept = [e for e in back["log"] if e["kind"] == "stroke"]
    assert len(kept) == len(strokes)
    for was, now in zip(strokes, kept, strict=True):
        assert now["shot"] == {k: float(v) for k, v in was["shot"].items()}  # exactly
        assert (now["seat"], now["stroke"], now["at"]) == (was["seat"], was["stroke"], was["at"])
        # the first 4 bytes of each state hash (the last stroke's whole, below)
        assert was["hash"].startswith(now["hash"][: 2 * HASH_KEPT])
        assert "ruling" not in now and len(now["ruling_digest"]) == 8
    assert all(len(e["hash"]) == 2 * HASH_KEPT for e in kept[:-1])
    if kept:
        assert kept[-1]["hash"] == strokes[-1]["hash"]
    assert {k: v for k, v in back.items() if k != "log"} == {
        k: v for k, v in record.items() if k != "log"
    }
    assert [e["kind"] for e in back["log"]] == [e["kind"] for e in record["log"]]
    done = checks(back)
    judged = [c for c in done if c.kind == "stroke"]
    assert len(judged) == len(strokes)
    assert all(c.hash_ok is True and c.ruling_ok is True for c in judged), judged
    assert all(c.ok for c in done)
    # what the replay of the full record says, the archived one says too
    assert [c.lines for c in done] == [c.lines for c in checks(record)]


@pytest.mark.parametrize("kind", sorted(RECORDS))
def test_an_archived_record_is_served_as_the_live_one_was(kind):
    """Its rulings, durations and (Novuss) own pucks recomputed: the very entries."""
    record = RECORDS[kind]()
    served = with_rulings(round_trip(record))
    assert plain({k: v for k, v in served.items() if k != "log"}) == plain(
        {k: v for k, v in record.items() if k != "log"}
    )
    assert len(served["log"]) == len(record["log"])
    for now, was in zip(plain(served["log"]), plain(record["log"]), strict=True):
        assert {k: now.get(k) for k in was} == was
        # the scripted records leave out what the server logs for the figures (own)
        assert set(now) - set(was) <= ({"own"} if was["kind"] == "stroke" else set())


def single(value: float) -> float:
    """The float32 nearest a number."""
    return float(struct.unpack("<f", struct.pack("<f", value))[0])


def test_a_stroke_is_kept_in_tens_of_bytes_and_the_start_is_shared():
    record = scripted_record(seed=3, strokes=30, sets=1)
    start_id, start, _header, inputs = pack_match(record)
    strokes = sum(e["kind"] == "stroke" for e in record["log"])
    others = len(record["log"]) - strokes
    overhead = 48 + others * 200  # the form, t0, the last hash; the map entries
    # the shot four float64 (the scripted player's are not float32): 47 bytes a stroke
    assert len(inputs) <= overhead + strokes * (1 + 2 + 32 + HASH_KEPT + 4)
    # a shot that a float32 holds exactly is kept in 16 bytes: 27 a stroke
    for e in record["log"]:
        if e["kind"] == "stroke":
            e["shot"] = {k: single(v) for k, v in e["shot"].items()}
    narrow = pack_match(record)[3]
    assert len(narrow) <= overhead + strokes * (1 + 2 + 16 + HASH_KEPT + 4)
    assert len(inputs) - len(narrow) >= strokes * 12  # deflated, not quite 16 bytes less
    back = unpack_match(start, _header, narrow)
    shots = [e["shot"] for e in back["log"] if e["kind"] == "stroke"]
    assert shots == [e["shot"] for e in record["log"] if e["kind"] == "stroke"]
    again = scripted_record(seed=3, strokes=5, sets=1)  # another match that started alike
    assert pack_match(again)[:2] == (start_id, start)
    doubles = scripted_record(seed=3, strokes=5, doubles=True)  # set otherwise: its own
    assert pack_match(doubles)[0] != start_id


def test_an_altered_archive_is_caught_by_the_replay():
    record = scripted_record(seed=3, strokes=12, sets=1)
    back = round_trip(record)
    altered = copy.deepcopy(back)
    first = next(e for e in altered["log"] if e["kind"] == "stroke")
    first["shot"]["speed"] *= 0.9
    marked = next(c for c in checks(altered) if c.kind == "stroke")
    assert marked.hash_ok is False
    judged = copy.deepcopy(back)
    stroke = next(e for e in judged["log"] if e["kind"] == "stroke")
    stroke["ruling_digest"] = "00000000" if stroke["ruling_digest"] != "00000000" else "ffffffff"
    marked = next(c for c in checks(judged) if c.kind == "stroke")
    assert marked.hash_ok is True and marked.ruling_ok is False
    # the start of a state hash that is kept: one digit changed, or too little of it kept
    short = copy.deepcopy(back)
    stroke = next(e for e in short["log"] if e["kind"] == "stroke")
    assert len(stroke["hash"]) == 2 * HASH_KEPT
    stroke["hash"] = ("1" if stroke["hash"][0] == "0" else "0") + stroke["hash"][1:]
    marked = next(c for c in checks(short) if c.kind == "stroke")
    assert marked.hash_ok is False and marked.ruling_ok is True
    served = next(e for e in with_rulings(short)["log"] if e["kind"] == "stroke")
    assert served["hash"] == stroke["hash"]  # not served as the whole hash it is not
    stroke["hash"] = stroke["hash"][: KEPT_HASH_DIGITS - 1]
    assert next(c for c in checks(short) if c.kind == "stroke").hash_ok is False


def test_every_form_keeps_at_least_what_a_replay_compares():
    assert HASH_KEPT == 4 and FORM == 3
    assert min(HASH_KEPT_BY_FORM.values()) * 2 == KEPT_HASH_DIGITS


def test_a_stroke_that_does_not_fit_the_packed_form_is_kept_whole_but_its_ruling():
    record = scripted_record(seed=3, strokes=4, sets=1)
    odd = next(e for e in record["log"] if e["kind"] == "stroke")
    odd["note"] = "a field the packed form has no room for"
    back = round_trip(record)
    kept = next(e for e in back["log"] if e["kind"] == "stroke")
    assert kept["note"] == odd["note"] and kept["hash"] == odd["hash"]
    assert "ruling" not in kept and len(kept["ruling_digest"]) == 8


def test_times_are_kept_to_the_millisecond_and_numbers_out_of_turn_as_they_were():
    record = scripted_record(seed=3, strokes=6, sets=1)
    strokes = [e for e in record["log"] if e["kind"] == "stroke"]
    strokes[1]["at"] += 0.0123456  # a time between milliseconds
    strokes[2]["at"] -= 0.5  # earlier than the stroke before (a clock set back)
    strokes[4]["stroke"] = 2  # a number that is not the one after (a practice take-back)
    strokes[5]["stroke"] = 3
    back = [e for e in round_trip(record)["log"] if e["kind"] == "stroke"]
    assert [e["stroke"] for e in back] == [1, 2, 3, 4, 2, 3]
    for was, now in zip(strokes, back, strict=True):
        assert abs(now["at"] - was["at"]) <= 0.0005
    assert back[1]["at"] != strokes[1]["at"] and back[0]["at"] == strokes[0]["at"]


def test_inputs_of_no_known_form_are_refused():
    _, start, header, inputs = pack_match(scripted_record(seed=3, strokes=2, sets=1))
    assert inputs[0] == FORM
    with pytest.raises(ArchiveFormError):
        unpack_match(start, header, b"\x07" + inputs[1:])
    t0, last, items = opened(inputs)
    cut = [items[0][:-3] if isinstance(items[0], bytes) else items[0], *items[1:]]
    with pytest.raises(ArchiveFormError):
        unpack_match(start, header, sealed([t0, last, cut]))
    with pytest.raises(ArchiveFormError):
        unpack_match(start, header, inputs[:-5])


def pack_form_1(record: dict[str, Any]) -> tuple[bytes, bytes, bytes]:
    """A record's rows as the archive wrote them until 2026-11-27 (form 1): (start, header,
    inputs), inputs msgpack [t0, entries], each stroke 79 bytes (its number, seat, time, the
    shot as four float64, the whole state hash, its ruling's digest), other entries as maps
    with their rulings' digests."""
    log = list(record["log"])
    start = dict(log.pop(0))
    t0 = float(start.pop("at"))
    items: list[Any] = []
    for e in log:
        if e["kind"] == "stroke":
            shot = (float(e["shot"][k]) for k in ("x", "y", "angle", "speed"))
            digest = bytes.fromhex(ruling_digest(e["ruling"]))
            items.append(STROKE_V1.pack(e["stroke"], e["seat"], float(e["at"]), *shot,
                                        bytes.fromhex(e["hash"]), digest))  # fmt: skip
            continue
        kept = {k: v for k, v in e.items() if k not in ("ruling", "duration", "own")}
        if "ruling" in e:
            kept["ruling_digest"] = ruling_digest(e["ruling"])
        items.append(kept)
    header = {k: v for k, v in record.items() if k != "log"}

    def packed(data: Any) -> bytes:
        return bytes(msgpack.packb(data, use_bin_type=True))

    return packed(start), packed(header), packed([t0, items])


@pytest.mark.parametrize("kind", sorted(RECORDS))
def test_a_row_of_the_form_before_is_read_replayed_and_served_as_the_live_one_was(kind):
    record = RECORDS[kind]()
    start, header, inputs = pack_form_1(record)
    assert inputs[0] == 0x92 and header[0] & 0xF0 == 0x80  # msgpack, as every row before
    back = unpack_match(start, header, inputs)
    old = [e for e in back["log"] if e["kind"] == "stroke"]
    assert [e["hash"] for e in old] == [
        e["hash"] for e in record["log"] if e["kind"] == "stroke"
    ]  # whole, as form 1 kept them
    assert all(c.ok for c in checks(back))
    served = with_rulings(back)
    for now, was in zip(plain(served["log"]), plain(record["log"]), strict=True):
        assert {k: now.get(k) for k in was} == was
    assert pack_match(record)[1] == start  # the same start row: shared by both forms
    assert hashlib.sha256(start).digest()[:16] == pack_match(record)[0]


@pytest.mark.parametrize("kind", sorted(RECORDS))
def test_a_row_of_form_2_is_read_replayed_and_served_as_the_live_one_was(kind):
    """Form 2 (2026-11-27): as form 3 but 8 bytes of each state hash, 4 more a stroke."""
    record = RECORDS[kind]()
    start_id, start, header, inputs = pack_match(record, form=2)
    assert inputs[0] == 2 and header[0] == 2
    assert (start_id, start) == pack_match(record)[:2]  # the same start row: shared
    back = unpack_match(start, header, inputs)
    old = [e for e in back["log"] if e["kind"] == "stroke"]
    whole = [e["hash"] for e in record["log"] if e["kind"] == "stroke"]
    assert [len(e["hash"]) for e in old[:-1]] == [16] * len(old[:-1])
    assert [w.startswith(e["hash"]) for e, w in zip(old, whole, strict=True)] == [True] * len(old)
    if old:
        assert old[-1]["hash"] == whole[-1]
        assert len(inputs) - len(pack_match(record)[3]) >= 3 * (len(old) - 1)
    assert all(c.ok for c in checks(back))
    served = with_rulings(back)
    for now, was in zip(plain(served["log"]), plain(record["log"]), strict=True):
        assert {k: now.get(k) for k in was} == was
