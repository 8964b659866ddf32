"""bench.archive's parts and a short run: its synthetic matches are of the goal's 36 strokes,
its Redis figure leaves the connections out, and its embedded Redis does not outlive it."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psutil

from bench.archive import stretched
from bench.soak import stop_redis
from server.store.archive import pack_match, unpack_match
from server.store.embedded import start_embedded
from tests.bench.conftest import Report
from tests.replay.scripted import scripted_record


def strokes_of(record: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for e in record["log"] if e["kind"] == "stroke"]


def test_a_played_record_is_made_a_match_of_exactly_the_strokes_asked() -> None:
    played = scripted_record(seed=3, strokes=30, sets=1)
    was = strokes_of(played)
    made = stretched(played, 36, random.Random(1))
    now = strokes_of(made)
    assert len(now) == 36 == made["strokes"]
    assert now[: len(was)] == was  # the played ones as they were, the added after them
    assert [e["stroke"] for e in now] == list(range(now[0]["stroke"], now[0]["stroke"] + 36))
    assert len({e["hash"] for e in now}) == 36  # no repeat for deflate to find
    assert all(a["at"] < b["at"] for a, b in itertools.pairwise(now))
    assert made["log"][-1]["kind"] != "stroke" and made["log"][-1]["at"] >= now[-1]["at"]
    assert made["ended"] > played["ended"]
    shorter = stretched(played, 20, random.Random(1))
    assert strokes_of(shorter) == was[:20] and shorter["log"][-1] == played["log"][-1]
    # kept as the archive keeps any: it reads back with its 36 strokes
    back = unpack_match(*pack_match(made)[1:])
    assert len(strokes_of(back)) == 36


def test_the_embedded_redis_is_stopped_before_its_folder_goes(tmp_path: Path) -> None:
    start_embedded(tmp_path)
    redis_server = psutil.Process(int((tmp_path / "redis.pid").read_text()))
    stop_redis(tmp_path)
    assert not redis_server.is_running() or redis_server.status() == psutil.STATUS_ZOMBIE
    stop_redis(tmp_path)  # none left: nothing to do


def test_a_short_archive_run_reports(run_bench: Callable[..., Report]) -> None:
    out, figures = run_bench(
        "archive", "--matches", "40", "--played", "1", "--finished", "20", "--players", "20",
        "--reads", "5", timeout=300,
    )  # fmt: skip
    assert set(figures) == {
        "matches", "bytes_per_match", "write_p99_ms", "page_p99_ms", "leaderboard_p99_ms",
        "redis_growth_pct",
    }  # fmt: skip
    assert int(figures["matches"]) == 40 and int(figures["bytes_per_match"]) > 0
    assert "made 36 strokes long: 36 strokes" in out
    assert "connections holding" in out
