"""The collision core the games share: exact times of disc-disc and disc-rail contact for
discs decelerating on a board, and the event-driven stepping of one shot to rest
(collision.py, compiled by Cython; collision.pxd declares its C types).

Both games' physics drive it: Novuss's square table (server/games/novuss/sim) and
Crokinole's round board (server/games/crokinole/physics.py). It knows no table and no rule.

    from server.games.core import CORE, COMPILED, python_core
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from server.games.core import collision as CORE

COMPILED = not str(getattr(CORE, "__file__", "")).endswith(".py")
"""True when the core is the built extension (it should always be)."""


def python_core() -> ModuleType:
    """collision.py executed as plain Python (the twin), loaded on first use: it needs
    Cython's pure-Python shadow module, which a server running only the compiled engine
    can do without. The agreement tests compare the two bit for bit."""
    name = "server.games.core._collision_python"
    if name in sys.modules:
        return sys.modules[name]
    path = Path(__file__).with_name("collision.py")
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


__all__ = ["COMPILED", "CORE", "python_core"]
