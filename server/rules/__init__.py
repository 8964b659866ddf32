"""The old import path of server.games.novuss.rules, kept for outside code (server/_compat.py)."""

from server._compat import alias

alias(__name__, "server.games.novuss.rules")
