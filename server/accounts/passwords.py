"""Password hashes: argon2id (argon2-cffi's PasswordHasher, its RFC 9106 low-memory profile:
3 passes over 64 MiB, 4 lanes). The hash string carries its own salt and parameters, so
raising them later rehashes each password at its owner's next login."""

from __future__ import annotations

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

_HASHER = PasswordHasher()
# Verified against when a username is unknown, so that a wrong name costs as long as a wrong
# password and the time of the answer does not tell which one was wrong.
_DUMMY = _HASHER.hash("not a password anybody has")


def hash_password(password: str) -> str:
    """The argon2id hash string of a password (slow on purpose: ~50 ms, 64 MiB)."""
    return _HASHER.hash(password)


def verify_password(stored: str | None, password: str) -> bool:
    """True when `password` matches the stored hash; with no hash (an unknown name) the same
    work is done and the answer is False."""
    try:
        return _HASHER.verify(stored or _DUMMY, password) and stored is not None
    except (VerificationError, InvalidHashError):
        return False


def needs_rehash(stored: str) -> bool:
    """True when a hash was made with weaker parameters than today's."""
    return _HASHER.check_needs_rehash(stored)
