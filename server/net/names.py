"""What a player may be called: a name others can read and tell apart (docs/protocol.md,
"Names").

A name is shown to everyone at the table, so it must be visible and mean what it shows: it
is normalised (NFC, runs of spaces made one), and refused if it holds control or format
characters (zero-width joiners, direction overrides), characters that draw nothing (the
Hangul fillers, the Braille blank, other spaces than the plain one), more than two
combining marks on one letter (stacks that spill over the lines around them), or no letter
or digit at all. Two people in one room may still choose the same name: the room shows each
beside their seat or role (a watcher is never shown as a player).

A guest may not take a registered player's username, nor one that reads the same (`skeleton`:
"Аili" with a Cyrillic А, "ＡＩＬＩ" in full width): the session refuses it `name_taken`
(server/net/sessions.py). Usernames are ASCII (server/accounts/policy.py), so the look-alikes
that matter are the letters of other scripts drawn as Latin ones.
"""

from __future__ import annotations

import re
import unicodedata

NAME_MAX = 24  # characters, after normalisation
MARKS_MAX = 2  # combining marks on one base character (Vietnamese needs two)

# Letters (category Lo) that draw nothing: a name made of them looks empty or like another.
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
_REFUSED_CATEGORIES = frozenset(("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"))
_SPACES = re.compile(" +")
# A rating as the client shows it beside a registered player's name, "Anna (1712)" or
# "(1500?)": a guest named so would pass for a rated member (issue 37). Any brackets and
# digits of any script are folded to ASCII first (NFKC: "（１７１２）" is the same).
_RATING_LIKE = re.compile(r"[(\[{]\s*\d{3,4}\s*\??\s*[)\]}]\s*$")


# Letters of other scripts drawn as Latin ones (Unicode's confusables.txt, the Cyrillic and
# Greek that pass for a-z in the usual fonts), folded as the skeleton of a name is made.
_LATIN_LOOKS = str.maketrans(
    "аеорсухіјѕԁɡһԛԝіӏ" "οαυντκιρχεϲ" "ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ" "АВЕКМНОРСТХ" "ıɩℓ",
    "aeopcyxijsdghqwil" "oauvtkipxec" "abezhikmnoptyx" "abekmhopctx" "iil",
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
        if c in _BLANK_LETTERS or (category == "Zs" and c != " "):
            raise BadName("must not contain invisible characters or special spaces")
    marks = 0
    for c in unicodedata.normalize("NFD", name):  # marks counted whether composed or not
        marks = marks + 1 if unicodedata.category(c) in ("Mn", "Me") else 0
        if marks > MARKS_MAX:
            raise BadName(f"at most {MARKS_MAX} combining marks on one letter")
    if unicodedata.category(name[0]) in ("Mn", "Me", "Mc"):
        raise BadName("must start with a letter, digit or sign")
    if not any(unicodedata.category(c)[0] in "LN" for c in name):
        raise BadName("must hold a letter or a digit")
    if _RATING_LIKE.search(unicodedata.normalize("NFKC", name)):
        raise BadName("must not end in a number in brackets (it would read as a rating)")
    return name
