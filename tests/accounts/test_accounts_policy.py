"""What a username and a password may be (server/accounts/policy.py): pure, no server."""

from __future__ import annotations

import pytest

from server.accounts.errors import AccountError
from server.accounts.passwords import hash_password, verify_password
from server.accounts.policy import check_password, check_username, username_key


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("ab", "length"),
        ("a" * 21, "length"),
        ("-dash", "characters"),
        ("has space", "characters"),
        ("Jüri", "characters"),  # ASCII only: no look-alikes, no diacritics
        ("аlice", "characters"),  # a Cyrillic а posing as a Latin a
        ("Admin", "reserved"),
        ("Deleted-Player", "reserved"),
        (42, "type"),
    ],
)
def test_a_bad_username_is_refused_with_its_reason(name, reason):
    with pytest.raises(AccountError) as e:
        check_username(name)
    assert e.value.code == "bad_username" and e.value.reason == reason


def test_a_good_username_keeps_its_case_and_is_unique_without_it():
    assert check_username("Mari_Tamm-2") == "Mari_Tamm-2"
    assert username_key("Mari_Tamm-2") == username_key("mari_tamm-2")


@pytest.mark.parametrize(
    ("password", "reason"),
    [
        ("short1234", "too_short"),
        ("x" * 257, "too_long"),
        ("Password123", "common"),
        ("my name is mari ok", "has_name"),
        (None, "type"),
    ],
)
def test_a_weak_password_is_refused_with_its_reason(password, reason):
    with pytest.raises(AccountError) as e:
        check_password(password, "Mari")
    assert e.value.code == "weak_password" and e.value.reason == reason


def test_a_refusal_of_a_length_names_its_limits():
    """The page words the refusal in the player's language with the limits (issue 36)."""
    with pytest.raises(AccountError) as e:
        check_username("ab")
    assert e.value.body()["params"] == {"min": 3, "max": 20}
    with pytest.raises(AccountError) as e:
        check_password("short1234", "Mari")
    assert e.value.body()["params"] == {"min": 10}
    with pytest.raises(AccountError) as e:
        check_password("x" * 257, "Mari")
    assert e.value.body()["params"] == {"max": 256}


def test_passwords_are_kept_as_argon2id_hashes_only():
    stored = hash_password("a long enough secret")
    assert stored.startswith("$argon2id$") and "a long enough secret" not in stored
    assert verify_password(stored, "a long enough secret")
    assert not verify_password(stored, "a long enough secreT")
    assert not verify_password(None, "a long enough secret")  # an unknown name: no match
