"""Every websocket client a test opens is closed at its end, pass or fail."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import server_client


@pytest.fixture(autouse=True)
async def _close_clients() -> AsyncIterator[None]:
    yield
    await server_client.close_all(*server_client.OPEN)
    server_client.OPEN.clear()
