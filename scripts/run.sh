#!/usr/bin/env bash
# Install what the product needs and run it: the game server with the web client,
# on an embedded Redis unless --redis-url is given. Extra arguments go to the server.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup-env.sh base
exec .venv/bin/python -m server "$@"
