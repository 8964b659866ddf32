"""Password hashes: argon2id (argon2-cffi's PasswordHasher) with OWASP's recommended
parameters: 2 passes over 19 MiB, one lane. argon2-cffi's own default (RFC 9106's low-memory
profile, 3 passes over 64 MiB, 4 lanes) took 0.7 to 2.3 s a hash on the shared 2-core machine
that also runs the game, against 0.1 to 0.2 s for these (docs/accounts.md, "Passwords"). The
hash string carries its own salt and parameters, so raising them later rehashes each
password at its owner's next login."""

from __future__ import annotations

import functools

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

_HASHER = PasswordHasher(time_cost=2, memory_cost=19 * 1024, parallelism=1)


@functools.cache
def _dummy() -> str:
    """Verified against when a username is unknown, so that a wrong name costs as long as a
    wrong password and the time of the answer does not tell which one was wrong. Made at the
    first need, not at import: a hash is 30 ms of every server's start otherwise."""
    return _HASHER.hash("not a password anybody has")


def hash_password(password: str) -> str:
    """The argon2id hash string of a password (slow on purpose: ~0.1 s, 19 MiB)."""
    return _HASHER.hash(password)


def verify_password(stored: str | None, password: str) -> bool:
    """True when `password` matches the stored hash; with no hash (an unknown name) the same
    work is done and the answer is False."""
    try:
        return _HASHER.verify(stored or _dummy(), password) and stored is not None
    except (VerificationError, InvalidHashError):
        return False


def needs_rehash(stored: str) -> bool:
    """True when a hash was made with weaker parameters than today's."""
    return _HASHER.check_needs_rehash(stored)
