"""The collector's policy (server/gc_policy.py): rare collections, but full ones on a pace."""

from __future__ import annotations

import gc

from server.gc_policy import FullCollections, PauseStats


def test_a_full_collection_comes_every_period_and_not_before():
    stats = PauseStats()
    gc.callbacks.append(stats.on_gc)
    try:
        full = FullCollections(every=120.0)
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
        pass

    gc.collect()
    gc.disable()  # only the paced collection may free them here
    try:
        a, b = Node(), Node()
        a.other, b.other = b, a
        del a, b
        assert sum(type(o).__name__ == "Node" for o in gc.get_objects()) == 2
        full = FullCollections(every=1.0)
        full.maintain(0.0)
        assert full.maintain(2.0)
        assert sum(type(o).__name__ == "Node" for o in gc.get_objects()) == 0
    finally:
        gc.enable()
