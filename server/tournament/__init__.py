"""The old import path of server.competitions.table, kept for outside code (server/_compat.py)."""

from server._compat import alias

alias(__name__, "server.competitions.table")
