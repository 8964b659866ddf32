"""The old import path of server.games.novuss.sim, kept for outside code (server/_compat.py)."""

from server._compat import alias

alias(__name__, "server.games.novuss.sim")
