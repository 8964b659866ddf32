"""The first load (docs/client.md, "First load"): the client's text goes compressed, and the
lobby's page names every module it imports in a modulepreload link (so they are fetched at
once, not one import level per round trip), no more and no fewer."""

from __future__ import annotations

import gzip
import urllib.request
from pathlib import Path

from scripts.module_graph import page_modules, preloaded

WEB = Path(__file__).resolve().parents[2] / "web"


def test_the_lobby_and_learn_preload_exactly_the_modules_it_imports() -> None:
    page = WEB / "index.html"
    modules = page_modules(page)
    assert modules[0] == "/js/app.js" and "/js/i18n/lv.js" in modules
    assert any(m.startswith("/node_modules/@msgpack/") for m in modules)
    assert sorted(preloaded(page)) == sorted(modules[1:])
    learn = WEB / "learn.html"
    assert sorted(preloaded(learn)) == sorted(page_modules(learn)[1:])


def test_the_clients_text_is_sent_compressed(web_server) -> None:
    for path in ("/", "/js/app.js", "/css/app.css", "/rules/rules.json"):
        req = urllib.request.Request(web_server + path, headers={"Accept-Encoding": "gzip"})
        with urllib.request.urlopen(req, timeout=30) as r:
            body = r.read()
            assert r.headers["Content-Encoding"] == "gzip", path
        plain = (WEB / ("index.html" if path == "/" else path.lstrip("/"))).read_bytes()
        assert gzip.decompress(body) == plain
        assert len(body) < len(plain) / 2, path
    # without Accept-Encoding: as it is
    with urllib.request.urlopen(web_server + "/js/app.js", timeout=30) as r:
        assert r.headers.get("Content-Encoding") is None
        assert r.read() == (WEB / "js" / "app.js").read_bytes()
