"""docs/protocol.md against the server: every client example is accepted by the server's own
decoder, every server example names only fields the server sends, and every field the
server sends (in singles, doubles, watching, resuming, quick match, the lobby, errors,
/healthz and the match records) is named in the document's section for it."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any
from urllib.request import urlopen

import msgpack
import pytest

from server.net import protocol
from tests.accounts.account_client import until
from tests.conftest import GameServer
from tests.server.server_client import Client, as_map, close_all, connected
from tests.server.test_server_match_e2e import seat_singles

DOC = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()
Msg = dict[str, Any]


def sections() -> dict[str, str]:
    """The text of each `### name` section (and of each `## name` part) by name."""
    out: dict[str, str] = {}
    for part in re.split(r"^(?=#{2,3} )", DOC, flags=re.M):
        head, _, body = part.partition("\n")
        for name in head.lstrip("#").strip().removesuffix(" (seq)").split(" / "):
            out[name] = body
    return out


def examples(text: str) -> list[str]:
    """The example messages of a text: indented blocks starting with `{`, continued until
    their braces balance."""
    found, current, depth = [], "", 0
    for line in text.splitlines():
        if current:
            current += " " + line.strip()
        elif line.startswith("    {"):
            current = line.strip()
        else:
            continue
        depth = current.count("{") - current.count("}")
        if depth == 0:
            found.append(current)
            current = ""
    return found


def loose(example: str) -> str:
    """An example with its elisions (`{...}`, `[...]`, `, ...`) made JSON."""
    text = example.replace("{...}", "{}").replace("[...]", "[]")
    return re.sub(r",\s*\.\.\.", "", text)


def client_examples() -> list[str]:
    part = sections()["Client → server"]
    return examples(part)


@pytest.mark.parametrize("example", client_examples())
def test_every_client_example_is_accepted_by_the_servers_decoder(example):
    msg = json.loads(example)
    envelope = protocol.decode(msgpack.packb(msg))
    assert type(envelope.msg).__name__.lower().startswith(msg["t"][:3])


def documented(section: str, key: str) -> bool:
    return f"`{key}`" in section or f'"{key}"' in section


def undocumented(msg: object, section: str, path: str) -> list[str]:
    """The keys of `msg` (and of the maps inside it) that `section` never names."""
    missing: list[str] = []
    if isinstance(msg, dict):
        for key, value in msg.items():
            if not documented(section, str(key)):
                missing.append(f"{path}.{key}")
            missing += undocumented(value, section, f"{path}.{key}")
    elif isinstance(msg, list):
        for item in msg[:3]:
            missing += undocumented(item, section, f"{path}[]")
    return missing


NUMERIC_KEYS = re.compile(r"^\d+$")  # a map keyed by numbers (none today) would be data


async def a_session_of_everything(srv: GameServer) -> list[Msg]:
    """Messages of every kind a client can receive, from real play."""
    a, b, rid = await seat_singles(srv)
    (watcher, lobby) = await connected(srv.ws_url, "Watcher", "Lobby")
    await lobby.send("lobby", on=True)
    await lobby.expect("lobby")
    await watcher.send("watch", room=rid)
    await watcher.expect("room")
    # a few strokes, with their motions and rulings
    await asyncio.gather(a.play("singles", strokes=4), b.play("singles", strokes=4))
    for c in (a, b):
        while c.phase != "play":
            await c.inbox.get()
    await watcher.send("chat", text="hello")
    await a.expect("chat")
    await a.send("ping", n=1)
    await a.expect("pong")
    striker = a if a.turn == a.seat else b
    await striker.send("strike", x=1.0, y=1.0, angle=0.0, speed=1.0, ref=5)  # out of the zone
    refusal = await striker.expect("error")
    assert refusal["code"] == "bad_stroke" and refusal["ref"] == 5
    await striker.send("pass")
    await a.expect("ruling")
    token, seat_b = b.token, b.seat
    await b.close()
    await a.expect("gone", seat=seat_b)
    b2 = Client("Boris")
    await b2.connect(srv.ws_url, token=token)
    await b2.send("resume", room=rid, since=1)
    await a.expect("back")
    await a.send("resign")
    await a.expect("result")
    await watcher.send("leave")
    await watcher.expect("left")
    q1, q2 = await connected(srv.ws_url, "Q1", "Q2")
    await q1.send("quick", mode="singles")
    await q1.expect("queued")
    await q2.send("quick", mode="singles")
    await q2.expect("room")
    (q3,) = await connected(srv.ws_url, "Q3")  # waits alone for a table of 3 (002 7 d)
    await q3.send("quick", mode="singles", game="crokinole", players=3)
    await q3.expect("queued", players=3)
    d = await connected(srv.ws_url, "D0", "D1", "D2", "D3")
    await d[0].send("create", mode="doubles", sets=1, clock=60, private=True)
    room = await d[0].expect("room")
    for i, c in enumerate(d[1:], start=1):
        await c.send("join", invite=room["invite"], seat=i)
        await c.expect("room")
    await d[0].send("chat", text="ours", team=True)
    await d[1].expect("hidden")
    everyone = [a, b, b2, watcher, lobby, q1, q2, q3, *d]

    async def counted() -> bool:  # the watcher counts go out about once a second
        return any(m["t"] == "watchers" for c in everyone for m in c.seen)

    await until(counted, timeout=10, what="a watcher count")
    messages = [m for c in everyone for m in c.seen]
    await close_all(*everyone)
    return messages


def get(url: str) -> Msg:
    with urlopen(url, timeout=10) as r:
        return as_map(json.loads(r.read()))


async def test_every_field_the_server_sends_is_documented(game_server):
    srv = game_server(speed_factor=20)
    messages = await a_session_of_everything(srv)
    parts = sections()
    # what every message shares: discs and the table, the referee's data
    referee = parts["The referee's data"] + parts["Discs, motion and the table"]
    missing: set[str] = set()
    kinds = {m["t"] for m in messages}
    for msg in messages:
        section = parts.get(msg["t"])
        assert section is not None, f"no section for {msg['t']!r}"
        for path in undocumented(msg, section + referee, msg["t"]):
            missing.add(path)
    http = parts["HTTP"]
    health = get(srv.url + "/healthz")
    missing.update(undocumented(health, http, "/healthz"))
    listed = get(srv.url + "/api/matches")
    missing.update(undocumented(listed, http + referee, "/api/matches"))
    record = get(srv.url + "/api/matches/" + listed["matches"][0]["id"])
    missing.update(undocumented(record, http + referee, "/api/matches/{id}"))
    assert not missing, "sent but not documented: " + ", ".join(sorted(missing))
    expected = set(
        [
            "welcome",
            "room",
            "stroke",
            "motion",
            "ruling",
            "clock",
            "chat",
            "gone",
            "back",
            "result",
            "lobby",
            "queued",
            "left",
            "pong",
            "error",
            "hidden",
            "aim",
            "watchers",
        ]
    )
    assert expected <= kinds, f"the session did not exercise {expected - kinds}"


async def test_server_examples_name_only_fields_the_server_sends(game_server):
    srv = game_server(speed_factor=20)
    messages = await a_session_of_everything(srv)
    sent: dict[str, set[str]] = {}
    for msg in messages:
        sent.setdefault(msg["t"], set()).update(msg)
    part = sections()
    server_part = "".join(
        part[name] for name in part if name in sent
    )  # the sections of the server's messages
    for example in examples(server_part):
        msg = json.loads(loose(example))
        assert set(msg) <= sent[msg["t"]], f"{msg['t']}: {set(msg) - sent[msg['t']]} never sent"


def test_the_changelog_names_the_version_the_server_speaks():
    section = DOC.split("## Version and changelog", 1)[1].split("\n## ", 1)[0]
    versions = re.findall(r"^- \*\*(\d+\.\d+)\*\*", section, re.M)
    assert versions and versions[0] == protocol.PROTOCOL_VERSION, "newest first, the server's"
    assert versions == sorted(versions, key=lambda v: tuple(map(int, v.split("."))), reverse=True)


async def test_welcome_says_the_protocol_version(game_server):
    srv = game_server()
    client = Client("Vers")
    welcome = await client.connect(srv.ws_url)
    assert welcome["protocol"] == protocol.PROTOCOL_VERSION
    await close_all(client)
