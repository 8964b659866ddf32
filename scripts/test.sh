#!/usr/bin/env bash
# Install what the tests need (Python packages, Chromium for the browser tests, the
# client's npm libraries) and run lint, the Python tests, the client's unit tests, its type
# check and its lint.
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
# The Python side's lint and types on one core, the client's unit tests, type check (web/
# tsconfig.json, with the protocol's types generated from the server's: web/js/protocol.d.ts)
# and lint (web/eslint.config.js) on the other.
client_checks() {
  if [ -d web/tests ]; then
    (cd web && node --test tests/)
  fi
  (cd web && npx --no-install tsc -p . && npx --no-install eslint .)
}
client_log="$(mktemp)"
client_checks >"$client_log" 2>&1 &
client=$!
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy
client_rc=0
wait "$client" || client_rc=$?
cat "$client_log"
rm -f "$client_log"
[ "$client_rc" -eq 0 ]
if [ "$#" -gt 0 ]; then
  exec .venv/bin/python -m pytest -q "$@"
fi
# Two pytest runs side by side, each with its own Redis and servers: the browser tests, which
# mostly wait on Chromium, and the rest on three xdist workers, which mostly wait on their
# servers (a worker takes whole files, so a file's tests share their servers; each worker has
# its own Redis and ports). One process each, they took 14 minutes. With two workers the
# rest ended 100 s after the browser tests and the two cores were not always busy; with
# three, both end together and the cores are (docs/testing.md, "How long").
web_log="$(mktemp)"
trap 'rm -f "$web_log"' EXIT
.venv/bin/python -m pytest -q -p no:cacheprovider -m "not alone" tests/web >"$web_log" 2>&1 &
web=$!
rest=0
.venv/bin/python -m pytest -q -n 3 --dist loadfile --durations=15 --ignore=tests/web \
  -m "not alone" || rest=$?
browser=0
wait "$web" || browser=$?
echo "--- the browser tests (tests/web):"
cat "$web_log"
# The tests that race a process's real time or CPU time, once the runs above no longer load
# the machine (on a loaded one a search could finish between two looks of the hang watch).
alone=0
echo "--- the tests that run alone:"
.venv/bin/python -m pytest -q -p no:cacheprovider -m alone || alone=$?
[ "$rest" -eq 0 ] && [ "$browser" -eq 0 ] && [ "$alone" -eq 0 ]
