"""Every code of a message the server sends a player to read, for the client's catalogs
(web/js/i18n/): the referee's line codes with their arguments (server/games/novuss/rules/lines.py),
the protocol's error codes, the reasons a stroke is refused (`error.reason`), and the account
API's refusals (server/accounts/errors.py).

    python -m server.messages > web/js/i18n/codes.json

writes the list the client's tests read; tests/server/test_messages.py checks that the file
is current and that the server raises no code missing here.
"""

from __future__ import annotations

import json
from typing import Any

from server.accounts.errors import ACCOUNT_ERRORS
from server.games.novuss.rules.lines import TEMPLATES, WORDS

ERROR_CODES: tuple[str, ...] = (
    "bad_frame",
    "too_large",
    "unknown_type",
    "bad_field",
    "hello_first",
    "bad_token",
    "no_room",
    "no_lesson",
    "bad_invite",
    "seat_taken",
    "room_full",
    "account_needed",
    "self_play",
    "name_taken",
    "not_seated",
    "in_room",
    "not_now",
    "not_your_turn",
    "bad_stroke",
    "not_teammate",
    "internal",
    "replaced",
    "logged_out",
    "rate_limited",
    "server_full",
    "busy",
    "abuse",
    "too_many_connections",
    "idle",
    "practice_only",
    "nothing_to_take_back",
    # the challenges (server/challenges/book.py)
    "unknown_player",
    "self_challenge",
    "player_offline",
    "already_challenged",
    "too_many_challenges",
    "challenge_gone",
)
"""`error.code`: docs/protocol.md, "error"."""

REFUSAL_REASONS: tuple[str, ...] = (
    # Novuss, server/games/novuss/rules/check.py and turns.py (004 § 20, § 32)
    "placement_zone",
    "placement_touch",
    "cue_angle",
    "speed",
    "bad_shot",
    "not_your_turn",
    "match_over",
    "no_such_seat",
    # Crokinole, server/games/crokinole/rules.py (002 5, 2 a, 4 f)
    "inside_shooting_line",
    "outside_quadrant",
    "off_the_board",
    "spot_taken",
    "bad_position",
    "game_over",
)
"""`error.reason` of a `bad_stroke`: the rules engine's own code."""


def codes() -> dict[str, Any]:
    """The codes as plain data: ruling lines with their arguments and the words a word
    argument takes, error codes, refusal reasons, the account API's refusals with theirs."""
    return {
        "lines": {code: list(args) for code, (args, _) in sorted(TEMPLATES.items())},
        "words": {name: list(values) for name, values in WORDS.items()},
        "errors": sorted(ERROR_CODES),
        "reasons": sorted(set(REFUSAL_REASONS)),
        "accounts": {code: sorted(reasons) for code, reasons in sorted(ACCOUNT_ERRORS.items())},
    }


def codes_json() -> str:
    """codes() as the JSON file the client's tests read."""
    return json.dumps(codes(), indent=1, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    print(codes_json(), end="")
