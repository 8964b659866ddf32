"""Extract the rule book's paragraphs the referee cites into web/rules/rules.json.

The rules page (web/rules.html) shows them, each under its anchor (p-24-1, p-24-1-8,
s000-5), so that a ruling's "why" can link to the paragraph it rests on. Seed 004 in
Estonian (the original) and English (the translation in koroona-rules-en.md); seed 000
(the international rules in English) for the few cites that rest on it. There is no
Latvian text of 004: the page shows the English with a note.

Run from the repository's root after a referee change that cites a new paragraph:

    .venv/bin/python scripts/extract_rules.py [--shared /work/shared]

tests/rules/test_rules_text.py fails when a cite has no paragraph in the output.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from server.games.novuss.rules.cites import Ref, cites_in, parse_cite  # noqa: E402

OUT = ROOT / "web" / "rules" / "rules.json"

Node = dict[str, Any]


def referee_cites() -> list[str]:
    """Every cite written in server/games/novuss/rules, sorted."""
    found: set[str] = set()
    for path in sorted((ROOT / "server" / "games" / "novuss" / "rules").glob("*.py")):
        found.update(cites_in(path.read_text(encoding="utf-8")))
    return sorted(found)


def _clean(text: str) -> str:
    """Markdown emphasis out; the text stays plain (the page sets it as text)."""
    return re.sub(r"\*{1,2}([^*]+)\*{1,2}", r"\1", text).strip()


def _paragraph(sec: Node, n: int, first: str) -> Node:
    """Paragraph n of a section, opened with its first line. § 27 numbers two paragraphs
    (6) (both texts do): the second goes on the first, as the referee cites them as one."""
    para: Node | None = sec["paragraphs"].get(n)
    if para is None:
        para = {"text": [first], "points": {}}
        sec["paragraphs"][n] = para
    else:
        para["text"].append(first)
    return para


def parse_estonian(text: str) -> dict[int, Node]:
    """Seed 004 in Estonian: § -> {title, paragraphs: {n: {text, points: {k: text}}}}."""
    sections: dict[int, Node] = {}
    sec: Node | None = None
    para: Node | None = None
    point: list[str] | None = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        m = re.match(r"^§\s*(\d+)[.,]\s*(.*)$", line)
        if m:
            sec = {"title": m.group(2).strip(), "paragraphs": {}}
            sections[int(m.group(1))] = sec
            para = point = None
            continue
        if sec is None:
            continue
        if re.match(r"^[IVX]+ ", line):  # a chapter's heading ends the section
            sec = para = point = None
            continue
        m = re.match(r"^-?\s*\((\d+)\)\s*(.*)$", line)
        if m:
            para = _paragraph(sec, int(m.group(1)), m.group(2))
            point = None
            continue
        m = re.match(r"^-\s*(\d+)\)\s*(.*)$", line)
        if m and para is not None:
            point = [m.group(2)]
            para["points"][int(m.group(1))] = point
            continue
        body = re.sub(r"^-\s*", "", line)
        if point is not None:
            point.append(body)
        elif para is not None:
            para["text"].append(body)
    return sections


def parse_english(text: str) -> dict[int, Node]:
    """The English translation (koroona-rules-en.md), in the same shape."""
    sections: dict[int, Node] = {}
    sec: Node | None = None
    para: Node | None = None
    point: list[str] | None = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        m = re.match(r"^###\s*§\s*(\d+)\.\s*(.*?)\s*(\([^)]*\))?$", line)
        if m:
            sec = {"title": m.group(2).strip(), "paragraphs": {}}
            sections[int(m.group(1))] = sec
            para = point = None
            continue
        if line.startswith("#") or line == "---":
            sec = para = point = None
            continue
        if sec is None:
            continue
        m = re.match(r"^\*\*\((\d+)\)\*\*\s*(.*)$", line)
        if m:
            para = _paragraph(sec, int(m.group(1)), m.group(2))
            point = None
            continue
        m = re.match(r"^-\s*\*\*(\d+)\)\*\*\s*(.*)$", line)
        if m and para is not None:
            point = [m.group(2)]
            para["points"][int(m.group(1))] = point
            continue
        if point is not None:
            point.append(line)
        elif para is not None:
            para["text"].append(line)
    return sections


def parse_seed_000(text: str) -> dict[int, Node]:
    """Seed 000 (English): numbered sections of bullet points."""
    sections: dict[int, Node] = {}
    sec: Node | None = None
    for raw in text.splitlines():
        line = raw.strip()
        m = re.match(r"^(\d+)\.\s+(.*)$", line)
        if m:
            sec = {"title": m.group(2).strip(), "text": []}
            sections[int(m.group(1))] = sec
            continue
        if sec is None or not line or line == "GO TO TOP":
            continue
        sec["text"].append(re.sub(r"^-\s*", "", line))
    return sections


def _join(lines: list[str]) -> str:
    return "\n".join(_clean(x) for x in lines if _clean(x))


def build(shared: Path) -> dict[str, Any]:
    """The page's data: the cited §§ of 004 (every cited paragraph, whole, with its points)
    in Estonian and English, and the cited sections of 000 in English."""
    et = parse_estonian(next((shared / "seeds").glob("004_*.txt")).read_text(encoding="utf-8"))
    en = parse_english((shared / "rules" / "koroona-rules-en.md").read_text(encoding="utf-8"))
    s000 = parse_seed_000(next((shared / "seeds").glob("000_*.txt")).read_text(encoding="utf-8"))
    refs: list[Ref] = [r for c in referee_cites() for r in parse_cite(c)]
    wanted: dict[int, set[int] | None] = {}  # § -> its paragraphs (None: all of them)
    for r in refs:
        if r.doc != "004":
            continue
        have = wanted.get(r.section, set())
        if r.paragraph is None:
            wanted[r.section] = None
        elif have is not None:
            wanted[r.section] = have | {r.paragraph}
    out_004: list[Node] = []
    for s in sorted(wanted):
        paras = sorted(wanted[s] or et[s]["paragraphs"])
        items = []
        for p in paras:
            pe, pn = et[s]["paragraphs"][p], en[s]["paragraphs"][p]
            points = [
                {
                    "id": Ref("004", s, p, k).anchor,
                    "n": k,
                    "et": _join(pe["points"][k]),
                    "en": _join(pn["points"].get(k, [])),
                }
                for k in sorted(pe["points"])
            ]
            items.append(
                {
                    "id": Ref("004", s, p).anchor,
                    "n": p,
                    "et": _join(pe["text"]),
                    "en": _join(pn["text"]),
                    "points": points,
                }
            )
        out_004.append(
            {
                "id": Ref("004", s).anchor,
                "n": s,
                "title": {"et": et[s]["title"], "en": en[s]["title"]},
                "paragraphs": items,
            }
        )
    out_000 = [
        {
            "id": Ref("000", n).anchor,
            "n": n,
            "title": {"en": s000[n]["title"]},
            "en": _join(s000[n]["text"]),
        }
        for n in sorted({r.section for r in refs if r.doc == "000"})
    ]
    return {
        "generated_by": "scripts/extract_rules.py",
        "sources": {
            "004": {
                "et": "EKML koroonamängu võistlusmäärused (seed 004), the Estonian original",
                "en": "Koroona (Novuss) competition rules: English translation",
            },
            "000": {"en": "Novuss rules (seed 000), in English"},
        },
        "004": out_004,
        "000": out_000,
    }


def main() -> None:
    """Write web/rules/rules.json from the shared rule texts."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    data = build(args.shared)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    n = sum(len(s["paragraphs"]) for s in data["004"])
    print(f"{args.out}: {len(data['004'])} §§ of 004 ({n} paragraphs), {len(data['000'])} of 000")


if __name__ == "__main__":
    main()
