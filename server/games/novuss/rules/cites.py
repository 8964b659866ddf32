"""The referee's citations read as references to the rule book's paragraphs.

A ruling line's `cite` names the paragraphs it rests on, in the rule book's own way:
"004 § 24 (1) 8), § 21 (3)", "004 § 21 (4), (7)-(9)", "004 § 21", "000 § 5". The client
links each cite to the paragraph's text on the rules page (web/rules.html, its text
extracted by scripts/extract_rules.py); these functions say which paragraphs a cite names
and under which anchor the page shows each, so that a test can hold every cite the
referee emits to a paragraph that is really there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# A cite's document, then its parts: "§ 21", "(4)", "(7)-(9)", "(1) 8)".
_DOC = re.compile(r"^\s*(\d{3})\s+(.*)$")
_TOKEN = re.compile(r"§\s*(\d+)|\((\d+)\)(?:\s*-\s*\((\d+)\))?(?:\s+(\d+)\))?")
# A cite as it stands in the referee's source: a string literal opening with its document.
_LITERAL = re.compile(r"\"(00[04] §[^\"]*)\"")


class BadCite(ValueError):
    """A cite that does not read as a document and paragraphs."""


@dataclass(frozen=True)
class Ref:
    """One paragraph named by a cite: document ("004"), § number, paragraph (None: the
    whole §), point within the paragraph (None: the whole paragraph)."""

    doc: str
    section: int
    paragraph: int | None = None
    point: int | None = None

    @property
    def anchor(self) -> str:
        """The id the rules page gives this paragraph: p-24-1-8 (004), s000-5 (seed 000)."""
        if self.doc != "004":
            return f"s{self.doc}-{self.section}"
        parts = [self.section, self.paragraph, self.point]
        return "p-" + "-".join(str(p) for p in parts if p is not None)


def parse_cite(cite: str) -> list[Ref]:
    """The paragraphs `cite` names, in order. "" (a resignation: the rule book has none)
    names none; anything that does not read as a cite raises BadCite."""
    if not cite.strip():
        return []
    m = _DOC.match(cite)
    if not m:
        raise BadCite(f"no document in {cite!r}")
    doc, rest = m.groups()
    refs: list[Ref] = []
    section: int | None = None
    pos = 0
    for tok in _TOKEN.finditer(rest):
        if rest[pos : tok.start()].strip(" ,"):
            raise BadCite(f"unreadable {rest[pos : tok.start()]!r} in {cite!r}")
        pos = tok.end()
        sec, first, last, point = tok.groups()
        if sec is not None:
            if section is not None and (not refs or refs[-1].section != section):
                refs.append(Ref(doc, section))  # "§ 21" alone before the next §
            section = int(sec)
            continue
        if section is None:
            raise BadCite(f"a paragraph before any § in {cite!r}")
        end = int(last) if last else int(first)
        for p in range(int(first), end + 1):
            refs.append(Ref(doc, section, p, int(point) if point and not last else None))
    if rest[pos:].strip(" ,"):
        raise BadCite(f"unreadable {rest[pos:]!r} in {cite!r}")
    if section is not None and (not refs or refs[-1].section != section):
        refs.append(Ref(doc, section))
    return refs


def cites_in(source: str) -> list[str]:
    """The cites written as string literals in a module's source ("004 § 20 (8)")."""
    return _LITERAL.findall(source)
