"""What a username and a password may be (docs/accounts.md, "Usernames", "Passwords").

Usernames are ASCII only: letters, digits, `_` and `-`, 3 to 20 characters, starting with a
letter or a digit. ASCII closes look-alike impersonation at once (no Cyrillic `а` for a Latin
`a`, no invisible or combining characters), and Estonian and Latvian players already write
their logins without diacritics; what a player is called at the table may still be any name
the guest name policy allows (server/net/names.py). Uniqueness is case-insensitive: the key of
a name is its lower case.

Passwords follow NIST SP 800-63B: at least 10 characters, at most 256 bytes, no composition
rules, refused when common or when they contain the username.
"""

from __future__ import annotations

import re

from server.accounts.errors import AccountError

USERNAME_MIN, USERNAME_MAX = 3, 20
PASSWORD_MIN, PASSWORD_MAX_BYTES = 10, 256
_USERNAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")

# names a player could use to pass for the house
RESERVED = frozenset({
    "admin", "administrator", "bot", "computer", "deleted", "deleted-player", "guest",
    "koroona", "moderator", "mod", "novuss", "referee", "root", "server", "staff", "support",
    "system", "watcher",
})  # fmt: skip

# The most common passwords of 10+ characters in public breach lists (a short list: the length
# rule already rules out the shorter ones that make up most of such lists).
COMMON = frozenset({
    "1234567890", "0123456789", "1234567891", "12345678910", "qwertyuiop", "1q2w3e4r5t",
    "password12", "password123", "password1234", "iloveyou12", "qwerty1234", "qwerty12345",
    "1qaz2wsx3edc", "abcdefghij", "abc1234567", "0987654321", "1111111111", "0000000000",
    "aaaaaaaaaa", "asdfghjkl1", "zxcvbnm123", "football12", "baseball12", "superman12",
    "letmein123", "welcome123", "passw0rd12", "p@ssw0rd12", "changeme12", "novuss1234",
    "koroona123", "parool1234", "parole1234", "salasana12", "qwertyuiop1", "1234qwerasdf",
})  # fmt: skip


def username_key(name: str) -> str:
    """The key that makes usernames unique regardless of case."""
    return name.lower()


def is_username_key(key: str) -> bool:
    """Could this be a username's key (its lower case)?"""
    return USERNAME_MIN <= len(key) <= USERNAME_MAX and bool(_USERNAME.fullmatch(key))


def check_username(name: object) -> str:
    """The username as it will be shown, or AccountError(bad_username) saying why not."""
    if not isinstance(name, str):
        raise AccountError("bad_username", "A username is text.", reason="type")
    if not USERNAME_MIN <= len(name) <= USERNAME_MAX:
        raise AccountError(
            "bad_username",
            f"A username has {USERNAME_MIN} to {USERNAME_MAX} characters.",
            reason="length",
            params={"min": USERNAME_MIN, "max": USERNAME_MAX},
        )
    if not _USERNAME.fullmatch(name):
        raise AccountError(
            "bad_username",
            "A username uses only the letters A-Z, digits, '_' and '-', and starts with a"
            " letter or a digit.",
            reason="characters",
        )
    if username_key(name) in RESERVED:
        raise AccountError("bad_username", "This username is reserved.", reason="reserved")
    return name


def check_password(password: object, username: str) -> str:
    """The password if it may be used by `username`, else AccountError(weak_password)."""
    if not isinstance(password, str):
        raise AccountError("weak_password", "A password is text.", reason="type")
    if len(password) < PASSWORD_MIN:
        raise AccountError(
            "weak_password",
            f"A password has at least {PASSWORD_MIN} characters.",
            reason="too_short",
            params={"min": PASSWORD_MIN},
        )
    if len(password.encode()) > PASSWORD_MAX_BYTES:
        raise AccountError(
            "weak_password",
            f"A password has at most {PASSWORD_MAX_BYTES} bytes.",
            reason="too_long",
            params={"max": PASSWORD_MAX_BYTES},
        )
    if password.lower() in COMMON:
        raise AccountError(
            "weak_password", "This password is one of the most common ones.", reason="common"
        )
    if username_key(username) in password.lower():
        raise AccountError(
            "weak_password", "A password must not contain the username.", reason="has_name"
        )
    return password
