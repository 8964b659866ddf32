"""What a player may be called: a name others can read and tell apart (docs/protocol.md,
"Names").

A name is shown to everyone at the table, so it must be visible and mean what it shows: it
is normalised (NFC, runs of spaces made one), and refused if it holds control or format
characters (zero-width joiners, direction overrides), characters that draw nothing (the
Hangul fillers, the Braille blank, other spaces than the plain one, and every other code
point Unicode calls default-ignorable: the variation selectors, the combining grapheme
joiner, the Khmer inherent vowels), more than two combining marks on one letter (stacks
that spill over the lines around them), or no letter or digit at all. A guest may not be
called as the house is (the computer, a deleted player, "admin": `HOUSE`), nor end the
name in a number in brackets, which reads as a rating. Two people in one room may still
choose the same name: the room shows each beside their seat or role (a watcher is never
shown as a player).

A guest may not take a registered player's username, nor one that reads the same (`skeleton`:
"Аili" with a Cyrillic А, "ＡＩＬＩ" in full width): the session refuses it `name_taken`
(server/net/sessions.py). Usernames are ASCII (server/accounts/policy.py), so the look-alikes
that matter are the letters of other scripts drawn as Latin ones.
"""

from __future__ import annotations

import re
import unicodedata

from server.accounts.policy import RESERVED

NAME_MAX = 24  # characters, after normalisation
MARKS_MAX = 2  # combining marks on one base character (Vietnamese needs two)

# Letters (category Lo) that draw nothing: a name made of them looks empty or like another.
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
_REFUSED_CATEGORIES = frozenset(("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"))
# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt) outside the refused
# categories: marks and letters that render as nothing, so "mallory1" + U+FE0F reads as
# "mallory1".
_IGNORABLE = (
    (0x034F, 0x034F), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFFA0, 0xFFA0), (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)  # fmt: skip
_SPACES = re.compile(" +")
# What the house is called, in the three languages of the client: the computer's seat
# ("Computer (level 3)") and a deleted account's matches, refused with anything after them;
# those of the usernames nobody may register (server/accounts/policy.py) that speak for the
# house, refused as the whole name ("Guest" or "Root beer" may be anyone's).
HOUSE_PREFIXES = ("computer", "arvuti", "dators", "bot", "deleted player", "kustutatud mängija",
                  "dzēsts spēlētājs")  # fmt: skip
HOUSE = RESERVED & {"admin", "administrator", "moderator", "referee", "staff", "support", "system"}
_HOUSE_LIKE = re.compile(
    "(?:" + "|".join(map(re.escape, HOUSE_PREFIXES)) + r")(?:\W|$)"
    "|(?:" + "|".join(map(re.escape, sorted(HOUSE))) + ")$"
)
_RATING_INSIDE = frozenset(" .,'’?_-")  # what may stand beside the digits of "(1,712?)"


# Letters of other scripts drawn as Latin ones (Unicode's confusables.txt, the Cyrillic and
# Greek that pass for a-z in the usual fonts), folded as the skeleton of a name is made.
_LATIN_LOOKS = str.maketrans(
    "аеорсухіјѕԁɡһԛԝіӏ" "οαυντκιρχεϲ" "ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ" "АВЕКМНОРСТХІЈЅӀ" "ıɩℓ" "|ǀ׀∣│",
    "aeopcyxijsdghqwil" "oauvtkipxec" "abezhikmnoptyx" "abekmhopctxijsl" "iil" "lllll",
)  # fmt: skip


def skeleton(name: str) -> str:
    """What a name reads as, to tell it from a username: compatibility forms folded (NFKC:
    full width, ligatures), look-alike letters of other scripts as Latin (before the case is
    folded: a Cyrillic М looks like M, its lower case м like no Latin letter), the case."""
    return unicodedata.normalize("NFKC", name).translate(_LATIN_LOOKS).casefold()


class BadName(ValueError):
    """A name that is refused; the message says why (for the `bad_field` error)."""


def clean_name(raw: str) -> str:
    """The name as it is kept and shown, or BadName."""
    name = _SPACES.sub(" ", unicodedata.normalize("NFC", raw).strip())
    if not 1 <= len(name) <= NAME_MAX:
        raise BadName(f"must be 1 to {NAME_MAX} characters")
    for c in name:
        category = unicodedata.category(c)
        if category in _REFUSED_CATEGORIES:
            raise BadName("must not contain control or invisible characters")
        if c in _BLANK_LETTERS or (category == "Zs" and c != " ") or _ignorable(c):
            raise BadName("must not contain invisible characters or special spaces")
    if stacked_marks(name):
        raise BadName(f"at most {MARKS_MAX} combining marks on one letter")
    if unicodedata.category(name[0]) in ("Mn", "Me", "Mc"):
        raise BadName("must start with a letter, digit or sign")
    if not any(unicodedata.category(c)[0] in "LN" for c in name):
        raise BadName("must hold a letter or a digit")
    if _ends_like_a_rating(unicodedata.normalize("NFKC", name)):
        raise BadName("must not end in a number in brackets (it would read as a rating)")
    if _HOUSE_LIKE.match(" ".join(re.split(r"[\s_-]+", skeleton(name)))):
        raise BadName("must not be the computer's, a deleted player's or the house's")
    return name


def stacked_marks(text: str) -> bool:
    """More than MARKS_MAX combining marks on one character, composed or not."""
    marks = 0
    for c in unicodedata.normalize("NFD", text):
        marks = marks + 1 if unicodedata.category(c) in ("Mn", "Me") else 0
        if marks > MARKS_MAX:
            return True
    return False


def _ignorable(c: str) -> bool:
    code = ord(c)
    return any(lo <= code <= hi for lo, hi in _IGNORABLE)


def _ends_like_a_rating(name: str) -> bool:
    """A rating as the client shows it beside a registered player's name, "Anna (1712)",
    "(1500?)", or near it, "⟮1,712⟯": brackets of any kind (categories Ps, Pe) around three
    or more digits with nothing but separators beside them. A guest named so would pass for
    a rated member (issue 37)."""
    name = name.rstrip()
    if not name or unicodedata.category(name[-1]) != "Pe":
        return False
    start = len(name) - 2
    while start >= 0 and unicodedata.category(name[start]) != "Ps":
        start -= 1
    inside = name[start + 1 : -1]
    if start < 0 or sum(c.isdigit() for c in inside) < 3:
        return False
    return all(c.isdigit() or c in _RATING_INSIDE for c in inside)
