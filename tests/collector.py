"""What a request leaves to the cycle collector: a refusal raised and kept in a frame makes a
reference cycle that holds the whole request until the next collection (issue 37's floods)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

from aiohttp import web


@contextmanager
def requests_left_to_the_collector() -> Iterator[list[object]]:
    """The requests and HTTP exceptions that only the collector freed, of those made inside
    the block: the list is filled as the block ends."""
    left: list[object] = []
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)  # what the collector frees is kept, to be looked at
    try:
        yield left
        gc.collect()
        left += [o for o in gc.garbage if isinstance(o, (web.BaseRequest, web.HTTPException))]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
