"""The security headers of every answer (issue 37: no page had any): a Content Security Policy
that lets a page run only this server's scripts and styles, load images from it, talk to it
(HTTP and the websocket), and be framed by nobody; `nosniff`; and a Referrer-Policy that
sends no address to another site; a Server header that names no software or version. The
client's only inline scripts are its pages' import maps (which cannot be files): each is
allowed by its hash, computed from the pages at start; its one inline style (the
tournament's print page) is allowed by 'unsafe-inline' for styles only
(tests/web/test_security_headers.py runs the pages under the policy in Chromium)."""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Awaitable, Callable
from pathlib import Path

from aiohttp import web

SERVER = "novuss"
"""The Server header of every answer."""
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", re.S)


def inline_hashes(web_dir: Path) -> list[str]:
    """The CSP hashes of every inline script of the client's pages."""
    found = set()
    for page in sorted(web_dir.rglob("*.html")):
        if {"node_modules", "dist.next", "dist.old"} & set(page.parts):  # (a build in progress)
            continue
        for body in INLINE_SCRIPT.findall(page.read_text(encoding="utf-8")):
            digest = base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()
            found.add(f"'sha256-{digest}'")
    return sorted(found)


def policy(web_dir: Path) -> str:
    """The Content Security Policy of this client."""
    return "; ".join([
        "default-src 'self'",
        " ".join(["script-src 'self'", *inline_hashes(web_dir)]),
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ])  # fmt: skip


def security_headers(web_dir: Path) -> Callable[[web.Request, web.StreamResponse], Awaitable[None]]:
    """on_response_prepare: every answer, errors and the websocket's upgrade included."""
    headers = {
        "Content-Security-Policy": policy(web_dir),
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "same-origin",
        "X-Frame-Options": "DENY",  # frame-ancestors for browsers older than CSP 2
    }

    async def add(request: web.Request, response: web.StreamResponse) -> None:
        for name, value in headers.items():
            response.headers.setdefault(name, value)
        # aiohttp's own would name its version and Python's to anybody looking for a known flaw
        response.headers["Server"] = SERVER

    return add
