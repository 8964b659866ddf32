"""Faults: the server SIGKILLed again and again mid-match, Redis restarted during play, a player
dropping mid-motion. Every match resumes and finishes; no stroke a client was told of is
missing from the record, none is there twice, no client sees a seq gap.

The players are bench.soak's resilient ones: they reconnect with their token and resume from
their last seq, as the web client does.
"""

from __future__ import annotations

import asyncio
import math
import random
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.ports import start_redis
from bench.soak import Player, Stats, check_record, seat_match
from server.games.crokinole.board import TOURNAMENT
from server.games.crokinole.judge import aim
from server.games.crokinole.rules import quadrant_centre
from tests.server.server_client import Msg, get_json
from tests.waits import until

KILLS = 6


def health(url: str) -> Msg:
    return get_json(url + "/healthz")


async def reconnect_all(players: list[Player]) -> None:
    """Every player back: hello with its token, resume from its last seq."""
    await asyncio.gather(*(p.connect() for p in players))


def assert_nothing_lost(url: str, mids: list[str], stats: Stats, finished: bool = True) -> int:
    """Check every match's record against what clients were told; returns the strokes."""
    strokes = sum(check_record(url, mid, stats, finished) for mid in mids)
    assert stats.lost == 0, "a stroke some client was told of is missing from its record"
    assert stats.duplicates == 0, "a stroke is in a record twice"
    assert stats.gaps == 0, "a client missed an event"
    assert stats.errors == 0, (stats.error_codes, stats.samples)
    return strokes


@pytest.mark.slow  # 20 s or more
async def test_sigkill_again_and_again_every_match_resumes(game_server):
    srv = game_server(speed_factor=10, grace_seconds=60)
    stats = Stats()
    matches = [await seat_match(srv.url, "singles", stats, f"k{i}") for i in range(2)]
    players = [p for m in matches for p in m]
    mids = [m[0].mid for m in matches]
    games = [asyncio.create_task(p.play(timeout=240)) for p in players]
    rng = random.Random(6)
    for _ in range(KILLS):
        # mid-motion, mid-commit, at rest: anywhere
        await asyncio.sleep(rng.uniform(0.2, 2.0))  # the subject: a kill at a random moment
        srv.kill()
        await asyncio.to_thread(srv.start)
        await reconnect_all(players)
    await asyncio.gather(*games)
    assert all(p.phase == "over" for p in players)
    strokes = assert_nothing_lost(srv.url, [m for m in mids if m], stats)
    assert strokes > KILLS and stats.resumes == KILLS * len(players)
    for p in players:
        await p.close()


# -- the same in a Crokinole room ----------------------------------------------------------
class CrokinolePlayer(Player):
    """bench.soak's resilient player, shooting Crokinole discs: from a free spot on the
    shooting line of its quadrant (002 5) at the 20-hole, stopping a little short or long."""

    async def strike(self) -> None:
        assert self.seat is not None
        b, r = self.table, self.table["shooting_radius"]
        cx, cy = b["centre"]
        mid = quadrant_centre(2 * self.seat if len(self.sides) == 2 else self.seat)
        for k in range(36):  # the first spot no disc covers (002 5: on no disc)
            a = mid + math.radians(-35.0 + (7 * k + 13 * self.strikes) % 70)
            x, y = cx + r * math.cos(a), cy + r * math.sin(a)
            clear = 2.0 * b["disc_radius"] + 0.5
            if all(math.hypot(d["x"] - x, d["y"] - y) >= clear for d in self.discs):
                break
        slide = -120.0 + (37.0 * self.strikes) % 160.0
        angle, speed = aim(x - cx, y - cy, 0.0, 0.0, slide, TOURNAMENT.decel)
        self.phase, self.refused = "sent", None
        self.strikes += 1
        await self.send("strike", x=x, y=y, angle=angle, speed=speed)


async def until_in_flight(players: list[Player], timeout: float = 10.0) -> bool:
    """Wait until a shot is in flight (some player saw its `stroke`); False if none came."""

    def moving_or_over() -> str | None:
        if any(p.phase == "motion" for p in players):
            return "motion"
        return "over" if all(p.phase == "over" for p in players) else None

    try:  # polled often: a shot's motion is short
        state: str = await until(moving_or_over, timeout, "a shot", every=0.005)
        return state == "motion"
    except AssertionError:  # none in time: killed wherever play is
        return False


@pytest.mark.slow  # 20 s or more
async def test_sigkill_mid_shot_in_a_crokinole_room_resumes_from_the_checkpoint(game_server):
    srv = game_server(speed_factor=4, grace_seconds=60)
    stats = Stats()
    players = await seat_match(
        srv.url, "singles", stats, "ck", game="crokinole", kind=CrokinolePlayer
    )
    mid = players[0].mid
    assert mid is not None
    games = [asyncio.create_task(p.play(timeout=240)) for p in players]
    rng = random.Random(18)
    mid_shot = 0
    for _ in range(KILLS):
        await asyncio.sleep(rng.uniform(0.1, 1.0))  # the subject: a kill at a random moment
        mid_shot += await until_in_flight(players)  # the disc sliding: killed mid-shot
        srv.kill()
        await asyncio.to_thread(srv.start)
        await reconnect_all(players)
    await asyncio.gather(*games)
    assert all(p.phase == "over" for p in players)
    strokes = assert_nothing_lost(srv.url, [mid], stats)
    record = get_json(f"{srv.url}/api/matches/{mid}")
    shots = [e for e in record["log"] if e["kind"] == "stroke"]
    assert record["game"] == "crokinole" and strokes == len(shots) == 4 * 16  # 002 1, 4 f
    print(f"\n{mid_shot} of {KILLS} kills with a shot in flight")
    assert mid_shot >= KILLS - 1 and stats.resumes == KILLS * len(players)
    for p in players:
        await p.close()


# -- Redis restarted under a live match ------------------------------------------------
class RedisProcess:
    """A redis-server of our own (AOF, fsync always) that can be stopped and started again on
    the same port and directory."""

    OPTIONS = ("--appendonly", "yes", "--appendfsync", "always")

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.port: int | None = None  # its first start's, kept by every restart
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc, self.port = start_redis(self.workdir, *self.OPTIONS, port=self.port)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            self.proc.wait(timeout=10)


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[RedisProcess]:
    redis = RedisProcess(tmp_path)
    redis.start()
    yield redis
    redis.stop()


async def test_redis_restarted_during_play_loses_nothing(game_server, own_redis):
    srv = game_server(speed_factor=10, grace_seconds=60)
    srv.stop()  # the same server, on our own Redis that we may restart
    srv.redis_url = own_redis.url
    await asyncio.to_thread(srv.start)
    stats = Stats()
    players = await seat_match(srv.url, "singles", stats, "r")
    mid = players[0].mid
    assert mid is not None
    games = [asyncio.create_task(p.play(timeout=240)) for p in players]
    for outage in (1.0, 2.5):
        await more_strokes(stats, mid, 2, "play before the outage")
        own_redis.stop()
        # strokes, rulings, clocks go on meanwhile (or wait)
        await asyncio.sleep(outage)  # the subject: Redis away this long
        own_redis.start()
    await asyncio.gather(*games)
    state = health(srv.url)
    assert state["store_errors"] > 0, "the outage was noticed"
    assert state["unsaved_rooms"] == 0 and state["redis"] == "ok", "and caught up"
    assert_nothing_lost(srv.url, [mid], stats)
    for p in players:
        await p.close()


async def test_a_player_dropping_mid_motion_slows_nobody(game_server):
    srv = game_server(speed_factor=2, grace_seconds=60)
    stats = Stats()
    a, b = await seat_match(srv.url, "singles", stats, "d")
    lags = []
    for _ in range(3):
        striker = a if a.my_turn() else b
        other = b if striker is a else a
        while not striker.my_turn():
            striker.changed.clear()
            await asyncio.wait_for(striker.changed.wait(), 10)
        await striker.strike()
        while striker.phase != "motion":
            striker.changed.clear()
            await asyncio.wait_for(striker.changed.wait(), 10)
        t0 = time.monotonic()
        await other.close()  # gone while the discs move
        while striker.phase == "motion":
            striker.changed.clear()
            await asyncio.wait_for(striker.changed.wait(), 20)
        assert striker.stroke is not None
        lags.append(time.monotonic() - t0 - striker.stroke["duration"] / 2)
        await other.connect()  # back, resumed
        await other.barrier()
    assert max(lags) < 1.0, f"the ruling came late: {lags}"
    assert a.last == b.last and a.discs == b.discs
    assert a.mid is not None
    assert_nothing_lost(srv.url, [a.mid], stats, finished=False)
    await a.close()
    await b.close()


async def more_strokes(stats: Stats, mid: str, n: int, what: str) -> None:
    """Until the players have seen n more strokes of the match struck (play has gone on)."""

    def answered() -> int:
        return len(stats.answered.get(mid, set()))

    seen = answered()
    await until(lambda: answered() >= seen + n, 60, what)


# -- two servers racing for one room ------------------------------------------------------
async def keep_connected(p: Player) -> None:
    """Reconnect (and resume) whenever the server closes the socket, until the match is over."""
    while p.phase != "over":
        if p.reader is None or p.reader.done():
            await p.connect()
        else:
            await asyncio.wait({p.reader})  # until the server closes it


async def test_an_owner_paused_past_its_lease_cannot_write_after_the_takeover(game_cluster):
    """The room's owner is frozen (SIGSTOP, as a long GC pause or a VM stall) past its lease:
    the other server takes the room over and the match goes on there; when the first wakes up
    with its stale copy, its writes are fenced off. The record has every stroke once."""
    owner, other = game_cluster(2, speed_factor=10, grace_seconds=60)
    stats = Stats()
    players = await seat_match(owner.url, "singles", stats, "f")
    mid = players[0].mid
    games = [asyncio.create_task(p.play(timeout=240)) for p in players]
    assert mid is not None
    await more_strokes(stats, mid, 2, "play under the first owner")
    assert owner.proc is not None
    owner.proc.send_signal(signal.SIGSTOP)
    try:
        # the lease runs out; the other takes over
        await until(lambda: health(other.url)["rooms"], 20, "the room taken over")
        for p in players:  # the clients give up on the frozen server and go to the other
            p.url, p.ws_url = other.url, other.ws_url
        await reconnect_all(players)
        watch = [asyncio.create_task(keep_connected(p)) for p in players]
        # play goes on there while the owner is still frozen
        await more_strokes(stats, mid, 2, "play at the other server")
    finally:
        owner.proc.send_signal(signal.SIGCONT)
    await asyncio.gather(*games)
    for task in watch:
        task.cancel()
    # the woken owner notices it lost the room
    await until(lambda: health(owner.url)["rooms"] == 0, 20, "the woken owner letting go")
    assert health(owner.url)["rooms"] == 0, "the woken owner let go of the room"
    strokes = assert_nothing_lost(other.url, [mid], stats)
    assert strokes > 0
    for p in players:
        await p.close()
