"""The arrows point one way: the capabilities -> net -> cluster -> lobby -> the games'
registry -> each game -> the games' shared core, with the stores below (docs/architecture.md,
"Layers"). Every module of server/ has a layer, and may import only from its own and the
layers it is allowed to reach; only the composition root may import anything. This reads
every import of every module."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# The composition root builds every part with what it needs: only it may import anything.
ROOT_MODULES = {"server.__main__", "server.app", "server.hub"}

GAMES = {"server.games.core", "server.games.seam", "server.games.registry"}
LOW = {"server.store", "server.ratings", "server.recent", "server.edge", "server.config",
       "server.gc_policy", "server.heap", "server.workers", "server.wire"}  # fmt: skip
STORES = {"server.accounts.store", "server.history.store", "server.competitions.store"}
PURE_ACCOUNTS = {"server.accounts.errors", "server.accounts.passwords", "server.accounts.policy",
                 "server.accounts.barred"}  # fmt: skip
BELOW_NET = {"server.lobby", "server.cluster", *GAMES, *LOW, *STORES, *PURE_ACCOUNTS}

# layer (a package, or a module given a layer of its own) -> the layers its modules may
# import besides their own, from the bottom up: the games (pure), the stores, the lobby and
# the cluster, the transport (server/net), the capabilities on top
ALLOWED: dict[str, set[str]] = {
    "server.recent": set(),
    "server.heap": {"server.recent"},
    "server.gc_policy": {"server.recent"},
    "server.messages": {"server.games.novuss", "server.accounts.errors"},
    "server.edge": set(),
    "server.wire": set(),  # the server->client messages as types (pure)
    "server.workers": set(),  # worker processes for CPU work off the loop (lessons, replays)
    "server.config": {"server.edge"},
    "server.store": set(),
    # the archive's rows keep each ruling's digest (server/games/core/replaying.py)
    "server.store.archive": {"server.store", "server.games.core"},
    "server.ratings": set(),
    "server.games": set(),  # the package's docstring
    "server.games.core": set(),
    "server.games.seam": {"server.games.core"},
    # inside a game, the old arrows: match -> rules -> sim; the bot beside the match
    "server.games.novuss": {"server.games.core", "server.games.seam"},  # its docstring
    "server.games.novuss.sim": {"server.games.core"},
    "server.games.novuss.rules": {"server.games.novuss.sim", "server.games.core"},
    "server.games.novuss.bot": {
        "server.games.novuss.rules", "server.games.novuss.sim", "server.games.core",
    },
    "server.games.novuss.match": {
        "server.games.novuss.rules", "server.games.novuss.sim", "server.games.core",
    },
    "server.games.novuss.notation": {"server.games.novuss.rules", "server.games.core"},
    "server.games.novuss.replay": {
        "server.games.novuss.rules", "server.games.novuss.sim", "server.games.core",
        "server.games.seam",
    },
    # a game's lessons: positions of its rules, tries played through its physics and referee
    "server.games.novuss.lessons": {
        "server.games.novuss.rules", "server.games.novuss.sim", "server.games.core",
    },
    "server.games.novuss.game": {"server.games.novuss", "server.games.core", "server.games.seam"},
    "server.games.crokinole": {"server.games.core"},  # board, physics, rules, judge, lines
    "server.games.crokinole.bot": {"server.games.crokinole", "server.games.core"},
    "server.games.crokinole.match": {"server.games.crokinole", "server.games.core"},
    "server.games.crokinole.replay": {
        "server.games.crokinole", "server.games.crokinole.match", "server.games.core",
        "server.games.seam",
    },
    "server.games.crokinole.lessons": {
        "server.games.crokinole", "server.games.crokinole.match", "server.games.core",
    },
    "server.games.crokinole.game": {
        "server.games.crokinole", "server.games.core", "server.games.seam",
    },
    "server.games.registry": {
        "server.games.core", "server.games.seam", "server.games.novuss",
        "server.games.crokinole",
    },
    # the old import paths, aliases of the new ones (server/_compat.py)
    "server._compat": set(),
    "server.rules": {"server._compat"},
    "server.sim": {"server._compat"},
    "server.crokinole": {"server._compat"},
    "server.tournament": {"server._compat"},
    "server.match": {"server._compat"},
    "server.accounts.errors": set(),
    "server.accounts.barred": set(),  # addresses over a limit, kept in the process
    "server.accounts.passwords": set(),
    "server.accounts.policy": {"server.accounts.errors"},
    "server.accounts.store": {"server.store", "server.accounts.errors", "server.accounts.policy",
                              "server.accounts.passwords"},
    "server.history.store": {"server.store", "server.store.archive"},
    "server.history.summary": {*GAMES, "server.ratings", "server.history.store"},
    "server.competitions.table": {"server.games.novuss.rules"},
    "server.competitions.store": {"server.store", "server.competitions.table"},
    "server.lobby": {*GAMES, *LOW, *STORES, "server.history.summary"},
    "server.cluster": {"server.lobby", *GAMES, *LOW},
    "server.net": {*BELOW_NET},
    # the capabilities: each its service, routes and store, above the transport
    "server.accounts": {*BELOW_NET, "server.net", "server.history"},
    "server.history": {*BELOW_NET, "server.net", "server.history.summary"},
    "server.computer": {*BELOW_NET, "server.net"},
    "server.challenges": {*BELOW_NET, "server.net"},
    # every game's lessons, through the Game seam (Game.lessons)
    "server.lessons": {*BELOW_NET, "server.net"},
    "server.replay": {*BELOW_NET, "server.net"},
    "server.competitions": {*BELOW_NET, "server.net", "server.accounts", "server.history",
                            "server.competitions.table"},
    # python -m server.migrate: the schema, and Redis's records copied and replayed
    "server.migrate": {*BELOW_NET, "server.store.archive"},
}  # fmt: skip


def layer_of(module: str) -> str | None:
    """The layer a module belongs to (the longest prefix among ALLOWED), or None."""
    hits = [name for name in ALLOWED if module == name or module.startswith(name + ".")]
    return max(hits, key=len) if hits else None


def _is_module(name: str) -> bool:
    base = ROOT.joinpath(*name.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def server_imports(path: Path) -> set[str]:
    """Every server.* module a source file imports (type-checking imports included); `from
    package import module` counts as the module."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                inner = f"{node.module}.{alias.name}"
                found.add(inner if _is_module(inner) else node.module)
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
    if module in ROOT_MODULES:
        return []
    if module == "server":  # the package's docstring
        return sorted(imported)
    layer = layer_of(module)
    if layer is None:
        return [f"{module} has no layer"]
    return sorted(m for m in imported if not _within(layer_of(m), layer, ALLOWED[layer]))


def _within(target: str | None, own: str, allowed: set[str]) -> bool:
    """The module's own layer, a layer allowed, or a layer of its own inside an allowed
    package (not inside its own: a game's rules may not reach up to its match)."""
    if target is None:
        return False
    return target == own or any(target == a or target.startswith(a + ".") for a in allowed)


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
    assert violations("server.hub", imported) == []  # the composition root
    assert violations("server.net.gateway", {"server.accounts.http"}) == ["server.accounts.http"]
    assert violations("server.games.crokinole.match", {"server.games.novuss.match"}) == [
        "server.games.novuss.match"
    ]
    assert violations("server.lobby.room", {"server.games.registry"}) == []
    assert violations("server.games.novuss.rules.judge", {"server.games.novuss.match"}) == [
        "server.games.novuss.match"
    ]


def test_every_module_has_a_layer() -> None:
    missing = [m for m, _ in modules() if m not in ROOT_MODULES and m != "server"
               and layer_of(m) is None]  # fmt: skip
    assert not missing, f"modules with no layer: {missing}"
