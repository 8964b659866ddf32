"""The arrows point one way: net -> cluster router -> lobby -> match -> rules -> sim, with the
store below (docs/architecture.md, "The parts"). A module may import only from its own layer
and the layers its layer is allowed to reach; this reads every import of every module."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# package -> the server packages its modules may import (besides their own)
ALLOWED: dict[str, set[str]] = {
    "server.games.novuss.sim": set(),
    "server.games.novuss.rules": {"server.games.novuss.sim"},
    "server.games.crokinole": {"server.games.novuss.sim"},
    "server.games.crokinole.bot": {"server.games.crokinole", "server.games.novuss.sim"},
    "server.games.novuss.match": {"server.games.novuss.rules", "server.games.novuss.sim"},
    "server.games.crokinole.match": {
        "server.games.crokinole",
        "server.games.novuss.match",
        "server.games.novuss.sim",
    },
    "server.store": set(),
    "server.accounts": set(),
    "server.ratings": set(),
    "server.replay": {"server.games.novuss.rules", "server.games.novuss.sim"},
    "server.competitions.table": {"server.games.novuss.rules"},
    "server.games.novuss.bot": {"server.games.novuss.rules", "server.games.novuss.sim"},
    "server.lessons": {
        "server.games.novuss.match",
        "server.games.novuss.rules",
        "server.games.novuss.sim",
    },
    "server.history": {"server.ratings", "server.store"},
    "server.lobby": {
        "server.games.crokinole.match",
        "server.games.novuss.match",
        "server.ratings",
        "server.games.novuss.rules",
        "server.games.novuss.sim",
        "server.store",
    },
    # the competitions service: the pure table, rooms made through the lobby, Redis
    "server.competitions": {
        "server.competitions.table",
        "server.lobby",
        "server.store",
        "server.games.novuss.match",
        "server.games.novuss.rules",
        "server.games.novuss.sim",
        "server.games.crokinole.match",
        "server.ratings",
    },
    "server.cluster": {
        "server.lobby",
        "server.games.novuss.match",
        "server.games.novuss.rules",
        "server.games.novuss.sim",
        "server.store",
    },
}


def layer_of(module: str) -> str | None:
    """The layer a module belongs to (the longest prefix among ALLOWED), or None."""
    hits = [name for name in ALLOWED if module == name or module.startswith(name + ".")]
    return max(hits, key=len) if hits else None


def server_imports(path: Path) -> set[str]:
    """Every server.* module a source file imports (type-checking imports included)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {m for m in found if m == "server" or m.startswith("server.")}


def modules() -> list[tuple[str, Path]]:
    out = []
    for path in sorted((ROOT / "server").rglob("*.py")):
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        out.append((name, path))
    return out


def violations(module: str, imported: set[str]) -> list[str]:
    """The imports of `module` that reach above or beside its layer."""
    layer = layer_of(module)
    if layer is None:  # net, app, config, the entry point: the top may import anything
        return []
    allowed = ALLOWED[layer] | {layer}
    return sorted(m for m in imported if layer_of(m) not in allowed)


@pytest.mark.parametrize("module,path", modules(), ids=[m for m, _ in modules()])
def test_a_module_imports_only_the_layers_below_it(module: str, path: Path) -> None:
    wrong = violations(module, server_imports(path))
    assert not wrong, f"{module} imports {wrong}, above or beside its layer"


def test_the_layer_check_catches_an_upward_import(tmp_path: Path) -> None:
    bad = tmp_path / "remote.py"
    bad.write_text("from server.net.protocol import encode\nimport server.lobby.room\n")
    imported = server_imports(bad)
    assert imported == {"server.net.protocol", "server.lobby.room"}
    assert violations("server.cluster.remote", imported) == ["server.net.protocol"]
    assert violations("server.games.novuss.rules.judge", {"server.games.novuss.match"}) == [
        "server.games.novuss.match"
    ]
    assert violations("server.net.hub", imported) == []
