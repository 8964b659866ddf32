#!/usr/bin/env bash
# Write .env (read by docker compose) with fresh secrets, once: the Redis password, the
# PostgreSQL password and the key the game servers seal their bus messages with. An existing
# .env is kept as it is, but given what it lacks.
set -euo pipefail
cd "$(dirname "$0")/.."
secret() { python3 -c 'import secrets; print(secrets.token_urlsafe(32))'; }
if [ -f .env ]; then
  if ! grep -q '^NOVUSS_DB_PASSWORD=' .env; then
    echo "NOVUSS_DB_PASSWORD=$(secret)" >> .env
    echo ".env exists: kept, and given the PostgreSQL password"
  else
    echo ".env exists: kept"
  fi
  exit 0
fi
umask 077
{
  echo "NOVUSS_REDIS_PASSWORD=$(secret)"
  echo "NOVUSS_BUS_KEY=$(secret)"
  echo "NOVUSS_DB_PASSWORD=$(secret)"
} > .env
echo "wrote .env (Redis and PostgreSQL passwords and bus key for docker compose)"
