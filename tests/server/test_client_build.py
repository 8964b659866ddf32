"""Which copy of the client the server serves (server/edge/client_build.py): the build only
while it is of the sources as they are, so a changed module is never hidden by an old bundle;
the server and web/build.mjs agree on the sources' fingerprint."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

from server.edge.client_build import fingerprint, served_root, source_files

WEB = Path(__file__).resolve().parents[2] / "web"


def _node_fingerprint(web: Path) -> str:
    script = "import('./build.mjs').then((b) => console.log(b.fingerprint()))"
    done = subprocess.run(
        ["node", "--input-type=module", "-e", script],
        cwd=web,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return done.stdout.strip()


def test_the_server_and_the_build_agree_on_the_fingerprint() -> None:
    assert _node_fingerprint(WEB) == fingerprint(WEB)
    files = source_files(WEB)
    assert "index.html" in files and "js/app.js" in files and "js/i18n/codes.json" in files
    assert not any(f.startswith(("node_modules/", "dist/", "tests/")) for f in files)


def _web(tmp_path: Path) -> Path:
    web = tmp_path / "web"
    (web / "js").mkdir(parents=True)
    (web / "index.html").write_text('<script type="module" src="/js/app.js"></script>\n')
    (web / "js" / "app.js").write_text("export const a = 1;\n")
    shutil.copy(WEB / "build.mjs", web / "build.mjs")
    return web


def test_a_build_is_served_only_while_it_is_of_the_sources(tmp_path: Path) -> None:
    web = _web(tmp_path)
    assert served_root(web) == web  # not built
    (web / "dist").mkdir()
    (web / "dist" / "build.json").write_text(json.dumps({"sources": fingerprint(web)}))
    assert served_root(web) == web / "dist"
    (web / "js" / "app.js").write_text("export const a = 2;\n")  # a module changed since
    assert served_root(web) == web
    (web / "dist" / "build.json").write_text("not json")
    assert served_root(web) == web


def _build(web: Path) -> str:
    done = subprocess.run(
        ["node", "build.mjs"], cwd=web, capture_output=True, text=True, timeout=300, check=True
    )
    return done.stdout


def test_the_build_finds_every_pages_entry_and_splits_the_catalogs(tmp_path: Path) -> None:
    web = _web(tmp_path)
    (web / "node_modules").symlink_to(WEB / "node_modules")
    (web / "js" / "i18n").mkdir()
    (web / "js" / "shared.js").write_text("export const shared = () => 'shared';\n")
    (web / "js" / "i18n" / "lv.js").write_text("export default { hello: 'Sveiki' };\n")
    (web / "js" / "app.js").write_text(
        'import { shared } from "./shared.js";\n'
        'export const words = () => import("./i18n/lv.js");\n'
        "console.log(shared());\n"
    )
    # a page added in a folder of its own, its entry's attributes in another order, relative
    (web / "new").mkdir()
    (web / "new" / "page.html").write_text('<script src="../js/other.js" type="module"></script>\n')
    (web / "js" / "other.js").write_text('import { shared } from "./shared.js";\nshared();\n')
    assert "2 pages" in _build(web)
    index = (web / "dist" / "index.html").read_text()
    page = (web / "dist" / "new" / "page.html").read_text()
    assert re.search(r'<script type="module" src="/assets/app-[A-Z0-9]+\.js"></script>', index)
    assert re.search(r'<script type="module" src="/assets/other-[A-Z0-9]+\.js"></script>', page)
    preloaded = re.findall(r'<link rel="modulepreload" href="/assets/([^"]+)">', index)
    assert len(preloaded) == 1 and preloaded[0].startswith("chunk-")  # shared.js, with other.js
    assets = {p.name.split("-")[0] for p in (web / "dist" / "assets").glob("*.js")}
    assert "lv" in assets  # the catalog: a chunk of its own, loaded when asked for
    assert not any("lv-" in p for p in preloaded)
    made = json.loads((web / "dist" / "build.json").read_text())
    assert made["sources"] == fingerprint(web) and served_root(web) == web / "dist"
    assert "up to date" in _build(web)
