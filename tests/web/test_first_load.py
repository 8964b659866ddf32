"""The first load (docs/client.md, "First load"): the client's build is served (each page's
modules in a bundle with a content-hashed name, cached for good, the chunks it imports at once
named in modulepreload links), its text goes compressed, and a page loads the catalog of its
language only."""

from __future__ import annotations

import gzip
import re
import urllib.request
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Page

from server.edge.client_build import served_root

WEB = Path(__file__).resolve().parents[2] / "web"


def _get(url: str, gzipped: bool = False) -> tuple[bytes, dict[str, str]]:
    headers = {"Accept-Encoding": "gzip"} if gzipped else {}
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=30) as r:
        return r.read(), dict(r.headers)


def test_the_build_is_served_with_hashed_names_cached_for_good(web_server: str) -> None:
    assert served_root(WEB) == WEB / "dist"  # the fixture client_built made it
    page, headers = _get(web_server + "/")
    html = page.decode()
    assert "Cache-Control" not in headers  # the page itself is asked again each time
    entry = re.search(r'<script type="module" src="(/assets/app-[A-Z0-9]+\.js)">', html)
    assert entry is not None and "importmap" not in html
    preloads = re.findall(r'<link rel="modulepreload" href="(/assets/[^"]+)">', html)
    assert preloads and not any(re.search(r"/(en|et|lv)-", p) for p in preloads)
    for path in (entry.group(1), *preloads):
        body, headers = _get(web_server + path)
        assert headers["Cache-Control"] == "public, max-age=31536000, immutable", path
        assert body == (WEB / "dist" / path.lstrip("/")).read_bytes()
    # every page is built, and served at its own address
    for path, file in (("/learn", "learn.html"), ("/crokinole/", "crokinole/index.html")):
        assert _get(web_server + path)[0] == (WEB / "dist" / file).read_bytes()


def test_the_clients_text_is_sent_compressed(web_server: str) -> None:
    served = served_root(WEB)
    for path in ("/", "/js/app.js", "/css/app.css", "/rules/rules.json"):
        body, headers = _get(web_server + path, gzipped=True)
        assert headers["Content-Encoding"] == "gzip", path
        file = "index.html" if path == "/" else path.lstrip("/")
        plain = (served / file if (served / file).is_file() else WEB / file).read_bytes()
        assert gzip.decompress(body) == plain
        assert len(body) < len(plain) / 2, path
    # without Accept-Encoding: as it is
    body, headers = _get(web_server + "/js/app.js")
    assert headers.get("Content-Encoding") is None
    assert body == (WEB / "js" / "app.js").read_bytes()


def test_a_page_loads_the_catalog_of_its_language_only(
    web_server: str, new_page: Callable[..., Page]
) -> None:
    page = new_page(locale="lv-LV")
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url))

    def catalogs() -> set[str]:
        found = (re.search(r"/assets/(en|et|lv)-[A-Z0-9]+\.js$", u) for u in asked)
        return {m.group(1) for m in found if m}

    page.goto(web_server + "/")
    page.wait_for_selector("html[lang=lv] #lang")
    assert catalogs() == {"lv"}
    # another language: its catalog is fetched then, and the page reworded
    with page.expect_request(lambda r: bool(re.search(r"/assets/et-", r.url))):
        page.select_option("#lang", "et")
    page.wait_for_selector("html[lang=et]")
    assert catalogs() == {"lv", "et"}
