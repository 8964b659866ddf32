"""The referee's lines as codes with arguments, and their English rendering.

Each line of a ruling is a `Line`: a stable `code`, its `args` (seats, teams, puck ids,
counts, a few fixed words to choose between: never names, which the client fills in from
the room) and `cite`, the paragraph it rests on. Clients render a line from its code in
the player's language (web/js/i18n/); the server keeps one English rendering, from the
templates below, for its CLI, logs and the match records.

Templates use a small subset of ICU MessageFormat, the same the client reads:
`{name}`, `{name, plural, one {...} other {...}}` (with `#` for the number and `=0`-style
exact cases), `{name, select, a {...} other {...}}`. Apostrophes are plain text.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

Arg = int | float | str | tuple[int, ...]

# code -> (its arguments, its English template). An argument's name says its kind: `seat`
# a seat, `team` a team, `pucks` puck ids, `whose` / `rail` a word chosen from a fixed set,
# anything else a number.
_WHOSE = (
    "{whose, select, none {touched no puck}"
    " own {first touched {n, plural, one {their own puck} other {# of their own pucks at the"
    " same time}}}"
    " opponent {first touched {n, plural, one {an opponent's puck} other {# of the opponents'"
    " pucks at the same time}}}"
    " other {first touched their own and an opponent's puck at the same time}}"
)
TEMPLATES: dict[str, tuple[tuple[str, ...], str]] = {
    # -- the kind of stroke and its first touch, 004 § 21
    "stroke.direct": (("whose", "n"), "Direct stroke; the striker " + _WHOSE),
    "stroke.rebound": (
        ("rail", "whose", "n"),
        "Rebound stroke from {rail, select, opposite {the opposite rail} other {a side rail}};"
        " the striker " + _WHOSE,
    ),
    # -- penalty pucks, 004 § 24 (1)
    "penalty.direct_touched_none": (
        (),
        "Penalty puck: on a direct stroke the striker touched none of their pucks",
    ),
    "penalty.all_blind_short": (
        (),
        "Penalty puck: all their pucks are blind and the striker did not reach the opposite rail",
    ),
    "penalty.direct_first_opponent": (
        (),
        "Penalty puck: on a direct stroke the striker first touched an opponent's puck",
    ),
    "penalty.direct_first_both": (
        (),
        "Penalty puck: on a direct stroke the striker first touched their own and an"
        " opponent's puck at the same time",
    ),
    "penalty.direct_own_blind": (
        (),
        "Penalty puck: they hit their own blind puck with a direct stroke",
    ),
    "penalty.first_in_own_zone": (
        (),
        "Penalty puck: the striker first touched a puck in their own edge zone",
    ),
    "penalty.rebound_touched_none": (
        (),
        "Penalty puck: on a rebound the striker touched none of their pucks, and they had"
        " pucks outside the blind zones",
    ),
    "penalty.rebound_first_opponent": (
        (),
        "Penalty puck: on a rebound the striker first touched an opponent's puck while they"
        " had pucks outside the blind zones",
    ),
    "penalty.side_rebound_all_blind": (
        (),
        "Penalty puck: all their pucks are blind, and after the side rail the striker touched"
        " neither their own puck nor the opposite rail first",
    ),
    "penalty.striker_pocketed": ((), "Penalty puck: the striker fell into a hole"),
    "penalty.striker_off": ((), "Penalty puck: the striker went over the rail"),
    "penalty.opponent_over_rail": (
        (),
        "Penalty puck: a direct stroke at an opponent's puck sent it over the rail",
    ),
    "penalty.pass": ((), "Penalty puck: they declined to strike"),
    "penalty.clock": (
        ("seconds",),
        "Penalty puck: no stroke within {seconds, plural, one {# second} other {# seconds}}",
    ),
    "faults.one_penalty": ((), "One penalty puck for all the faults of one stroke"),
    "debt.placed": (
        ("seat", "n"),
        "{n, plural, one {A penalty puck is} other {# penalty pucks are}} placed for {seat} in"
        " the edge zone opposite them, as near the middle line as the pucks allow",
    ),
    "debt.placed_owed": (
        ("seat", "n"),
        "{n, plural, one {A penalty puck} other {# penalty pucks}} owed by {seat}"
        " {n, plural, one {is} other {are}} placed in the edge zone opposite them, as near the"
        " middle line as the pucks allow",
    ),
    "debt.owed": (
        ("seat", "n"),
        "{seat} owes {n, plural, one {# penalty puck} other {# penalty pucks}} for now",
    ),
    # -- the strike right, 004 § 25 (1), § 20 (8)
    "turn.passes": ((), "The strike right passes"),
    "turn.none_in": ((), "None of their pucks went in: the turn passes"),
    "turn.opponent_in": ((), "An opponent's puck went in with their own: the turn passes"),
    "turn.over_rail": ((), "A puck went over the rail: the turn passes"),
    "turn.crossed_line": (
        (),
        "The striker came back over its own edge-zone line: the turn passes",
    ),
    "turn.again": ((), "Their puck went in: they strike again"),
    "turn.debt_placed": (
        (),
        "All their side's pucks are in and the owed penalty pucks are placed: in doubles the"
        " series does not go on, the turn passes",
    ),
    "series.answer": (
        (),
        "All their side's pucks are in before the other side has struck: the series stops and"
        " the other side answers",
    ),
    # -- where the pucks went, 004 § 20 (8), (10), (14), § 21 (4), (7)-(9), § 28 (3)
    "pucks.separated": (("pucks",), "Pucks lying on each other put side by side: {pucks}"),
    "pucks.restored": (("pucks",), "Put back where they were: {pucks}"),
    "pucks.respotted": (("pucks",), "Over the rail, put in the centre circle: {pucks}"),
    "pucks.pocketed": (("pucks",), "In the holes: {pucks}"),
    "pucks.zone_stays": (
        (),
        "An opponent's puck driven into an edge zone stays where it is (doubles)",
    ),
    # -- the end of a set, 004 § 23, § 27, § 28 (7), 000 § 5, § 8
    "set.lost.blind_knocked_out": (
        ("set", "team"),
        "Set {set} lost by {team}: two or more of their blind pucks were knocked out with a"
        " direct stroke",
    ),
    "set.lost.blind_hit_moved": (
        ("set", "team", "n"),
        "Set {set} lost by {team}: their direct stroke at their own blind puck moved"
        " {n, plural, one {another puck} other {# or more other pucks}}",
    ),
    "set.lost.last_with_penalty": (
        ("set", "team"),
        "Set {set} lost by {team}: their last puck went in with a penalty",
    ),
    "set.lost.last_with_crossing": (
        ("set", "team"),
        "Set {set} lost by {team}: their last puck went in with the striker crossing back"
        " over their own line",
    ),
    "set.won.cleared": (
        ("set", "team"),
        "Set {set} won by {team}: all their pucks are in the holes",
    ),
    "set.won.opponent_last": (
        ("set", "team"),
        "Set {set} won by {team}: the opponent's last puck went in",
    ),
    "set.won.no_answer": (
        ("set", "team"),
        "Set {set} won by {team}: the answering side did not clear the table in its first series",
    ),
    "set.annulled.both_last": (
        ("set",),
        "Set {set}: both sides' last pucks went in with one stroke: the set is replayed",
    ),
    "set.annulled.three_misses": (
        ("set",),
        "Set {set}: three missed turns each at the last pucks: the set is replayed",
    ),
    "set.lost.eight_eight_right_lost": (
        ("set", "team"),
        "Set {set} lost by {team}: both sides cleared the table in their first series (8 + 8),"
        " and {team} lost the strike right with their last stroke",
    ),
    "set.replayed.both_cleared": (
        ("set",),
        "Set {set}: both sides cleared the table in their first series (8 + 8): the set is"
        " replayed with sides and opening stroke changed",
    ),
    # -- the match, 004 § 32 (1), § 26, § 22
    "match.won": (("team", "a", "b"), "The match is over: {team} wins, sets {a}:{b}"),
    "match.drawn": (("a", "b"), "The match is drawn {a}:{b}"),
    "caution.delay": (
        ("caution", "limit", "delay"),
        "Caution {caution} of {limit}: deliberate delay (the side's pass or clock run out"
        " number {delay} in this set)",
    ),
    "caution.match_lost": (
        (),
        "Third caution in the match: the set in progress and the sets still to play are lost",
    ),
    "forfeit.absent": (
        ("seat", "seconds"),
        "{seat} did not return within {seconds, plural, one {# second} other {# seconds}}:"
        " their side loses the match",
    ),
    "forfeit.resign": (("seat",), "{seat} resigns: their side loses the match"),
}
TURN_CODES = frozenset(c for c in TEMPLATES if c.startswith("turn.")) | {"series.answer"}
"""The lines that say who strikes next within the set: a ruling that ends the set or the
match carries none of them."""
WORDS: dict[str, tuple[str, ...]] = {
    "whose": ("none", "own", "opponent", "mixed"),
    "rail": ("opposite", "side"),
}
"""The values a word argument may take."""
_ARG_NAMES = {code: frozenset(names) for code, (names, _) in TEMPLATES.items()}


class BadLine(ValueError):
    """A line whose code is unknown or whose arguments are not the code's."""


@dataclass(frozen=True, slots=True)
class Line:
    """One fact of a ruling: `code` (a key of TEMPLATES), `args` (exactly the code's
    arguments) and `cite`, the paragraph ("" when the rule book has none)."""

    code: str
    cite: str
    args: Mapping[str, Arg] = field(default_factory=dict)
    # to_dict() once made: a stroke's lines go to the wire twice (the ruling's lines and
    # the ruling) and to the log; its readers only read it.
    _plain: dict[str, Any] | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        names = _ARG_NAMES.get(self.code)
        if names is None:
            raise BadLine(f"unknown line code {self.code!r}")
        if self.args.keys() != names:
            raise BadLine(f"{self.code} takes {TEMPLATES[self.code][0]}, not {tuple(self.args)}")
        for name, allowed in WORDS.items():
            if name in self.args and self.args[name] not in allowed:
                raise BadLine(f"{self.code}: {name} must be one of {allowed}")

    @property
    def text(self) -> str:
        """The line in English (seats, teams and pucks by number)."""
        return str(self.to_dict()["text"])

    def to_dict(self) -> dict[str, Any]:
        """Plain data for the wire and the records: code, args, cite and the English text
        (made once: the same dict each time, not to be changed)."""
        plain = self._plain
        if plain is None:
            args = {k: list(v) if isinstance(v, tuple) else v for k, v in self.args.items()}
            text = render(self.code, self.args)
            plain = {"code": self.code, "args": args, "cite": self.cite, "text": text}
            object.__setattr__(self, "_plain", plain)  # a cache: the line itself is unchanged
        return plain


def line(code: str, cite: str, **args: Arg) -> Line:
    """A Line; puck lists are kept as tuples so the line stays immutable. A line of
    words and whole numbers only is made once and then shared: most of a ruling's lines
    are the same from stroke to stroke, and each was checked and then worded anew."""
    shared = True
    for k, v in args.items():
        kind = type(v)
        if kind is not str and kind is not int:
            shared = False  # a bool or a float equals an int as a key: not shared
            if isinstance(v, list):
                args[k] = tuple(v)  # the keys stay: changing a value while iterating is safe
    if not shared:
        return Line(code, cite, args)
    key = (code, cite, *args.items())  # the arguments' order too: to_dict keeps it
    made = _MADE.get(key)
    if made is None:
        if len(_MADE) >= _MADE_MAX:
            _MADE.clear()
        made = _MADE[key] = Line(code, cite, args)
    return made


_MADE: dict[tuple[Any, ...], Line] = {}
_MADE_MAX = 4096
"""Lines kept for sharing at most (set numbers, seats and counts make a few hundred)."""


def _english(name: str, value: Any) -> str:
    if name == "seat":
        return f"seat {value}"
    if name == "team":
        return f"team {value}"
    if name == "pucks":
        return ", ".join(f"#{i}" for i in value)
    return f"{value:g}" if isinstance(value, float) else str(value)


def render(code: str, args: Mapping[str, Any]) -> str:
    """The English text of a line."""
    return format_message(TEMPLATES[code][1], args)


def format_message(template: str, args: Mapping[str, Any]) -> str:
    """Render a template of the ICU subset described in the module's docstring (English
    plural rules: one for 1, else other)."""
    nodes = _COMPILED.get(template)
    if nodes is None:
        # Parsed once per template: every stroke's ruling renders a handful of lines
        # (twice: for the wire and the match log), and parsing was most of that cost.
        nodes, end = _compile(template, 0)
        if end != len(template):
            raise BadLine(f"unbalanced braces in {template!r}")
        _COMPILED[template] = nodes
    return _render(nodes, args, None)


@dataclass(frozen=True, slots=True)
class _Arg:
    """`{name}`: the argument in English."""

    name: str


@dataclass(frozen=True, slots=True)
class _Choice:
    """`{name, plural, ...}` or `{name, select, ...}`: one case chosen by the value."""

    name: str
    plural: bool
    cases: dict[str, list[_Node]]


class _Hash:
    """`#` inside a plural case: the number."""


_HASH = _Hash()
_Node = str | _Arg | _Choice | _Hash
_COMPILED: dict[str, list[_Node]] = {}


def _compile(src: str, i: int) -> tuple[list[_Node], int]:
    """The nodes from i up to an unmatched '}' (or the end); returns them and that position."""
    nodes: list[_Node] = []
    text: list[str] = []
    while i < len(src):
        c = src[i]
        if c == "}":
            break
        if c in "#{":
            if text:
                nodes.append("".join(text))
                text = []
            if c == "#":
                nodes.append(_HASH)
                i += 1
            else:
                node, i = _compile_argument(src, i + 1)
                nodes.append(node)
        else:
            text.append(c)
            i += 1
    if text:
        nodes.append("".join(text))
    return nodes, i


def _compile_argument(src: str, i: int) -> tuple[_Node, int]:
    close = src.index("}", i)
    comma = src.find(",", i)
    if comma == -1 or comma > close:
        return _Arg(src[i:close].strip()), close + 1
    name = src[i:comma].strip()
    kind_end = src.index(",", comma + 1)
    kind = src[comma + 1 : kind_end].strip()
    i = kind_end + 1
    cases: dict[str, list[_Node]] = {}
    while True:
        while src[i] == " ":
            i += 1
        if src[i] == "}":
            break
        brace = src.index("{", i)
        key = src[i:brace].strip()
        cases[key], i = _compile(src, brace + 1)
        i += 1  # the case's closing brace
    return _Choice(name, kind == "plural", cases), i + 1


def _render(nodes: list[_Node], args: Mapping[str, Any], number: Any) -> str:
    """The text of compiled nodes; `number` is what `#` stands for (None outside a plural
    case, where `#` is plain text)."""
    parts: list[str] = []
    for node in nodes:
        if isinstance(node, str):
            parts.append(node)
        elif isinstance(node, _Arg):
            parts.append(_english(node.name, args[node.name]))
        elif isinstance(node, _Choice):
            value = args[node.name]
            cases = node.cases
            if node.plural:
                key = f"={value}" if f"={value}" in cases else ("one" if value == 1 else "other")
                parts.append(_render(cases[key], args, value))
            else:
                key = str(value) if str(value) in cases else "other"
                parts.append(_render(cases[key], args, None))
        else:
            parts.append("#" if number is None else _english("#", number))
    return "".join(parts)
