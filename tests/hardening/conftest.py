"""Fixtures of the hardening tests: the server tests' websocket client is shared (tests/server),
and every client a test opens is closed at its end."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
import server_client  # (found through the path above)


@pytest.fixture(autouse=True)
async def _close_clients() -> AsyncIterator[None]:
    yield
    await server_client.close_all(*server_client.OPEN)
    server_client.OPEN.clear()
