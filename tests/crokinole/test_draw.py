"""The drawn-shot picture of the round board."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from tools.crokinole_draw import main


def test_the_picture_shows_the_board_the_pegs_and_the_paths(tmp_path: Path) -> None:
    out = tmp_path / "shot.svg"
    main(["--out", str(out), "--seed", "2"])
    root = ET.parse(out).getroot()
    ns = "{http://www.w3.org/2000/svg}"
    assert len([c for c in root.iter(ns + "circle") if c.get("class") == "peg"]) == 8
    assert len(list(root.iter(ns + "polyline"))) >= 1
