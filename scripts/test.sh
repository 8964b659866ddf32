#!/usr/bin/env bash
# Install what the tests need (Python packages, Chromium for the browser tests, the
# client's npm libraries) and run lint, the Python tests and the client's unit tests.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  fi
fi
source scripts/setup-env.sh test
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy
if [ -d web/tests ]; then
  (cd web && node --test tests/)
fi
.venv/bin/python -m pytest -q "$@"
