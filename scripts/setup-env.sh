#!/usr/bin/env bash
# Sourced by run.sh and test.sh: make .venv hold the project (with its Cython core
# compiled), web/node_modules hold the client's libraries and web/dist its build. Idempotent and quick
# when nothing changed. Usage: source scripts/setup-env.sh base|test
# (always name one: a sourced script sees the caller's arguments when given none).
set -euo pipefail
EXTRAS="${1:-base}"
[ "$EXTRAS" = base ] && EXTRAS=""
PY="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
spec="."
[ -n "$EXTRAS" ] && spec=".[$EXTRAS]"
stamp=".venv/.installed-$(cat pyproject.toml setup.py | sha1sum | cut -c1-12)-${EXTRAS:-base}"
if [ ! -f "$stamp" ]; then
  # uv installs what pip does in a third of the time (a fresh clone's set-up: 25 s with pip,
  # 9 s with uv: docs/testing.md, "How long"); pip itself where uv cannot be had.
  if .venv/bin/pip install -q uv; then
    .venv/bin/uv pip install -q --python .venv/bin/python -e "$spec"
  else
    .venv/bin/pip install -q --upgrade pip && .venv/bin/pip install -q -e "$spec"
  fi
  touch "$stamp"
else
  # Recompile the collision core if its source changed since the last build (an install
  # has just built it).
  .venv/bin/python setup.py -q build_ext --inplace >/dev/null
fi
if [ -f web/package.json ]; then
  if [ ! -d web/node_modules ] || [ web/package-lock.json -nt web/node_modules ]; then
    (cd web && npm ci --no-audit --no-fund --loglevel=error)
  fi
  # The client's build (web/dist, served in place of the sources while it is theirs; a moment
  # when nothing changed: docs/client.md, "Types, lint and build").
  (cd web && node build.mjs >/dev/null)
fi
