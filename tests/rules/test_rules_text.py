"""Every paragraph the referee can cite is on the rules page (web/rules/rules.json, written
by scripts/extract_rules.py), in Estonian and English, so a ruling's "why" link always
lands on its text; and the cites read as the paragraphs they name."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from server.games.novuss.rules.cites import BadCite, Ref, cites_in, parse_cite
from server.games.novuss.rules.lines import TEMPLATES

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "web" / "rules" / "rules.json"
CLIENT_CITES = ROOT / "web" / "js" / "puck-rules.js"


def referee_cites() -> list[str]:
    """The cites written in server/games/novuss/rules: every one a line, a refusal or a set's end
    uses."""
    found: set[str] = set()
    for path in sorted((ROOT / "server" / "games" / "novuss" / "rules").glob("*.py")):
        found.update(cites_in(path.read_text(encoding="utf-8")))
    return sorted(found)


def anchors() -> dict[str, dict[str, Any]]:
    """Every anchored block of the rules page: §, paragraph, point, seed 000 section."""
    data = json.loads(RULES.read_text(encoding="utf-8"))
    out: dict[str, dict[str, Any]] = {}
    for sec in data["004"]:
        out[sec["id"]] = sec
        for p in sec["paragraphs"]:
            out[p["id"]] = p
            for q in p["points"]:
                out[q["id"]] = q
    for sec in data["000"]:
        out[sec["id"]] = sec
    return out


def test_the_referee_cites_many_paragraphs() -> None:
    cites = referee_cites()
    # the lines' codes are many and each cites; a scan that found few would prove nothing
    assert len(cites) >= 40, cites
    assert len(TEMPLATES) >= 40
    assert "004 § 24 (1) 8), § 21 (3)" in cites
    assert "000 § 5" in cites


@pytest.mark.parametrize("cite", referee_cites())
def test_every_cite_has_its_paragraph_on_the_rules_page(cite: str) -> None:
    have = anchors()
    refs = parse_cite(cite)
    assert refs, cite
    for ref in refs:
        block = have.get(ref.anchor)
        assert block is not None, f"{cite}: no {ref.anchor} on the rules page"
        if ref.doc == "004" and ref.paragraph is not None:
            # 004 in its Estonian original and in English
            assert block["et"].strip() and block["en"].strip(), ref.anchor
        else:
            assert block.get("paragraphs") or block.get("en"), ref.anchor


def test_the_client_puck_explanation_cites_paragraphs_on_the_page() -> None:
    # web/js/puck-rules.js cites as the referee does (pressing a puck, docs/client.md)
    source = CLIENT_CITES.read_text(encoding="utf-8")
    cites = cites_in(source)
    assert len(cites) >= 4, cites
    have = anchors()
    for cite in cites:
        for ref in parse_cite(cite):
            assert ref.anchor in have, f"{cite}: no {ref.anchor}"


def test_the_blind_puck_paragraph_is_the_rule_book_s() -> None:
    # 004 § 21 (1): blind unless the line is seen through the hole, in both languages
    p = anchors()["p-21-1"]
    assert "piirjoon" in p["et"] and "suluseib" in p["et"]
    assert "visible" in p["en"] and "blind" in p["en"]
    assert "rebound" in anchors()["p-21-3-1"]["en"]


@pytest.mark.parametrize(
    ("cite", "refs"),
    [
        ("004 § 24 (1) 8), § 21 (3)", [Ref("004", 24, 1, 8), Ref("004", 21, 3)]),
        ("004 § 21 (4), (7)-(9)", [Ref("004", 21, p) for p in (4, 7, 8, 9)]),
        ("004 § 21", [Ref("004", 21)]),
        ("004 § 27 (5), (6), § 28 (7)", [Ref("004", 27, 5), Ref("004", 27, 6), Ref("004", 28, 7)]),
        ("000 § 8", [Ref("000", 8)]),
        ("", []),
    ],
)
def test_a_cite_reads_as_its_paragraphs(cite: str, refs: list[Ref]) -> None:
    assert parse_cite(cite) == refs


def test_anchors_are_the_page_s_ids() -> None:
    assert Ref("004", 24, 1, 8).anchor == "p-24-1-8"
    assert Ref("004", 21, 3).anchor == "p-21-3"
    assert Ref("004", 21).anchor == "p-21"
    assert Ref("000", 5).anchor == "s000-5"


@pytest.mark.parametrize("bad", ["§ 21 (1)", "004 (1)", "004 § 21 (x)", "004 § 21 and more"])
def test_a_cite_that_does_not_read_is_refused(bad: str) -> None:
    with pytest.raises(BadCite):
        parse_cite(bad)
