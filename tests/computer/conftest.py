"""Every websocket client a test opens is closed at its end, pass or fail."""

from tests.server.server_client import close_clients_after_each_test  # noqa: F401 (autouse fixture)
