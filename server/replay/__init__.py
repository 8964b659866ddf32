"""Replays: a match recomputed from its stored log with the same deterministic core, and
checked against the stored state hashes and rulings (pure: no I/O)."""
