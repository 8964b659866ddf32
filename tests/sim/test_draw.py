"""The picture command writes an SVG of a stroke."""

from __future__ import annotations

from pathlib import Path

from tools.novuss_draw import main


def test_draw_writes_an_svg_with_paths_and_contact_marks(tmp_path: Path) -> None:
    out = tmp_path / "stroke.svg"
    main(["--out", str(out)])
    svg = out.read_text()
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert "<polyline" in svg  # paths
    assert 'stroke="#e01010"' in svg  # a disc-disc contact mark
    assert 'stroke="#f1c40f"' in svg  # the pocketed puck


def test_draw_takes_a_seeded_break(tmp_path: Path) -> None:
    out = tmp_path / "break.svg"
    main(["--out", str(out), "--scenario", "break", "--seed", "3"])
    assert out.read_text().count("<polyline") >= 3
