"""Rounds (server/net/rounds.py): a sweep over a changing collection, a share a call."""

from __future__ import annotations

from server.net.rounds import Rounds


def test_each_member_once_a_round_in_shares_that_fit_it() -> None:
    rounds: Rounds[int] = Rounds(10)
    members = list(range(95))
    shares = [rounds.share(members) for _ in range(10)]
    assert sorted(m for share in shares for m in share) == members
    assert max(map(len, shares)) == 10


def test_a_member_added_mid_round_waits_for_the_next() -> None:
    rounds: Rounds[int] = Rounds(4)
    members = [1, 2, 3, 4]
    first = rounds.share(members)
    members.append(5)
    rest = [m for _ in range(3) for m in rounds.share(members)]
    assert 5 not in first + rest and sorted(first + rest) == [1, 2, 3, 4]
    assert 5 in [m for _ in range(4) for m in rounds.share(members)]


def test_fewer_members_than_shares_make_shorter_rounds() -> None:
    rounds: Rounds[str] = Rounds(10)
    seen = [rounds.share(["a", "b"]) for _ in range(4)]
    assert seen == [["b"], ["a"], ["b"], ["a"]]


def test_nothing_to_share() -> None:
    rounds: Rounds[int] = Rounds(10)
    assert rounds.share([]) == []
    assert rounds.share([7]) == [7]
