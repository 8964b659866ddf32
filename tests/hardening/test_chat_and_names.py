"""Chat and names (issue 24, item 5): a flood of chat is bounded per session and per room,
team chat stays with the team that wrote it, and a name cannot be invisible or pose as
another's role."""

from __future__ import annotations

import pytest

from server.net.names import BadName, clean_name, skeleton
from tests.server.server_client import Client, Msg, connected


# -- names ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "raw",
    [
        "\u3164",  # Hangul filler: draws nothing
        "A\u3164B",
        "\u2800\u2800",  # Braille blank
        "Anu\u200bBoris",  # zero-width space (a format character)
        "\u202eAnu",  # right-to-left override
        "a" + "\u0301" * 3,  # three combining marks stacked on one letter
        "\u0301abc",  # a mark with nothing under it
        "Anu\u00a0Boris",  # a no-break space: looks like a space, is another character
        "🎱🎱",  # no letter or digit
        "x" * 25,
        "HonestAnna (1712)",  # a rating beside the name: a guest passing for a member
        "Anna (1500?)",
        "Anna（１７１２）",  # full-width brackets and digits read the same
        "Anna ⟮1712⟯",  # other brackets, a separator in the number: read as a rating too
        "Anna (1,712)",
        "Anna (1712.)",
        "mallory1\u034f",  # default-ignorable code points: they draw nothing
        "mallory1\ufe0f",
        "mallory1\U000e0100",
        "mallory1\u17b4",
        "Computer",  # the house: the computer's seat, a deleted account's matches, staff
        "Computer (level 5)",
        "Arvuti",
        "dators",
        "Bot",
        "Deleted-Player",
        "kustutatud mängija",
        "Admin",
        "Sуstem",  # a Cyrillic у: look-alikes are folded first
    ],
)
def test_a_name_that_cannot_be_read_or_told_apart_is_refused(raw):
    with pytest.raises(BadName):
        clean_name(raw)


@pytest.mark.parametrize(
    ("raw", "kept"),
    [
        ("  Anu   Kask ", "Anu Kask"),  # runs of spaces made one
        ("Ja\u0304nis", "Jānis"),  # decomposed Latvian, kept composed (NFC)
        ("Nguyễn", "Nguyễn"),  # two marks on one letter are a real name's
        ("Tõnu 🎱", "Tõnu 🎱"),
        ("Пётр", "Пётр"),
        ("Anna (7)", "Anna (7)"),  # no rating has one digit
        ("Team 1712", "Team 1712"),  # numbers are names' too, not in brackets at the end
        ("Anna (team 12345)", "Anna (team 12345)"),  # words in the brackets: no rating
        ("Computerman", "Computerman"),  # the house's words inside a name are anyone's
        ("Root beer", "Root beer"),
        ("Guest", "Guest"),
        ("Botanik", "Botanik"),
    ],
)
def test_a_real_name_is_kept_normalised(raw, kept):
    assert clean_name(raw) == kept


@pytest.mark.parametrize("look_alike", ["ma\u01c0\u01c0ory1", "ma||ory1", "MAӀӀORY1"])
def test_a_name_drawn_like_a_username_reads_as_it(look_alike):
    assert skeleton(look_alike) == skeleton("mallory1")


async def test_an_invisible_name_gets_a_clear_error_and_the_connection_can_say_hello_again(
    game_server,
):
    srv = game_server()
    c = Client("\u3164")
    await c.open(srv.ws_url)
    await c.send("hello", name="\u3164")
    error = await c.expect("error")
    assert error["code"] == "bad_field" and "hello.name" in error["message"]
    for blank in ("   ", "x" * 97):  # the length the refusal names is a name's, 1 to 24
        await c.send("hello", name=blank)
        error = await c.expect("error")
        assert error["message"] == "hello.name: must be 1 to 24 characters.", error
    await c.send("hello", name="Anu")
    assert (await c.expect("welcome"))["name"] == "Anu"


# -- chat budgets --------------------------------------------------------------------------
async def chat_replies(c: Client, lines: int) -> list[str]:
    """Send `lines` chat lines at once; what came back for each: "chat" or an error code."""
    for i in range(lines):
        await c.send("chat", text=f"line {i}", ref=i)
    out: list[str] = []
    while len(out) < lines:
        msg = await c.inbox.get()
        if msg["t"] == "chat" and msg["name"] == c.name:
            out.append("chat")
        elif msg["t"] == "error":
            out.append(msg["code"])
    return out


async def test_a_session_chatting_faster_than_its_budget_is_refused_past_its_burst(
    game_server,
):
    srv = game_server(chat_burst=3, chat_rate=0.1)
    a, w = await connected(srv.ws_url, "Anu", "Watcher")
    await a.send("create", mode="singles", sets=1, clock=60, private=False)
    room = await a.expect("room")
    await w.send("watch", room=room["id"])
    await w.expect("room")
    assert await chat_replies(w, 5) == ["chat"] * 3 + ["rate_limited"] * 2
    assert await chat_replies(a, 1) == ["chat"], "another session has its own budget"


async def test_many_chatters_in_one_room_share_the_room_budget(game_server):
    srv = game_server(room_chat_burst=4, room_chat_rate=0.1, chat_burst=5)
    a, *flooders = await connected(srv.ws_url, "Anu", "F1", "F2", "F3")
    await a.send("create", mode="singles", sets=1, clock=60, private=False)
    room = await a.expect("room")
    for f in flooders:
        await f.send("watch", room=room["id"])
        await f.expect("room")
    replies = [r for f in flooders for r in await chat_replies(f, 2)]
    assert replies.count("chat") == 4 and replies.count("rate_limited") == 2
    lines_a_saw = [m for m in a.seen if m["t"] == "chat"]
    assert len(lines_a_saw) == 4, "the room's viewers got only what the room budget let through"


# -- team chat and a seat that changes hands -------------------------------------------------
async def test_whoever_takes_a_freed_doubles_seat_does_not_read_the_team_chat_before_them(
    game_server,
):
    srv = game_server()
    players = await connected(srv.ws_url, "P0", "P1", "P2", "P3")
    await players[0].send("create", mode="doubles", sets=1, clock=60, private=False)
    room = await players[0].expect("room")
    for i, c in enumerate(players[1:], start=1):
        await c.send("join", room=room["id"], seat=i)
        await c.expect("room")
    await players[1].send("chat", text="aim for the left pocket", team=True)
    line = await players[3].expect("chat")
    assert line["text"] == "aim for the left pocket", "the partner reads it"
    await players[3].send("leave")
    await players[3].expect("left")
    (newcomer,) = await connected(srv.ws_url, "P9")
    await newcomer.send("join", room=room["id"], seat=3)
    await newcomer.expect("room")
    await newcomer.send("resume", room=room["id"], since=1)
    seen: dict[int, Msg] = {}
    while line["seq"] not in seen:
        msg = await newcomer.inbox.get()
        if "seq" in msg:
            seen[msg["seq"]] = msg
    assert seen[line["seq"]] == {"t": "hidden", "seq": line["seq"]}
