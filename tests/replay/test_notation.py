"""The match notation (server/games/novuss/notation.py, docs/notation.md): a record written as text
and read back replays with every state hash matching; floats come back bit for bit; an
altered stroke is a mismatch at that stroke; bad text is refused naming its line."""

from __future__ import annotations

import copy
import struct
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.games.core.notation import NotationError, read_float, start_hash, write_float
from server.games.novuss.notation import from_notation, to_notation
from server.replay.verify import ReplayError, replay
from tests.replay.scripted import scripted_record

RECORD = scripted_record(seed=3, strokes=6)
TEXT = to_notation(RECORD)
ONE_STROKE = scripted_record(seed=3, strokes=1)


def bits(x: float) -> bytes:
    """A double's IEEE-754 bits."""
    return struct.pack("<d", x)


def line_of(lines: list[str], start: str) -> int:
    """The 0-based index of the first line beginning with `start`."""
    return next(i for i, ln in enumerate(lines) if ln.startswith(start))


def test_a_record_written_and_read_back_replays_with_every_hash_matching():
    back = from_notation(TEXT)
    checks = list(replay(back))
    strokes = [c for c in checks if c.kind == "stroke"]
    assert len(strokes) == 6 and all(c.hash_ok for c in strokes)
    assert [c.kind for c in checks[6:]] == ["pass", "clock", "resign", "end"]
    assert all(c.ok for c in checks) and checks[-1].ruling_ok is True
    assert all(c.ruling_ok is None for c in checks[:-1]), "the notation carries no rulings"
    # every shot comes back as the very bits that were simulated
    sent = [e["shot"] for e in RECORD["log"] if e["kind"] == "stroke"]
    got = [e["shot"] for e in back["log"] if e["kind"] == "stroke"]
    assert [[bits(s[k]) for k in s] for s in got] == [[bits(s[k]) for k in s] for s in sent]
    assert back["log"][0]["state"] == RECORD["log"][0]["state"]
    assert [p["name"] for p in back["players"]] == ['Anu "the rail" Tamm', "Boriss Ozoliņš"]
    # each entry knows its line, so that the replay can name it
    lines = TEXT.splitlines()
    first = line_of(lines, "1. ")
    assert strokes[0].line == first + 1 and lines[first].split()[-1] == sent_hash(1)


def sent_hash(stroke: int) -> str:
    """The stored state hash of a stroke of RECORD."""
    return str(next(e["hash"] for e in RECORD["log"] if e.get("stroke") == stroke))


def test_a_doubles_match_opened_by_the_pairs_second_player_round_trips():
    record = scripted_record(seed=5, strokes=5, doubles=True)
    text = to_notation(record)
    first_team = record["log"][0]["first_team"]
    assert f'[FirstSeat "{first_team + 2}"]' in text.splitlines()
    assert '[Seat3 "Dace"]' in text.splitlines()
    checks = list(replay(from_notation(text)))
    assert sum(c.kind == "stroke" for c in checks) == 5
    assert all(c.ok for c in checks) and all(c.hash_ok for c in checks if c.kind == "stroke")


def test_the_header_carries_the_settings_the_lot_and_the_start():
    lines = TEXT.splitlines()
    assert lines[0] == '[Game "novuss"]'
    first_team = RECORD["log"][0]["first_team"]
    for tag in (
        '[Mode "singles"]', '[Sets "4"]', '[Clock "30.0"]', '[MaxSpeed "-"]',
        '[Seat0 "Anu \\"the rail\\" Tamm"]', '[Seat1 "Boriss Ozoliņš"]',
        '[Date "2026-11-25"]', f'[FirstTeam "{first_team}"]', '[Termination "resign"]',
        f'[StartHash "{start_hash(RECORD["log"][0]["state"])}"]',
    ):  # fmt: skip
        assert tag in lines, tag
    winner = RECORD["result"]["winner"]
    assert ('[Result "1-0"]' if winner == 0 else '[Result "0-1"]') in lines
    body = lines[line_of(lines, "1. ") :]
    kinds = [ln.split()[0] for ln in body]
    assert kinds == ["1.", "2.", "3.", "4.", "5.", "6.", "pass", "clock", "resign"]


def test_a_stroke_whose_speed_was_changed_is_a_mismatch_at_that_stroke():
    lines = TEXT.splitlines()
    at = line_of(lines, "3. ")
    words = lines[at].split()
    words[5] = write_float(float(words[5]) * 0.9)
    lines[at] = " ".join(words)
    checks = list(replay(from_notation("\n".join(lines))))
    by_stroke = {c.stroke: c for c in checks if c.kind == "stroke"}
    assert by_stroke[1].hash_ok and by_stroke[2].hash_ok, "before it, all agrees"
    assert by_stroke[3].hash_ok is False and not by_stroke[3].ok
    assert by_stroke[3].line == at + 1


def test_a_notation_cut_short_disagrees_with_its_result():
    lines = TEXT.splitlines()
    del lines[line_of(lines, "resign") :]
    checks = list(replay(from_notation("\n".join(lines))))
    assert all(c.hash_ok for c in checks if c.kind == "stroke")
    end = checks[-1]
    assert end.kind == "end" and end.ruling_ok is False, (
        "the result the header gives is not reached"
    )


def _drop_hash(lines: list[str]) -> int:
    i = line_of(lines, "2. ")
    lines[i] = lines[i].rsplit(" ", 1)[0]
    return i


def _word(start: str, k: int, new: str) -> Callable[[list[str]], int]:
    def change(lines: list[str]) -> int:
        i = line_of(lines, start)
        words = lines[i].split()
        words[k] = new
        lines[i] = " ".join(words)
        return i

    return change


def _replace(start: str, new: str) -> Callable[[list[str]], int]:
    def change(lines: list[str]) -> int:
        i = line_of(lines, start)
        lines[i] = new
        return i

    return change


def _append(new: str) -> Callable[[list[str]], int]:
    def change(lines: list[str]) -> int:
        lines.append(new)
        return len(lines) - 1

    return change


def _duplicate_tag(lines: list[str]) -> int:
    lines.insert(2, '[Game "novuss"]')
    return 2


def _other_sets(lines: list[str]) -> int:
    lines[line_of(lines, "[Sets")] = '[Sets "6"]'
    return line_of(lines, "[StartHash")  # where the disagreement shows


def _other_first_seat(lines: list[str]) -> int:
    i = line_of(lines, "[FirstSeat")
    lines[i] = f'[FirstSeat "{1 - RECORD["log"][0]["first_team"]}"]'
    return i


def _no_start_hash(lines: list[str]) -> int:
    del lines[line_of(lines, "[StartHash")]
    return 0


BAD: dict[str, tuple[Callable[[list[str]], int], str]] = {
    "a stroke without its hash": (_drop_hash, "7 fields"),
    "a speed that is nan": (_word("2. ", 5, "nan"), "not a number"),
    "a speed with an underscore": (_word("2. ", 5, "1_000.0"), "not a number"),
    "an angle that is a word": (_word("4. ", 4, "north"), "not a number"),
    "a stroke number skipped": (_word("3. ", 0, "4."), "stroke 3 was expected"),
    "a seat of no singles match": (_word("2. ", 1, "3"), "seat 3 is not a seat"),
    "a hash in capitals": (_word("5. ", 6, "A" * 64), "64 lowercase hex"),
    "a hash cut short": (_word("5. ", 6, "ab" * 16), "64 lowercase hex"),
    "an entry of no known kind": (_replace("pass", "foul 1"), "begins no entry"),
    "a pass of no seat": (_replace("pass", "pass"), "takes one seat"),
    "a tag after the strokes": (_append('[Event "late"]'), "header tag after"),
    "a tag without quotes": (_replace("[Mode", "[Mode singles]"), '[Tag "value"]'),
    "a tag given twice": (_duplicate_tag, "given twice"),
    "no StartHash": (_no_start_hash, "no StartHash tag"),
    "settings not the start's": (_other_sets, "StartHash"),
    "a first seat of the other team": (_other_first_seat, "must be a seat of first_team"),
    "a clock that is no number": (_replace("[Clock", '[Clock "thirty"]'), "not a number"),
    "a result of no kind": (_replace("[Result", '[Result "2-0"]'), "Result is 1-0"),
    "another game": (_replace("[Game", '[Game "crokinole"]'), "only Novuss"),
}


@pytest.mark.parametrize("case", list(BAD), ids=list(BAD))
def test_bad_notation_is_refused_naming_its_line(case):
    change, says = BAD[case]
    lines = TEXT.splitlines()
    at = change(lines) + 1
    with pytest.raises(NotationError) as refused:
        from_notation("\n".join(lines))
    assert refused.value.line == at
    assert str(refused.value).startswith(f"line {at}: ") and says in str(refused.value)


def test_a_clock_run_out_for_a_seat_not_to_strike_ends_the_replay_there():
    lines = TEXT.splitlines()
    at = line_of(lines, "clock")
    seat = int(lines[at].split()[1])
    lines[at] = f"clock {1 - seat}"
    checks = list(replay(from_notation("\n".join(lines))))
    assert checks[-1].kind == "clock" and checks[-1].ruling_ok is False
    assert checks[-1].line == at + 1 and "refuses" in checks[-1].lines[0]


def test_records_the_notation_cannot_carry_are_refused_clearly():
    with pytest.raises(NotationError, match="Novuss only"):
        to_notation({"game": "crokinole", "log": [{"kind": "start", "state": {}}]})
    # Crokinole matches replay now (issue 31), so a start with no state is what is refused
    with pytest.raises(ReplayError, match="no Crokinole game's state"):
        list(replay({"game": "crokinole", "log": [{"kind": "start", "state": {}}]}))
    moved = scripted_record(seed=3, strokes=1)
    moved["log"][0]["state"]["pucks"][0][2] += 1.0  # a start that is no new match's
    with pytest.raises(NotationError, match="not a new match's"):
        to_notation(moved)


def test_an_int_setting_stays_an_int_and_a_float_a_float():
    record = scripted_record(seed=3, strokes=1)
    record["log"][0]["state"]["config"]["stroke_clock"] = 60  # as a client's msgpack sends it
    text = to_notation(record)
    assert '[Clock "60"]' in text.splitlines()
    # 60.0 would rebuild a start state that differs in its bytes: StartHash tells
    with pytest.raises(NotationError, match="StartHash"):
        from_notation(text.replace('[Clock "60"]', '[Clock "60.0"]'))
    assert from_notation(text)["log"][0]["state"]["config"]["stroke_clock"] == 60


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_every_finite_double_round_trips_bit_for_bit(x):
    written = write_float(x)
    assert bits(read_float(written)) == bits(x)
    assert bits(read_float(x.hex())) == bits(x), "hex floats are read too"


@given(st.lists(st.floats(allow_nan=False, allow_infinity=False), min_size=4, max_size=4))
def test_a_stroke_line_carries_its_shot_bit_for_bit(shot):
    record = copy.deepcopy(ONE_STROKE)
    stroke = record["log"][1]
    stroke["shot"] = dict(zip(("x", "y", "angle", "speed"), shot, strict=True))
    back = from_notation(to_notation(record))["log"][1]["shot"]
    assert [bits(back[k]) for k in ("x", "y", "angle", "speed")] == [bits(v) for v in shot]


@pytest.mark.parametrize("token", ["nan", "inf", "-inf", "1_0", " 1.0", "1.0.0", "0x1p", "", "+1"])
def test_what_is_not_a_plain_number_is_refused(token):
    with pytest.raises(NotationError):
        read_float(token, 7)
