"""One log line per bad request (issue 37: an over-long request line logged a whole traceback
each time, so a client could fill the log at will): aiohttp's "Error handling request" for a
request that could not be parsed becomes one warning naming the client and what was wrong."""

from __future__ import annotations

import logging

from aiohttp.http_exceptions import HttpProcessingError


class BadRequestLine(logging.Filter):
    """On aiohttp.server: a parse error's record made one line, without its traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, HttpProcessingError):
            remote = record.args[0] if isinstance(record.args, tuple) and record.args else "?"
            record.msg = "bad request from %s: %s %s"
            record.args = (remote, exc.code, str(exc.message)[:120])
            record.exc_info = record.exc_text = None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def install() -> None:
    """Put the filter on aiohttp's server logger."""
    logging.getLogger("aiohttp.server").addFilter(BadRequestLine())
