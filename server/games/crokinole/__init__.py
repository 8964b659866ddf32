"""Crokinole (seed 002): the round board, its deterministic physics and its rules.

Pure logic: imports only server.games.novuss.sim (the core's exact root finders), nothing from
net, lobby, match or store.
"""
