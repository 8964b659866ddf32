"""Developers' tools: play a match or a board in the terminal, draw strokes, build test
scenarios. Used by the tests and benches, never imported by the server."""
