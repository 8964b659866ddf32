"""The computer is pure: it reaches only the referee and the physics (no network,
store or lobby), so it can run anywhere, a worker process included."""

from __future__ import annotations

from pathlib import Path

from tests.architecture.test_layers import server_imports

ROOT = Path(__file__).resolve().parents[2]


def test_the_bot_imports_only_rules_and_sim():
    files = sorted((ROOT / "server" / "bot").glob("*.py"))
    assert files
    for path in files:
        outside = {
            m
            for m in server_imports(path)
            if not m.startswith(("server.bot", "server.rules", "server.sim"))
        }
        assert not outside, f"{path.name} imports {sorted(outside)}"
