"""The computer is pure: it reaches only the referee, the physics and the games' shared
pieces (no network, store or lobby), so it can run anywhere, a worker process included."""

from __future__ import annotations

from pathlib import Path

from tests.architecture.test_layers import server_imports

ROOT = Path(__file__).resolve().parents[2]


def test_the_bot_imports_only_rules_sim_and_the_shared_core():
    files = sorted((ROOT / "server" / "games" / "novuss" / "bot").glob("*.py"))
    assert files
    for path in files:
        outside = {
            m
            for m in server_imports(path)
            if not m.startswith(
                (
                    "server.games.novuss.bot",
                    "server.games.novuss.rules",
                    "server.games.novuss.sim",
                    "server.games.core",
                )
            )
        }
        assert not outside, f"{path.name} imports {sorted(outside)}"
