"""Crokinole (seed 002): the round board, its deterministic physics and its rules.

Pure logic: imports only server.games.core (the collision core's exact root finders),
nothing from the network, the lobby or the store.
"""
