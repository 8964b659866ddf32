"""A played match recomputed from its record (server/replay): every stroke simulated again
with the same core agrees with the stored hash and ruling; a record altered afterwards is
reported where it stops agreeing, never replayed as if it were right."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from urllib.request import urlopen

import pytest

from server.replay.verify import ReplayError, replay
from tests.accounts.account_client import Http, seat_pair

pytestmark = pytest.mark.asyncio


def run_replay(source: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "server.replay", source], capture_output=True, text=True, timeout=60
    )


async def test_a_played_match_replays_exactly_and_an_altered_one_does_not(game_server, tmp_path):
    srv = game_server(speed_factor=25)
    a = await Http(srv.url).player(srv.ws_url, name="Anu")
    b = await Http(srv.url).player(srv.ws_url, name="Boris")
    await seat_pair(srv.ws_url, a, b)
    results = await asyncio.gather(a.play("singles"), b.play("singles"))
    with urlopen(srv.url + results[0]["record"]) as r:
        record = json.load(r)
    checks = list(replay(record))
    strokes = [c for c in checks if c.kind == "stroke"]
    assert len(strokes) == len(a.strokes_seen) > 0
    assert all(c.ok and c.hash_ok for c in strokes) and all(c.ok for c in checks)
    # the command line, from the served URL and from an exported file
    done = run_replay(srv.url + results[0]["record"])
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1].endswith(" 0 mismatched")
    # a stroke's speed changed in the file: that stroke and what follows from it disagree
    stroke_entries = [e for e in record["log"] if e["kind"] == "stroke"]
    stroke_entries[0]["shot"]["speed"] *= 0.5
    altered = tmp_path / "altered.json"
    altered.write_text(json.dumps(record))
    done = run_replay(str(altered))
    assert done.returncode == 1
    first = next(line for line in done.stdout.splitlines() if " stroke 1 " in line)
    assert "MISMATCH: hash" in first
    # a record that is not a Novuss match's is refused, not half-replayed
    with pytest.raises(ReplayError):
        list(replay({"game": "crokinole", "log": []}))
    broken = tmp_path / "broken.json"
    broken.write_text("[1, 2]")
    assert run_replay(str(broken)).returncode == 2
