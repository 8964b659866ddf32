"""Same inputs, same bits: twice, in a second process, and in both engines."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

from server.games.novuss.sim import COMPETITION, COMPILED, simulate
from server.games.novuss.sim.engines import Engine
from tools.scenarios import mixed_strokes

ROOT = Path(__file__).resolve().parents[2]


def _digest(count: int, engine: Engine = "cython") -> str:
    h = hashlib.sha256()
    for pucks, shot in mixed_strokes(11, count):
        h.update(simulate(COMPETITION, pucks, shot, engine).state_hash().encode())
    return h.hexdigest()


def test_engine_in_use_is_the_compiled_extension() -> None:
    assert COMPILED


def test_same_thousand_strokes_give_the_same_hashes_twice_and_in_a_new_process() -> None:
    first = _digest(1000)
    assert _digest(1000) == first
    code = "from tests.sim.test_determinism import _digest; print(_digest(1000))"
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == first


def test_cython_core_and_python_twin_agree_bit_for_bit() -> None:
    for pucks, shot in mixed_strokes(23, 60):
        fast = simulate(COMPETITION, pucks, shot, "cython")
        twin = simulate(COMPETITION, pucks, shot, "python")
        assert fast.events == twin.events
        assert fast.final == twin.final
        assert fast.trajectory == twin.trajectory
        assert fast.state_hash() == twin.state_hash()
