"""The cluster tests use the websocket client and scripted player of tests/server."""

from __future__ import annotations

from tests.server.server_client import close_clients_after_each_test  # noqa: F401 (autouse fixture)
