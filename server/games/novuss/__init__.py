"""Novuss (koroona) as the platform plays it: the table's physics (sim/), the referee of the
Estonian competition rules, seed 004 (rules/), the match state machine (match.py), the
computer's search (bot/), the notation (notation.py), and the Game the registry holds
(game.py)."""
