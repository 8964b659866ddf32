"""The games the platform serves, each a package behind the Game seam (seam.py), and the
one registry of them (registry.py) that the lobby, the computer, history, ratings, replay
and the protocol ask instead of naming a game. core/ is the collision core they share."""
