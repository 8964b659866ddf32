"""The collector's policy (server/gc_policy.py): rare collections, but full ones on a pace."""

from __future__ import annotations

import gc

from server.gc_policy import Pace, PauseStats


def test_a_full_collection_comes_every_period_and_not_before():
    stats = PauseStats()
    gc.callbacks.append(stats.on_gc)
    try:
        full = Pace(every=120.0)
        assert not full.maintain(1000.0), "the first call only starts the period"
        assert not full.maintain(1119.0)
        assert stats.counts[2] == 0
        assert full.maintain(1120.5)
        assert stats.counts[2] == 1, "a full collection ran, and its pause was measured"
        assert not full.maintain(1200.0), "the period starts again"
        assert full.maintain(1241.0)
    finally:
        gc.callbacks.remove(stats.on_gc)


def test_cyclic_garbage_is_freed_by_the_paced_collection():
    class Node:
        other: Node  # set on each, to make a cycle

    gc.collect()
    gc.disable()  # only the paced collection may free them here
    try:
        a, b = Node(), Node()
        a.other, b.other = b, a
        del a, b
        assert sum(type(o).__name__ == "Node" for o in gc.get_objects()) == 2
        full = Pace(every=1.0)
        full.maintain(0.0)
        assert full.maintain(2.0)
        assert sum(type(o).__name__ == "Node" for o in gc.get_objects()) == 0
    finally:
        gc.enable()


def test_what_survives_is_frozen_each_second_and_thawed_for_the_full_collection():
    class Node:
        other: Node  # set on each, to make a cycle

    gc.collect()
    gc.disable()  # only the pace may collect here
    try:
        pace = Pace(every=60.0)
        pace.maintain(0.0)
        a, b = Node(), Node()
        a.other, b.other = b, a
        pace.maintain(1.0)
        assert gc.get_freeze_count() > 0, "the survivors are out of the collector's sight"
        del a, b
        gc.collect()
        assert sum(type(o).__name__ == "Node" for o in gc.get_objects(generation=None)) == 0
        assert sum(type(o).__name__ == "Node" for o in _frozen()) == 2, "a frozen cycle waits"
        assert pace.maintain(61.0), "the paced full collection"
        assert sum(type(o).__name__ == "Node" for o in _frozen()) == 0, "and it is freed"
    finally:
        gc.unfreeze()
        gc.enable()


def _frozen() -> list[object]:
    """Every object the collector tracks, frozen or not (unfreezing briefly to list them)."""
    gc.unfreeze()
    objects = gc.get_objects()
    gc.freeze()
    return objects
