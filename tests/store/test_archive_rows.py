"""The archive's rows (server/store/archive.py) without a database: both games' records packed
to what was struck and read back, replayed hash by hash and ruling by ruling (the rulings by
their digests), and a record altered after it was packed caught."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from server.games.core.replaying import plain
from server.games.registry import of_record
from server.history.http import with_rulings
from server.store.archive import STROKE, pack_match, unpack_match
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
        assert now["shot"] == {k: float(v) for k, v in was["shot"].items()}
        assert (now["hash"], now["seat"], now["stroke"]) == (
            was["hash"],
            was["seat"],
            was["stroke"],
        )
        assert "ruling" not in now and len(now["ruling_digest"]) == 8
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


def test_a_stroke_is_kept_in_tens_of_bytes_and_the_start_is_shared():
    record = scripted_record(seed=3, strokes=30, sets=1)
    start_id, start, _header, inputs = pack_match(record)
    strokes = sum(e["kind"] == "stroke" for e in record["log"])
    others = len(record["log"]) - strokes
    assert STROKE.size == 79
    assert len(inputs) <= 16 + strokes * (STROKE.size + 2) + others * 200
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


def test_a_stroke_that_does_not_fit_the_packed_form_is_kept_whole_but_its_ruling():
    record = scripted_record(seed=3, strokes=4, sets=1)
    odd = next(e for e in record["log"] if e["kind"] == "stroke")
    odd["note"] = "a field the packed form has no room for"
    back = round_trip(record)
    kept = next(e for e in back["log"] if e["kind"] == "stroke")
    assert kept["note"] == odd["note"] and kept["hash"] == odd["hash"]
    assert "ruling" not in kept and len(kept["ruling_digest"]) == 8
