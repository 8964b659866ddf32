"""Open websockets end with their login (docs/accounts.md, "When a login ends").

A websocket learns its account from the login cookie once, at its upgrade. When that login
ends (log out, log out everywhere, a changed password, a deleted account) the websockets
opened with it must not go on acting as the account: the account's HTTP handler ends the
logins in Redis first, then tells every process over the bus (`["logout", uid, only, keep]`,
server/cluster/bus.py); each closes its own connections of that account with the error
`logged_out` and the close code LOGGED_OUT. A seated player's seat then waits the grace time
as for any dropped connection (004 § 22 (3)); the page reconnects as a guest, or as the
account again if logged in again.

An upgrade whose cookie was read just before its login ended could miss the message (it was
not yet among the connections): once the connection is registered, its login is looked up
again, and if it has ended the connection is closed the same way.
"""

from __future__ import annotations

from typing import Any

from server.accounts.store import AccountStore
from server.cluster.bus import Bus
from server.net import protocol as p
from server.net.conn import Conn, Connections

LOGGED_OUT = 4001  # the websocket close code (4000-4999: the application's own, RFC 6455 7.4.2)
MESSAGE = "You were logged out; this connection is closed."


class Logouts:
    """The ending of an account's websockets, on every process."""

    def __init__(self, conns: Connections, bus: Bus, store: AccountStore):
        self.conns = conns
        self.bus = bus
        self.store = store

    def announce(self, uid: str, only: str | None = None, keep: str | None = None) -> None:
        """Tell every process (this one too) that logins of account `uid` ended: only the one
        of hash `only` if given, else all of them but the one of hash `keep`."""
        self.bus.broadcast(["logout", uid, only, keep])

    def on_bus(self, msg: list[Any]) -> None:
        """A `logout` message: close this process's connections it names."""
        _, uid, only, keep = msg
        for conn in list(self.conns.all):
            if conn.account is None or conn.account[0] != uid:
                continue
            if only is not None and conn.login != only:
                continue  # another login of the account (another browser)
            if keep is not None and conn.login == keep:
                continue  # the login that changed the password
            self.end(conn)

    async def recheck(self, conn: Conn, token: str) -> None:
        """Close a connection just registered whose login ended while it was upgraded."""
        if conn.account is not None and await self.store.login(token) is None:
            self.end(conn)

    def end(self, conn: Conn) -> None:
        """The connection is no longer the account's: it is told, then closed."""
        conn.account = None
        conn.send(p.ProtocolError("logged_out", MESSAGE).reply())
        conn.shutdown(code=LOGGED_OUT, reason=b"logged out")
