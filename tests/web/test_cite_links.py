"""A ruling's "why" link lands on the paragraph the referee cites: the client's anchor for
every cite server/games/novuss/rules can emit (web/js/puck-rules.js citeAnchor, run in node) is the
first paragraph server/games/novuss/rules/cites.py reads in it, and the rules page has it."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from server.games.novuss.rules.cites import parse_cite
from tests.rules.test_rules_text import anchors, referee_cites

SCRIPT = Path(__file__).with_name("cite_anchor.mjs")


def client_anchors(cites: list[str]) -> list[str | None]:
    """citeAnchor of each cite, as the browser computes it."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    out = subprocess.run(
        [node, str(SCRIPT)], input=json.dumps(cites), capture_output=True, text=True, check=True
    )
    found: list[str | None] = json.loads(out.stdout)
    return found


def test_the_client_links_each_cite_to_its_first_paragraph() -> None:
    cites = referee_cites()
    have = anchors()
    got = client_anchors(cites)
    for cite, anchor in zip(cites, got, strict=True):
        assert anchor == parse_cite(cite)[0].anchor, cite
        assert anchor in have, f"{cite}: the page has no {anchor}"


def test_an_empty_cite_links_nowhere() -> None:
    assert client_anchors(["", "no cite"]) == [None, None]
