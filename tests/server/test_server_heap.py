"""Freed memory handed back (server/heap.py): after a burst the process's RSS comes back down,
and the trims keep to their pace."""

from __future__ import annotations

import psutil

from server.heap import Trimmer, free_in_heap, trim

KEPT: list[bytes] = []


def _burst_freed(mb: int) -> None:
    """Allocate `mb` MB in malloc's heap (bytes over Python's small-object size, under mmap's
    threshold, as request parsers and queued frames are), then free all but one chunk in 500:
    what lives on between them (as a server's rooms and sessions do) keeps the heap from
    shrinking by itself from its top."""
    junk = [bytes(2000) for _ in range(mb * 2**20 // 2000)]
    KEPT.extend(junk[::500])
    del junk


def test_after_a_burst_the_freed_memory_goes_back_to_the_system():
    trim()  # what earlier tests left free is given back first, so the burst takes new pages
    rss = psutil.Process().memory_info().rss
    _burst_freed(120)
    assert free_in_heap() > 100 * 2**20, "freed, but the heap keeps it"
    assert psutil.Process().memory_info().rss > rss + 80 * 2**20
    trimmer = Trimmer(every=10.0, above=16 << 20)
    assert trimmer.maintain(1000.0)
    assert trimmer.freed_mb > 100, trimmer.view()
    assert psutil.Process().memory_info().rss < rss + 20 * 2**20
    assert trimmer.view()["trims"] == 1


def test_trims_keep_their_pace_and_leave_a_trimmed_heap_alone():
    trimmer = Trimmer(every=10.0, above=16 << 20)
    _burst_freed(40)
    assert trimmer.maintain(100.0)
    _burst_freed(40)
    assert not trimmer.maintain(105.0), "not within `every` seconds of the last"
    assert trimmer.maintain(110.0)
    assert not trimmer.maintain(120.0), "its free pages are back already: nothing to walk"
    assert trimmer.view()["trims"] == 2


def test_what_is_freed_after_a_trim_at_the_peak_goes_back_at_the_next():
    # an attack's memory is in use when a trim falls in it, and freed when it ends: the RSS
    # does not grow then, the free bytes do
    trim()
    rss = psutil.Process().memory_info().rss
    held = [bytes(2000) for _ in range(60 * 2**20 // 2000)]
    KEPT.extend(held[::500])
    trimmer = Trimmer(every=10.0, above=16 << 20)
    _burst_freed(20)
    assert trimmer.maintain(100.0), "the burst's free pages, at the attack's peak"
    del held
    assert psutil.Process().memory_info().rss > rss + 40 * 2**20, "freed, still resident"
    assert trimmer.maintain(110.0)
    assert psutil.Process().memory_info().rss < rss + 20 * 2**20, trimmer.view()
