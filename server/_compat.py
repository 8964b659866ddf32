"""Old import paths kept for code outside this repository (issue 31 moved the games under
server/games and the competitions' table under server/competitions): `alias` makes the old
name and each of its submodules the very same module objects as the new ones, so classes
compare equal whichever path imported them."""

from __future__ import annotations

import importlib
import pkgutil
import sys


def alias(old: str, new: str) -> None:
    """Register `new` and every module under it again under `old`."""
    package = importlib.import_module(new)
    sys.modules[old] = package
    for info in pkgutil.walk_packages(getattr(package, "__path__", []), prefix=new + "."):
        module = importlib.import_module(info.name)
        sys.modules[old + info.name[len(new) :]] = module
