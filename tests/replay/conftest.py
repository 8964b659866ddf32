"""Fixtures of these tests: the server tests' websocket client (tests/server) and the accounts'
HTTP client (tests/accounts) are shared; every client a test opens is closed at its end."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "accounts"))
from account_client import close_http_after_each_test  # noqa: F401 (autouse fixture; found through the path above)
from server_client import close_clients_after_each_test  # noqa: F401 (autouse fixture; found through the path above)
