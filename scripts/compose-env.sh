#!/usr/bin/env bash
# Write .env (read by docker compose) with fresh secrets, once: the Redis password and the
# key the game servers seal their bus messages with. An existing .env is kept as it is.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -f .env ]; then
  echo ".env exists: kept"
  exit 0
fi
secret() { python3 -c 'import secrets; print(secrets.token_urlsafe(32))'; }
umask 077
{
  echo "NOVUSS_REDIS_PASSWORD=$(secret)"
  echo "NOVUSS_BUS_KEY=$(secret)"
} > .env
echo "wrote .env (Redis password and bus key for docker compose)"
