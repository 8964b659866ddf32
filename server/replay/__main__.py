"""python -m server.replay RECORD: recompute a match and say whether its record agrees.

RECORD is a match record as `GET /api/matches/{id}` serves it (a file holding that JSON, or
the URL itself, http://host:port/api/matches/<id>), or a match's notation (docs/notation.md:
a file, or the URL of `GET /api/matches/{id}.txt`). Prints every stroke and ruling without a
stroke as recomputed, in English, with `ok` or what disagrees (the state hash, the ruling,
the result), and a last line with the counts; the exit status is 0 when everything agrees,
1 when something does not, 2 when the record cannot be replayed (bad notation: its line).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any
from urllib.request import urlopen

from server.games.registry import game
from server.replay.verify import ReplayError, replay

GAME_TAG = re.compile(r'^\[Game "([^"\\]*)"\]', re.MULTILINE)
"""Every game's notation names its game in a `Game` tag (docs/notation.md)."""


def from_notation(text: str) -> dict[str, Any]:
    """A notation text read by its game's notation (the `Game` tag's; none: the default)."""
    m = GAME_TAG.search(text)
    try:
        played = game(m.group(1) if m else None)
    except KeyError:
        raise ReplayError(
            f"No game of this server is called {m.group(1) if m else None!r}."
        ) from None
    if played.notation is None:
        raise ReplayError(f"{played.title} matches have no notation.")
    return played.notation.read(text)


def load(source: str) -> dict[str, Any]:
    """The record from a file or a URL, JSON or notation."""
    if source.startswith(("http://", "https://")):
        with urlopen(source, timeout=10) as r:
            text = r.read().decode()
    else:
        text = Path(source).read_text()
    try:
        data: Any = json.loads(text)
    except ValueError:  # not JSON: the notation (which no JSON text is)
        return from_notation(text)
    if not isinstance(data, dict):
        raise ReplayError("A match record is a JSON object.")
    return data


def main(argv: list[str] | None = None) -> int:
    """Replay one record and print the checks; the exit status."""
    ap = argparse.ArgumentParser(prog="python -m server.replay", description=__doc__.split("\n")[0])
    ap.add_argument("record", help="a file with the match's JSON record or notation, or a URL")
    a = ap.parse_args(argv)
    try:
        checks = list(replay(load(a.record)))
    except (ReplayError, OSError, ValueError, KeyError, TypeError) as e:
        print(f"cannot replay: {e}", file=sys.stderr)
        return 2
    bad = 0
    for c in checks:
        what = f"stroke {c.stroke}" if c.kind == "stroke" else c.kind
        judged = "result" if c.kind == "end" else "ruling"
        wrong = [w for w, ok in (("hash", c.hash_ok), (judged, c.ruling_ok)) if ok is False]
        bad += bool(wrong)
        verdict = "ok" if not wrong else "MISMATCH: " + ", ".join(wrong)
        where = f"line {c.line:<4} " if c.line is not None else ""
        print(f"{c.index:4} {where}{what:10} {verdict}  {' / '.join(c.lines)}")
    strokes = sum(c.kind == "stroke" for c in checks)
    hashes = [c.hash_ok for c in checks if c.hash_ok is not None]
    every = "every hash matches" if all(hashes) else f"{hashes.count(False)} hashes differ"
    print(f"{len(checks)} entries, {strokes} strokes, {every}, {bad} mismatched")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
