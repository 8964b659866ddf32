"""A request's JSON object read whole, within a size and a time.

`request.content.read(n)` gives what has arrived so far, so a body sent in two pieces was read
as half a body ("not JSON"); and a body sent slowly held its connection, and at the door a slot
kept for requests in hand (issue 37), for as long as the sender liked. Every API that takes a
JSON body reads it here, and answers a refusal in its own format."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from aiohttp import web

BODY_SECONDS = 10.0
"""How long a body may take to arrive, once its request's head has."""


class BodyRefused(Exception):
    """A body not taken: `status` (400, 408, 413) and an English sentence for logs."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


async def json_object(
    request: web.Request, max_bytes: int, seconds: float = BODY_SECONDS
) -> dict[str, Any]:
    """The body, a JSON object of at most `max_bytes` (an empty body: {}); BodyRefused if it
    is not JSON, too large, not an object, or slower than `seconds`."""
    if request.content_type != "application/json":
        raise BodyRefused(400, "Send JSON (Content-Type: application/json).")
    raw = b""
    try:
        async with asyncio.timeout(seconds):
            while len(raw) <= max_bytes and (
                piece := await request.content.read(max_bytes + 1 - len(raw))
            ):
                raw += piece
    except TimeoutError:
        raise BodyRefused(408, "The request's body was too slow.") from None
    if len(raw) > max_bytes:
        raise BodyRefused(413, "The request is too large.")
    try:
        body = json.loads(raw or b"{}")
    except ValueError:
        raise BodyRefused(400, "The body is not JSON.") from None
    if not isinstance(body, dict):
        raise BodyRefused(400, "The body is a JSON object.")
    return body
