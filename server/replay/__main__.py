"""python -m server.replay RECORD: recompute a match and say whether its record agrees.

RECORD is a match record as `GET /api/matches/{id}` serves it: a file holding that JSON, or
the URL itself (http://host:port/api/matches/<id>). Prints every stroke and ruling without a
stroke as recomputed, with `ok` or what disagrees (the state hash, the ruling), and a last
line with the counts; the exit status is 0 when everything agrees, 1 when something does not,
2 when the record cannot be replayed.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any
from urllib.request import urlopen

from server.replay.verify import ReplayError, replay


def load(source: str) -> dict[str, Any]:
    """The record from a file or a URL."""
    if source.startswith(("http://", "https://")):
        with urlopen(source, timeout=10) as r:
            data: Any = json.load(r)
    else:
        data = json.loads(Path(source).read_text())
    if not isinstance(data, dict):
        raise ReplayError("A match record is a JSON object.")
    return data


def main(argv: list[str] | None = None) -> int:
    """Replay one record and print the checks; the exit status."""
    ap = argparse.ArgumentParser(prog="python -m server.replay", description=__doc__.split("\n")[0])
    ap.add_argument("record", help="a file with the match record's JSON, or its URL")
    a = ap.parse_args(argv)
    try:
        checks = list(replay(load(a.record)))
    except (ReplayError, OSError, ValueError, KeyError, TypeError) as e:
        print(f"cannot replay: {e}", file=sys.stderr)
        return 2
    bad = 0
    for c in checks:
        what = f"stroke {c.stroke}" if c.kind == "stroke" else c.kind
        wrong = [w for w, ok in (("hash", c.hash_ok), ("ruling", c.ruling_ok)) if ok is False]
        bad += bool(wrong)
        verdict = "ok" if not wrong else "MISMATCH: " + ", ".join(wrong)
        print(f"{c.index:4} {what:10} {verdict}  {' / '.join(c.lines)}")
    strokes = sum(c.kind == "stroke" for c in checks)
    print(f"{len(checks)} entries, {strokes} strokes, {bad} mismatched")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
