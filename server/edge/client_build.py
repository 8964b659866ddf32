"""Which copy of the web client is served (docs/client.md, "Types, lint and build"): the build
(web/dist, written by web/build.mjs: each page's modules bundled under content-hashed names)
when it was made from the sources as they are now, else the sources themselves (slower to load,
the same client). A stale build is never served: web/dist/build.json names the fingerprint of
the sources it was made from, computed here as build.mjs computes it."""

from __future__ import annotations

import hashlib
import json
import logging
import os
from pathlib import Path

log = logging.getLogger("novuss.client")

DIST = "dist"
ASSETS = "assets"  # dist/assets: the hashed bundles, cached for a year
SKIP = frozenset({"node_modules", DIST, "dist.next", "dist.old", "tests"})  # build.mjs SKIP
IMMUTABLE = "public, max-age=31536000, immutable"
# What of web/ is the tooling's, never served (attacker review, 2026-11-28: the lock files,
# the build script, the tests and all of node_modules were): of node_modules only the
# library the pages' import map names, for the sources served unbuilt.
TOOLING = frozenset({"package.json", "package-lock.json", "build.mjs", "eslint.config.js",
                     "tsconfig.json", "README.md", "tests", "dist.next", "dist.old"})  # fmt: skip
LIBRARY = ("node_modules", "@msgpack", "msgpack", "dist.esm")


def a_client_file(rel: str) -> bool:
    """May this path under web/ (the sources, not the build) be served?"""
    parts = tuple(p for p in rel.split("/") if p not in ("", "."))
    if not parts or parts[0] in TOOLING:
        return not parts
    return parts[0] != "node_modules" or parts[: len(LIBRARY)] == LIBRARY


def source_files(web_dir: Path) -> list[str]:
    """The files a build is made of (web/build.mjs sourceFiles): the pages, the modules and
    their JSON, the libraries' lock; relative, "/"-separated, sorted as JavaScript sorts."""
    found = []
    for folder, dirs, names in os.walk(web_dir):
        here = Path(folder).relative_to(web_dir)
        if here == Path("."):
            dirs[:] = [d for d in dirs if d not in SKIP]  # node_modules is not walked
        for file in names:
            name, suffix = (here / file).as_posix(), Path(file).suffix
            module = name.startswith("js/") and suffix in (".js", ".json")
            if suffix == ".html" or module or name == "package-lock.json":
                found.append(name)
    # JavaScript's default sort compares UTF-16 code units; these names are ASCII
    return sorted(found)


def fingerprint(web_dir: Path) -> str:
    """sha256 over each source's path, NUL, content, NUL (web/build.mjs fingerprint)."""
    digest = hashlib.sha256()
    for name in source_files(web_dir):
        digest.update(name.encode() + b"\0" + (web_dir / name).read_bytes() + b"\0")
    return digest.hexdigest()


def served_root(web_dir: Path) -> Path:
    """web/dist when its build is of the sources as they are, else web/ (with a warning)."""
    dist = web_dir / DIST
    try:
        made = json.loads((dist / "build.json").read_text())
    except (OSError, ValueError):
        log.warning("web/dist is not built (cd web && node build.mjs): serving the sources")
        return web_dir
    if made.get("sources") != fingerprint(web_dir):
        log.warning("web/dist is older than the sources (cd web && node build.mjs): serving them")
        return web_dir
    return dist


def is_hashed(root: Path, target: Path) -> bool:
    """A bundle of the build: its name changes with its content, so it may be kept for good."""
    return root.name == DIST and target.is_relative_to(root / ASSETS)
