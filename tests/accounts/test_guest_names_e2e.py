"""A guest may not be called as a registered player is (issue 37: a guest used Cyrillic
look-alikes of a member's name): the hello is refused `name_taken`, the same name in another
case, in full width or with letters of other scripts that read as Latin ones included;
the member himself, logged in, plays under his name (docs/protocol.md, "Errors")."""

from __future__ import annotations

import pytest

from server.net.names import skeleton
from tests.accounts.account_client import browsers
from tests.server.server_client import Client

pytestmark = pytest.mark.asyncio


@pytest.mark.parametrize(
    ("name", "reads"),
    [
        ("Aili", "aili"),
        ("\u0410ili", "aili"),  # a Cyrillic А
        ("\uff21\uff29\uff2c\uff29", "aili"),  # full width
        ("\u041c\u0430r\u0456", "mari"),  # Cyrillic М, а, і
        ("\u0391\u039d\u039d\u0391", "anna"),  # Greek capitals
        ("Ööbik", "ööbik"),  # a letter of its own, not a look-alike: kept
    ],
)
async def test_a_name_reads_as_its_latin_look_alikes(name, reads):
    assert skeleton(name) == reads


async def test_a_guest_may_not_take_a_members_name_nor_one_that_reads_the_same(game_server):
    srv = game_server()
    (member,) = await browsers(srv.url, "Ailimember")
    for name in ("Ailimember", "AILIMEMBER", "\u0410ilimember", "Ailim\u0435mber"):
        guest = Client(name)
        await guest.open(srv.ws_url)
        await guest.send("hello", name=name)
        refused = await guest.expect("error")
        assert refused["code"] == "name_taken", (name, refused)
        # nothing was started: the same connection says hello under another name
        await guest.send("hello", name="Aili the guest")
        welcome = await guest.expect("welcome")
        assert welcome["name"] == "Aili the guest" and welcome["account"] is None
        await guest.close()
    # the member, logged in, is welcome under his name whatever the page typed
    own = await member.player(srv.ws_url)
    assert own.welcome["account"] == "Ailimember"
    await own.close()
    await member.close()
