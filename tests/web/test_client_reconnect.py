"""A page that loses its connection reconnects by itself and resyncs (the strokes it
missed included); a reloaded page resumes its seat with the token it kept."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, WebSocketRoute

from tests.web.webtools import (
    TIMEOUT_MS,
    place_striker,
    server_room,
    state,
    strike,
    to_world,
    wait_state,
)


class Network:
    """Each page's websocket passes through a route the test can cut, as a network
    failure would: both ends closed, and new connections refused until it is back."""

    def __init__(self) -> None:
        self.down: set[Page] = set()
        self.links: dict[Page, tuple[WebSocketRoute, WebSocketRoute]] = {}

    def attach(self, page: Page) -> None:
        """Pass the page's websockets through this network."""

        def route(ws: WebSocketRoute) -> None:
            if page in self.down:
                ws.close()
                return
            self.links[page] = (ws, ws.connect_to_server())

        page.route_web_socket("**/ws", route)

    def cut(self, page: Page) -> None:
        """Close both ends of the page's socket, and refuse new ones until restored."""
        self.down.add(page)
        ws, server = self.links.pop(page)
        server.close()
        ws.close()

    def restore(self, page: Page) -> None:
        """Let the page connect again."""
        self.down.discard(page)


def quick_pair(base: str, new_page: Callable[..., Page], net: Network) -> list[Page]:
    """Two players meet through the quick-match buttons."""
    pages = []
    for name in ("Kadri", "Peeter"):
        page = new_page()
        net.attach(page)
        page.goto(base)
        page.fill("#name-input", name)
        page.click("#name-form button[type=submit]")
        page.wait_for_selector("#screen-lobby:not([hidden])")
        page.click("#quick-singles")
        pages.append(page)
    for page in pages:
        wait_state(page, "s.screen === 'screen-match' && s.phase === 'play'")
    return pages


def test_dropped_page_resumes_and_resyncs(web_server, new_page):
    base = web_server
    net = Network()
    a, b = quick_pair(base, new_page, net)
    room = state(a)["room"]["id"]
    assert state(b)["room"]["id"] == room
    turn = state(a)["turn"]
    shooter, dropped = (a, b) if state(a)["room"]["you"]["seat"] == turn else (b, a)
    seat = state(dropped)["room"]["you"]["seat"]

    # The network goes away: the other player sees the countdown of 004 § 22 (3).
    net.cut(dropped)
    wait_state(dropped, "!s.connected")
    shooter.wait_for_selector("#dropped:not([hidden])", timeout=TIMEOUT_MS)
    assert "to come back" in shooter.inner_text("#dropped")

    # Meanwhile the shooter plays a stroke the dropped page does not see: along his own
    # zone into the opponent's home row, a foul (004 § 24 (1) 2)) owed as a debt while
    # all his pucks are on the table (§ 24 (4)).
    side = wait_state(shooter, "s.aim !== null")["side"]
    shooter_seat = state(shooter)["room"]["you"]["seat"]
    place_striker(shooter, 300.0, 24.0)
    strike(shooter, to_world(side, 1000.0, 94.0), pull_mm=120.0)
    s = wait_state(shooter, "!s.moving && s.ruling?.stroke === 1")
    assert not s["ruling"]["legal"], s["ruling"]
    assert s["debts"][shooter_seat] == 1, s
    assert "owes 1 penalty puck" in shooter.inner_text("#players")

    # Back online: it reconnects by itself, gets what it missed, the seat is its own.
    net.restore(dropped)
    shooter.wait_for_selector("#dropped", state="hidden", timeout=TIMEOUT_MS)
    truth = server_room(base, room)  # after its `back`: nothing more happens in the room
    wait_state(dropped, f"s.connected && s.room.seq === {truth['seq']} && !s.moving && !s.held")
    assert state(dropped)["room"]["you"] == {"role": "player", "seat": seat}
    assert discs(state(dropped)) == discs(truth)
    assert state(dropped)["debts"][shooter_seat] == 1
    assert state(dropped)["ruling"] == s["ruling"]

    # A reload resumes the seat with the token kept in localStorage.
    dropped.reload()
    s = wait_state(dropped, "s.screen === 'screen-match' && s.room !== null")
    assert s["room"]["id"] == room
    assert s["room"]["you"] == {"role": "player", "seat": seat}
    assert discs(s) == discs(server_room(base, room))
    # The resync brings the last ruling too: the reloaded page shows what was ruled.
    assert s["ruling"]["lines"] == state(shooter)["ruling"]["lines"]
    assert "owes 1 penalty puck" in dropped.inner_text("#ruling")


def discs(s: dict[str, Any]) -> list[tuple[int, float, float]]:
    return sorted((d["id"], round(d["x"], 2), round(d["y"], 2)) for d in s["discs"])
