"""The JavaScript modules a page of the web client loads, by walking the static imports from
its module script (through the page's import map): what its `<link rel="modulepreload">`
lines must name, so that the browser fetches them all at once rather than one import level
per round trip (docs/client.md, "First load").

    .venv/bin/python scripts/module_graph.py web/index.html      # the links to paste
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

WEB = Path(__file__).resolve().parents[1] / "web"
IMPORT = re.compile(
    r"""^\s*(?:import|export)\s[^;]*?from\s*["']([^"']+)["']|^\s*import\s*["']([^"']+)["']""",
    re.M,
)
SCRIPT = re.compile(r"""<script type="module" src="([^"]+)"></script>""")
IMPORTMAP = re.compile(r"""<script type="importmap">(.*?)</script>""", re.S)


def page_modules(page: Path) -> list[str]:
    """The URL paths of every module `page` loads, in a stable order (breadth first)."""
    html = page.read_text()
    mapped = IMPORTMAP.search(html)
    imports: dict[str, str] = json.loads(mapped.group(1))["imports"] if mapped else {}
    queue = SCRIPT.findall(html)
    seen: list[str] = []
    while queue:
        url = queue.pop(0)
        if url in seen:
            continue
        seen.append(url)
        text = (WEB / url.lstrip("/")).read_text()
        for a, b in IMPORT.findall(text):
            spec = a or b
            if spec in imports:
                queue.append(imports[spec])
            elif spec.startswith("."):
                base = url.rsplit("/", 1)[0]
                parts: list[str] = []
                for part in f"{base}/{spec}".split("/"):
                    if part == "..":
                        parts.pop()
                    elif part not in (".", ""):
                        parts.append(part)
                queue.append("/" + "/".join(parts))
    return seen


def preloaded(page: Path) -> list[str]:
    """The modules `page` names in its modulepreload links."""
    return re.findall(r"""<link rel="modulepreload" href="([^"]+)">""", page.read_text())


if __name__ == "__main__":
    for name in sys.argv[1:] or ["web/index.html"]:
        path = Path(name)
        for url in page_modules(path)[1:]:  # the module script itself is requested anyway
            print(f'  <link rel="modulepreload" href="{url}">')
