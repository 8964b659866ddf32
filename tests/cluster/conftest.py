"""The cluster tests use the websocket client and scripted player of tests/server."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

from server_client import close_clients_after_each_test  # noqa: F401 (autouse fixture; found through the path above)
