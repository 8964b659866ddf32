"""Fixtures of the hardening tests: the server tests' websocket client is shared (tests/server),
and every client a test opens is closed at its end."""

from __future__ import annotations

from tests.server.server_client import close_clients_after_each_test  # noqa: F401 (autouse fixture)
