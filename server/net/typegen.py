"""The protocol's messages as TypeScript for the client's type check (docs/client.md, "Types"):
the client->server messages from the dataclasses of server/net/protocol.py (each with its `t`),
the server->client ones from the TypedDicts of server/wire.py and, for the games' `stroke` and
`ruling`, of server/games/core/play.py.

    .venv/bin/python -m server.net.typegen > web/js/protocol.d.ts

tests/net/test_typegen.py checks that the file in the tree is this output, and that a field
renamed in it fails the client's type check."""

from __future__ import annotations

import dataclasses
import json
import sys
import types
import typing
from collections.abc import Callable, Iterator
from typing import Any, Literal, NotRequired, Required, Union

from server import wire
from server.games.core.play import RulingView, ShotView, StrokeView
from server.net import protocol

HEADER = (
    "// Written by `python -m server.net.typegen > web/js/protocol.d.ts`: do not edit.\n"
    "// The wire protocol (docs/protocol.md) as the server defines it: client->server messages\n"
    "// from server/net/protocol.py, server->client ones from server/wire.py.\n"
)


# every game's part of the `stroke` and `ruling` messages (built by the games' matches)
GAME_VIEWS = (ShotView, StrokeView, RulingView)


def ts(tp: Any) -> str:
    """A Python annotation as a TypeScript type."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (NotRequired, Required):
        return ts(args[0])
    if tp is Any:
        return "any"
    if tp is None or tp is type(None):
        return "null"
    if tp is str:
        return "string"
    if tp in (int, float):
        return "number"
    if tp is bool:
        return "boolean"
    if tp is object:
        return "unknown"
    if origin is Literal:
        return " | ".join(json.dumps(a) for a in args)
    if origin in (Union, types.UnionType):
        return " | ".join(dict.fromkeys(ts(a) for a in args))
    if origin is list or (origin is tuple and len(args) == 2 and args[1] is Ellipsis):
        inner = ts(args[0])
        return f"({inner})[]" if " | " in inner else f"{inner}[]"
    if origin is tuple:
        return "[" + ", ".join(ts(a) for a in args) + "]"
    if origin is dict:
        return f"Record<{ts(args[0])}, {ts(args[1])}>"
    if typing.is_typeddict(tp):
        return str(tp.__name__)
    raise TypeError(f"no TypeScript for {tp!r}")


def _fields(lines: Iterator[tuple[str, bool, str]]) -> str:
    return "".join(f"  {name}{'?' * optional}: {kind};\n" for name, optional, kind in lines)


def typeddict(td: Any) -> str:
    """A TypedDict as an interface (with its bases' fields: Identity's in SeatView)."""
    hints = typing.get_type_hints(td, include_extras=True)
    rows = (
        # NotRequired read from the hint too: Python 3.11 misses it in string annotations
        (name, name in td.__optional_keys__ or typing.get_origin(tp) is NotRequired, ts(tp))
        for name, tp in hints.items()
    )
    doc = f"/** {' '.join(td.__doc__.split())} */\n" if td.__doc__ else ""
    return f"{doc}export interface {td.__name__} {{\n{_fields(rows)}}}\n"


def client_tags() -> dict[str, type]:
    """Each client message's `t` and its dataclass: a reader's return annotation, or what a
    reader of no fields (a lambda, unannotated) makes; `strike` is read apart (its speed limit
    is the game's)."""
    tags: dict[str, type] = {}
    readers: dict[str, Callable[..., Any]] = dict(protocol._READERS)
    for tag, reader in readers.items():
        made = typing.get_type_hints(reader).get("return")
        tags[tag] = made if made is not None else type(reader(None))
    tags["strike"] = protocol.Strike
    return tags


def dataclass_type(tag: str, cls: type) -> str:
    """A client message: `t`, its fields (one with a default may be left out); `options` travel
    as fields of the message itself (RuleOptions)."""
    hints = typing.get_type_hints(cls)
    rows = [("t", False, json.dumps(tag))]
    spread = ""
    for f in dataclasses.fields(cls):
        if f.name == "options":
            spread = " & RuleOptions"
            continue
        required = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        rows.append((f.name, not required, ts(hints[f.name])))
    return f"export type {cls.__name__} = {{\n{_fields(iter(rows))}}}{spread};\n"


def generate() -> str:
    out = [HEADER, f"\nexport type ProtocolVersion = {json.dumps(protocol.PROTOCOL_VERSION)};\n"]
    out.append("\n// -- server -> client (server/wire.py)\n")
    out.extend("\n" + typeddict(td) for td in (*wire.SERVER_MESSAGES, *GAME_VIEWS))
    out.append("\n// the room's events: the data with their `t` and sequence number\n")
    for tag, td in {**wire.SEQUENCED, "stroke": StrokeView, "ruling": RulingView}.items():
        name = td.__name__
        out.append(f"export type {name}Event = {name} & {{ t: {json.dumps(tag)}; seq: number }};\n")
    out.append("\n// -- client -> server (server/net/protocol.py)\n")
    tags = client_tags()
    out.extend("\n" + dataclass_type(tag, cls) for tag, cls in tags.items())
    names = " | ".join(cls.__name__ for cls in tags.values())
    # any message may carry a `ref`, given back with its answer or refusal (docs/protocol.md)
    out.append(f"\nexport type ClientMessage = ({names}) & {{ ref?: number | string }};\n")
    return "".join(out)


if __name__ == "__main__":
    sys.stdout.write(generate())
