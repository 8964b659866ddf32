"""Crokinole's notation (docs/notation.md, "Crokinole"; server/games/crokinole/notation.py):
every kind of game written and read back replays with every hash and its result agreeing; an
altered shot is marked at its line; a header that does not rebuild the start, a shot out of
order or a bad seat are refused naming the line; the command line reads it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from server.games.core.notation import NotationError
from server.games.crokinole.notation import from_notation, to_notation
from server.games.registry import game
from server.replay.verify import replay
from tests.replay.crokinole_scripted import crokinole_record
from tests.replay.test_crokinole_replay import KINDS


@pytest.mark.parametrize("kind", list(KINDS), ids=list(KINDS))
def test_every_kind_of_game_round_trips_and_replays(kind):
    record = crokinole_record(seed=11, **KINDS[kind])  # type: ignore[arg-type]
    text = to_notation(record)
    assert text.startswith('[Game "crokinole"]\n')
    back = from_notation(text)
    checks = list(replay(back))
    strokes = [c for c in checks if c.kind == "stroke"]
    assert len(strokes) == sum(e["kind"] == "stroke" for e in record["log"])
    assert all(c.hash_ok is True for c in strokes), "every shot's hash, recomputed"
    assert all(c.ruling_ok is None for c in strokes), "the notation carries no rulings"
    assert checks[-1].kind == "end" and checks[-1].ruling_ok is True, "the result and score"
    assert to_notation({**back, "started": record.get("started")}) == text


def test_a_resignation_is_written_and_its_result_checked():
    record = crokinole_record(seed=3, shots=5, resign=True)
    text = to_notation(record)
    assert "\nresign " in text and '[Termination "resign"]' in text
    checks = list(replay(from_notation(text)))
    assert checks[-1].kind == "end" and checks[-1].ruling_ok is True


def test_an_altered_shot_is_marked_at_its_line():
    text = to_notation(crokinole_record(seed=5, shots=8))
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("3. "))
    words = lines[at].split()
    words[5] = repr(float(words[5]) + 1.0)  # the speed
    lines[at] = " ".join(words)
    checks = list(replay(from_notation("\n".join(lines))))
    third = next(c for c in checks if c.stroke == 3)
    assert third.hash_ok is False and third.line == at + 1


def test_bad_notation_is_refused_naming_the_line():
    text = to_notation(crokinole_record(seed=6, shots=4))
    lines = text.splitlines()
    players = next(i for i, line in enumerate(lines) if line.startswith("[Players "))
    other = [*lines[:players], '[Players "4"]', *lines[players + 1 :]]
    start = next(i for i, line in enumerate(lines) if line.startswith("[StartHash "))
    with pytest.raises(NotationError, match=f"line {start + 1}: .*do not rebuild"):
        from_notation("\n".join(other))
    second = next(i for i, line in enumerate(lines) if line.startswith("2. "))
    skipped = [*lines[:second], lines[second].replace("2. ", "5. ", 1), *lines[second + 1 :]]
    with pytest.raises(NotationError, match=f"line {second + 1}: shot 2 was expected"):
        from_notation("\n".join(skipped))
    bad_seat = [*lines[:second], lines[second].replace("2. 1 ", "2. 7 ", 1), *lines[second + 1 :]]
    with pytest.raises(NotationError, match="seat 7 is not a seat"):
        from_notation("\n".join(bad_seat))
    with pytest.raises(NotationError, match="not a Crokinole"):
        from_notation(text.replace('[Game "crokinole"]', '[Game "novuss"]'))


def test_the_registry_gives_crokinole_its_notation():
    notation = game("crokinole").notation
    assert notation is not None
    record = crokinole_record(seed=9, shots=3)
    assert notation.read(notation.write(record))["log"][1]["hash"] == record["log"][1]["hash"]


def test_the_command_line_replays_a_crokinole_notation(tmp_path: Path):
    path = tmp_path / "game.txt"
    path.write_text(to_notation(crokinole_record(seed=2, shots=17, resign=True)))
    done = subprocess.run(
        [sys.executable, "-m", "server.replay", str(path)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1].endswith("every hash matches, 0 mismatched")
