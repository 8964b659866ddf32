"""Keys over their limit kept in the process (server/accounts/barred.py): refused until their
time, then forgotten; never more than `kept` of them."""

from __future__ import annotations

from server.accounts.barred import Barred


def test_a_bar_holds_until_its_time_and_the_oldest_go_past_the_bound():
    barred = Barred(kept=2)
    assert barred.left("reg:a", 100.0) == 0.0
    barred.bar("reg:a", 160.0)
    assert barred.left("reg:a", 100.0) == 60.0
    assert barred.left("reg:a", 160.0) == 0.0, "the window ended"
    assert barred.left("reg:a", 100.0) == 0.0, "and it was forgotten"
    for key in ("reg:a", "reg:b", "reg:c"):
        barred.bar(key, 200.0)
    assert [barred.left(k, 100.0) for k in ("reg:a", "reg:b", "reg:c")] == [0.0, 100.0, 100.0]
