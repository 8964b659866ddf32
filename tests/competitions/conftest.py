"""Fixtures of these tests: the server tests' websocket client (tests/server) and the accounts'
HTTP client (tests/accounts) are shared; every client a test opens is closed at its end."""

from __future__ import annotations

from tests.accounts.account_client import close_http_after_each_test  # noqa: F401 (autouse fixture)
from tests.server.server_client import close_clients_after_each_test  # noqa: F401 (autouse fixture)
