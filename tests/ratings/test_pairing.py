"""The quick-match pairing by rating (server/lobby/pairing.py, docs/accounts.md, "Quick match
by rating"): nearest rating within a window widening with the wait, guests as before, and
nobody starving."""

from __future__ import annotations

import random

from server.lobby.pairing import BASE, OPEN_AFTER, WIDEN, Waiting, Widening, pick, reach

window = Widening().window

NOW = 1000.0


def w(rating: int | None, waited: float = 0.0) -> Waiting:
    """A player who has waited `waited` seconds at NOW."""
    return Waiting(rating, NOW - waited)


def test_the_window_widens_with_the_wait_then_opens():
    assert window(0) == BASE == 50
    assert window(10) == BASE + 10 * WIDEN == 150
    assert window(30) == 350
    assert window(OPEN_AFTER) == float("inf")


def test_a_server_may_widen_faster_and_open_sooner():
    club = Widening(widen=100.0, open_after=5.0)  # --quick-widen 100 --quick-open-after 5
    assert club.window(1) == BASE + 100 == 150
    assert pick([w(1500, 1), w(1700, 0)], 2, NOW) is None  # the default: 60 either side
    assert pick([w(1500, 1.5), w(1700, 0)], 2, NOW, club) == [0, 1]  # 200 either side
    assert pick([w(1000, 5), w(2400, 0)], 2, NOW, club) == [0, 1]  # anybody after 5 s
    told = reach(1500, True, club)["window"]
    assert told == {"from": 1450, "to": 1550, "widen": 100.0, "open_after": 5.0}


def test_the_nearest_rating_is_chosen_not_the_first_to_come():
    queue = [w(1500, 3), w(1580, 2), w(1510, 1), w(1495, 0)]
    assert pick(queue, 2, NOW) == [0, 3]  # 5 apart beats 10 apart; 80 apart is out of reach


def test_too_far_apart_they_wait_until_the_longer_waiter_reaches():
    queue = [w(1500, 0), w(1700, 0)]
    assert pick(queue, 2, NOW) is None
    assert pick([w(1500, 14), w(1700, 0)], 2, NOW) is None  # 190 either side
    assert pick([w(1500, 15), w(1700, 0)], 2, NOW) == [0, 1]  # 200: the longer wait counts
    assert pick([w(1000, OPEN_AFTER), w(2400, 0)], 2, NOW) == [0, 1]  # anybody after 45 s


def test_guests_as_before_in_the_order_they_came():
    assert pick([w(None, 2), w(None, 1), w(None, 0)], 2, NOW) == [0, 1]
    # a guest plays whoever waits: the registered player first in the queue
    assert pick([w(1500, 2), w(None, 0)], 2, NOW) == [0, 1]
    # but a registered player takes a registered one within reach before a guest
    assert pick([w(1500, 2), w(None, 1), w(1520, 0)], 2, NOW) == [0, 2]
    # and one out of reach waits, unless a guest is there
    assert pick([w(1500, 2), w(2000, 1)], 2, NOW) is None
    assert pick([w(1500, 2), w(2000, 1), w(None, 0)], 2, NOW) == [0, 2]


def test_the_longest_waiting_is_seated_first():
    # both 0 and 1 could pair with 2; 0 came first and gets the nearest it can
    queue = [w(1500, 5), w(1560, 4), w(1540, 0), w(1900, 0)]
    assert pick(queue, 2, NOW) == [0, 2]


def test_doubles_seat_the_three_nearest_the_first():
    queue = [w(1500, 3), w(1900, 3), w(1530, 2), w(1470, 1), w(1490, 0), w(1560, 0)]
    assert pick(queue, 4, NOW) == [0, 2, 3, 4]
    assert pick(queue[:3], 4, NOW) is None  # not a table


def test_nobody_starves_in_a_simulated_queue():
    """Players of all ratings (a third guests) come at random for simulated minutes; seated
    tables leave. Nobody waits past OPEN_AFTER plus the gap until the next arrival, and the
    rated pairs are close when the wait is short."""
    rng = random.Random(15)
    for seats in (2, 4):
        queue: list[Waiting] = []
        now, longest = 0.0, 0.0
        pairs: list[tuple[int, float]] = []  # rating gap and wait of registered pairs
        for _ in range(1500):
            now += rng.expovariate(1 / 4.0)  # one player every 4 s on average
            rating = None if rng.random() < 1 / 3 else int(rng.gauss(1500, 250))
            queue.append(Waiting(rating, now))
            for tick in (now, now + 1.0):  # on arrival, and the once-a-second look
                while (table := pick(queue, seats, tick)) is not None:
                    seated = [queue[i] for i in table]
                    longest = max(longest, *(tick - s.since for s in seated))
                    ratings = [s.rating for s in seated if s.rating is not None]
                    if seats == 2 and len(ratings) == 2:
                        waited = tick - min(s.since for s in seated)
                        pairs.append((abs(ratings[0] - ratings[1]), waited))
                    queue = [q for i, q in enumerate(queue) if i not in table]
        assert all(now - q.since < OPEN_AFTER + 60 for q in queue)
        assert longest < OPEN_AFTER + 60, (seats, longest)
        for gap, waited in pairs:
            assert gap <= window(waited) + WIDEN  # within the window (ticks are a second)
