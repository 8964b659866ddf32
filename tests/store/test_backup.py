"""Backups an operator can trust (docs/accounts.md, "Backups"): the database dumped with
pg_dump as the docs say, restored into a fresh database with pg_restore, and every match
there replayed to the same hashes and rulings."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

from server.accounts.store import AccountStore
from server.games.core.replaying import KEPT_HASH_DIGITS
from server.games.registry import of_record
from server.history.store import Archived, HistoryStore, Skills
from server.history.summary import is_rated, rating_mode_of, summarise
from server.store.archive import ArchiveReader
from server.store.postgres import Database, pg_bin
from tests.pg import PgServer
from tests.replay.crokinole_scripted import crokinole_record
from tests.replay.scripted import scripted_record


def planner(record: dict[str, Any]) -> Callable[[Skills, list[dict[str, Any]]], Archived]:
    """What archiving a record gives its players, from their skills (as the archivist)."""
    return lambda skills, _earlier: summarise(record, skills)


def strokes_of(record: dict[str, Any]) -> list[tuple[int, str]]:
    """Each stroke's number and the start of its state hash that the archive keeps."""
    kept = KEPT_HASH_DIGITS
    return [(e["stroke"], e["hash"][:kept]) for e in record["log"] if e["kind"] == "stroke"]


async def test_a_dump_restored_into_a_fresh_database_replays_every_match(
    pg_server: PgServer, tmp_path: Path
):
    url = pg_server.fresh()
    db = Database(url)
    await db.open()
    accounts = AccountStore(None, db)  # type: ignore[arg-type]  # no Redis needed
    history = HistoryStore(None, db)  # type: ignore[arg-type]
    assert await accounts.create("uA", "Anu", "anu", "$argon2id$x")
    assert await accounts.create("uB", "Berta", "berta", "$argon2id$y")
    made = [
        scripted_record(seed=3, strokes=16, sets=1),
        scripted_record(seed=7, strokes=9, sets=1),
        crokinole_record(seed=2),
    ]
    for k, record in enumerate(made):
        record["id"] = f"m{k}"
        record["ended"] = record.get("ended") or 2000.0 + k
        record["rated"] = True
        for p, uid in zip(record["players"], ("uA", "uB"), strict=True):
            p["account"] = uid
        rated = [p["account"] for p in record["players"]] if is_rated(record) else []
        done = await history.archive(record, rated, rating_mode_of(record), planner(record))
        assert done is not None
    await db.close()

    # the backup, as docs/accounts.md says: pg_dump's custom format, then pg_restore
    dump = tmp_path / "novuss.dump"
    subprocess.run(
        [str(pg_bin("pg_dump")), "-h", str(pg_server.folder), "-U", "postgres", "-Fc",
         "-f", str(dump), pg_server.name(url)],
        check=True, timeout=120,
    )  # fmt: skip
    target = pg_server.empty()
    subprocess.run(
        [str(pg_bin("pg_restore")), "-h", str(pg_server.folder), "-U", "postgres",
         "--exit-on-error", "--no-owner", "-d", pg_server.name(target), str(dump)],
        check=True, timeout=120,
    )  # fmt: skip
    restored = Database(target)
    await restored.open()  # the restored schema is at the latest version: nothing to apply
    try:
        reader = ArchiveReader(restored)
        mids = [r["mid"] for r in await restored.pool.fetch("SELECT mid FROM matches")]
        assert sorted(mids) == ["m0", "m1", "m2"]
        for record in made:
            back = await reader.record(record["id"])
            assert back is not None
            assert strokes_of(back) == strokes_of(record)
            replay = of_record(back).replay
            assert replay is not None
            checks = list(replay.checks(back))
            judged = [c for c in checks if c.kind == "stroke"]
            assert len(judged) == len(strokes_of(record))
            assert all(c.hash_ok is True and c.ruling_ok is True for c in judged)
            assert all(c.ok for c in checks)
        restored_history = HistoryStore(None, restored)  # type: ignore[arg-type]
        skills = await restored_history.skills(["uA", "uB"], "singles")
        assert skills["uA"][2] == 2 and skills["uB"][2] == 2  # the two Novuss matches
        assert len(await restored_history.rating_history("uA", "singles", 10)) == 2
        total, listed = await restored_history.matches_of("uA", 0, 10)
        assert total == 3 and sorted(listed) == ["m0", "m1", "m2"]
        version = await restored.pool.fetchval("SELECT max(version) FROM schema_migrations")
        assert version == len(list((Path(__file__).parents[2] / "server/store/migrations")
                                   .glob("*.sql")))  # fmt: skip
    finally:
        await restored.close()
