"""Who may act through this server's HTTP and websocket: requests from its own pages only.

A page on another site can make a browser open our websocket or POST to us with the
player's login cookie attached (SameSite=Lax still sends it on a websocket upgrade). Browsers
always send `Origin` on those, so a request whose Origin is not this server's own (its Host,
or one of --allowed-origins) is refused. A request without Origin comes from a program, not
a page, and carries no victim's cookie: it is let through. State-changing HTTP requests must
also be JSON, which a cross-site form cannot send without the browser asking first.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from aiohttp import web


def allowed_origins(option: str) -> frozenset[str]:
    """The extra origins an operator allows (comma-separated `scheme://host[:port]`)."""
    return frozenset(o.strip().rstrip("/").lower() for o in option.split(",") if o.strip())


def foreign_origin(request: web.Request, extra: frozenset[str]) -> str | None:
    """The request's Origin if it is neither this server's own nor allowed; else None."""
    origin = request.headers.get("Origin")
    if origin is None:
        return None
    normal = origin.strip().rstrip("/").lower()
    if normal in extra:
        return None
    host = urlsplit(normal).netloc
    return None if host and host == (request.host or "").lower() else origin


def refuse_foreign(request: web.Request, extra: frozenset[str]) -> None:
    """Raise 403 for a request from another site's page."""
    if foreign_origin(request, extra) is not None:
        raise web.HTTPForbidden(
            text='{"error": "foreign_origin", "message": "Requests from other sites are refused."}',
            content_type="application/json",
        )


def is_secure(request: web.Request, behind_trusted_proxy: bool) -> bool:
    """Was the request made over TLS (here, or at a trusted proxy in front)?"""
    if request.secure:
        return True
    return behind_trusted_proxy and request.headers.get("X-Forwarded-Proto", "") == "https"
