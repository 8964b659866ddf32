"""Every code of a message the server sends a player to read is listed for the client's
catalogs (server/messages.py), the list the client's tests read is current, and every line
the referee emits has a known code with exactly its arguments (issue 19)."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

from server.accounts.errors import ACCOUNT_ERRORS
from server.games.novuss.rules import MatchConfig, judge_absent, judge_pass, judge_resign, new_match
from server.games.novuss.rules.lines import TEMPLATES, WORDS, Line, render
from server.games.novuss.rules.state import Mode
from server.messages import ERROR_CODES, REFUSAL_REASONS, codes_json
from tools.novuss_play import play_match

ROOT = Path(__file__).resolve().parents[2]
RAISES = re.compile(r"\b(ProtocolError|MatchRefused|LobbyError)\(\s*\"([a-z_]+)\"")
REFUSES = re.compile(r"\b(StrokeRefused|ShotRefused)\(\s*\"([a-z_]+)\"")
# Raised while a Crokinole game is set up from its options, never as a stroke's reason.
OPTION_CODES = {
    "players",
    "seat",
    "target",
    "free_order_needs_doubles",
    "conventional_needs_two_sides",
}


def test_the_catalog_codes_file_is_current():
    """web/js/i18n/codes.json is what `python -m server.messages` writes now."""
    path = ROOT / "web" / "js" / "i18n" / "codes.json"
    assert path.read_text() == codes_json(), (
        "run: python -m server.messages > web/js/i18n/codes.json"
    )


def test_every_error_code_and_refusal_the_server_raises_is_listed():
    source = "\n".join(p.read_text() for p in (ROOT / "server").rglob("*.py"))
    raised = {m[1] for m in RAISES.findall(source)} | set(
        re.findall(r'"code": "([a-z_]+)"', source)
    )
    raised -= set(TEMPLATES)  # ruling data, not errors
    assert raised <= set(ERROR_CODES), raised - set(ERROR_CODES)
    refused = {m[1] for m in REFUSES.findall(source)} - OPTION_CODES
    assert refused <= set(REFUSAL_REASONS), refused - set(REFUSAL_REASONS)


def test_every_refusal_of_the_account_api_is_listed_with_its_reasons():
    """The account page words each refusal by its code and reason (issue 36: they were
    shown in English whatever the page's language): none is raised that is not listed."""
    source = "\n".join(p.read_text() for p in (ROOT / "server").rglob("*.py"))
    raised = set(re.findall(r'AccountError\(\s*"([a-z_]+)"', source))
    raised |= set(re.findall(r'"error": "([a-z_]+)"', (ROOT / "server/edge/origin.py").read_text()))
    assert raised == set(ACCOUNT_ERRORS)
    for code in ("bad_username", "weak_password"):
        for block in re.findall(rf'AccountError\(\s*"{code}".*?\)', source, re.S):
            reason = re.search(r'reason="([a-z_]+)"', block)
            assert reason and reason[1] in ACCOUNT_ERRORS[code], block


def test_every_code_is_documented_in_the_protocol():
    doc = (ROOT / "docs" / "protocol.md").read_text()
    for code in (*ERROR_CODES, *TEMPLATES):
        assert f"`{code}`" in doc, code


def test_every_line_the_referee_emits_has_a_known_code_and_its_arguments():
    """Whole matches of scripted strokes (singles and doubles: a Line refuses an unknown
    code or arguments when it is made, so a match played to its end emitted none), passes
    and cautions, an absence and a resignation: every line is a Line of a known code with
    its arguments, and renders in English."""
    seen: set[str] = set()
    lines: list[Line] = []
    runs: tuple[tuple[Mode, int], ...] = (
        ("singles", 1),
        ("singles", 7),
        ("doubles", 3),
        ("doubles", 11),
    )
    for mode, seed in runs:
        out: list[str] = []
        state = play_match(
            MatchConfig(mode=mode, sets=2), seed=seed, out=out.append, max_strokes=300
        )
        assert state.strokes > 0 and any("stroke" in text for text in out)
    rng = random.Random(5)
    modes: tuple[Mode, ...] = ("singles", "doubles")
    for mode in modes:
        state = new_match(MatchConfig(mode=mode, sets=2), first_team=rng.randrange(2))
        for _ in range(12):
            if state.finished:
                break
            assert state.turn_seat is not None
            r = judge_pass(state, state.turn_seat)
            lines.extend(r.lines)
            state = r.state
        start = new_match(MatchConfig(mode=mode, sets=2), first_team=0)
        lines.extend(judge_absent(start, 1).lines)
        lines.extend(judge_resign(start, 0).lines)
    for ln in lines:
        assert isinstance(ln, Line)
        assert ln.code in TEMPLATES
        assert set(ln.args) == set(TEMPLATES[ln.code][0])
        assert render(ln.code, ln.args) == ln.text
        seen.add(ln.code)
    assert {"penalty.pass", "caution.delay", "forfeit.absent", "forfeit.resign"} <= seen


def test_every_template_renders_for_every_word_it_may_be_given():
    for code, (names, _) in TEMPLATES.items():
        base: dict[str, Any] = {name: 2 for name in names}
        if "pucks" in names:
            base["pucks"] = (3, 12)
        variants = [base]
        for name in set(names) & set(WORDS):
            variants = [{**v, name: word} for v in variants for word in WORDS[name]]
        for args in variants:
            text = Line(code, "", args).text
            assert text and "{" not in text and "}" not in text, (code, text)
