"""The protocol codec: every client message decodes to its typed form; anything else is refused."""

from __future__ import annotations

import dataclasses
import math

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.net import protocol as p


def dec(msg: object) -> p.Envelope:
    return p.decode(msgpack.packb(msg))


def test_each_client_message_decodes():
    assert dec({"t": "hello", "name": " Maret "}).msg == p.Hello("Maret")
    assert dec({"t": "hello", "name": "M", "token": "a-b_c"}).msg == p.Hello("M", "a-b_c")
    assert dec({"t": "lobby"}).msg == p.LobbySub(True)
    assert dec({"t": "create", "mode": "doubles", "sets": 2, "clock": 30, "private": True}).msg == (
        p.Create("doubles", 2, 30.0, True)
    )
    assert dec({"t": "join", "room": "r1", "team": 1}).msg == p.Join("r1", None, 1)
    assert dec({"t": "join", "invite": "abc"}).msg == p.Join(None, None, None, "abc")
    assert dec({"t": "watch", "room": "r1", "since": 4}).msg == p.Watch("r1", None, 4)
    assert dec({"t": "quick", "mode": "singles"}).msg == p.Quick("singles")
    assert dec({"t": "ready"}).msg == p.Ready(True)
    aim = dec({"t": "aim", "x": 1, "y": 2.5, "angle": 7.0, "power": 0.5}).msg
    assert isinstance(aim, p.Aim) and aim.angle == pytest.approx(7.0 - 2 * math.pi)
    strike = dec({"t": "strike", "x": 540, "y": 60, "angle": 1.5, "speed": 2500, "ref": 3})
    assert strike.msg == p.Strike(540.0, 60.0, 1.5, 2500.0) and strike.ref == 3
    assert dec({"t": "pass"}).msg == p.Pass()
    assert dec({"t": "resign"}).msg == p.Resign()
    assert dec({"t": "chat", "text": "hei", "team": True}).msg == p.Chat("hei", True)
    assert dec({"t": "leave"}).msg == p.Leave()
    assert dec({"t": "rematch"}).msg == p.Rematch()
    assert dec({"t": "resume", "room": "r1", "since": 0}).msg == p.Resume("r1", 0)
    assert dec({"t": "ping", "n": 1}).msg == p.Ping(1)


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ({"t": "join"}, "bad_field"),
        ({"t": "join", "room": "r1", "seat": 1, "team": 1}, "bad_field"),
        ({"t": "join", "room": "r1", "seat": 4}, "bad_field"),
        ({"t": "strike", "x": 540, "y": 60, "angle": 1, "speed": 0}, "bad_field"),
        ({"t": "strike", "x": 540, "y": 60, "angle": 1, "speed": 8000.5}, "bad_field"),
        ({"t": "strike", "x": 1081, "y": 60, "angle": 1, "speed": 10}, "bad_field"),
        ({"t": "strike", "x": "540", "y": 60, "angle": 1, "speed": 10}, "bad_field"),
        ({"t": "create", "mode": "singles", "sets": 2, "clock": 4}, "bad_field"),
        ({"t": "hello", "name": ""}, "bad_field"),
        ({"t": "hello", "name": "a\u202eb"}, "bad_field"),
        ({"t": "chat", "text": "one\u2028two"}, "bad_field"),  # a line separator breaks lines
        ({"t": "chat", "text": "one\u2029two"}, "bad_field"),
        ({"t": "chat", "text": "z" + "\u0336" * 40}, "bad_field"),  # marks spilling over lines
        ({"t": "ping", "ref": {"x": 1}}, "bad_field"),
        ({"t": 5}, "unknown_type"),
        ({"t": "HELLO"}, "unknown_type"),
    ],
)
def test_refusals(raw, code):
    with pytest.raises(p.ProtocolError) as e:
        dec(raw)
    assert e.value.code == code
    assert e.value.reply()["t"] == "error"


def test_frames_that_are_not_msgpack_maps():
    for data, code in [
        ("text", "bad_frame"),
        (b"\x93\x01", "bad_frame"),
        (b"\x01", "bad_frame"),
        (b"\x80" * 5000, "too_large"),
        (msgpack.packb({1: 2}), "bad_frame"),
    ]:
        with pytest.raises(p.ProtocolError) as e:
            p.decode(data)
        assert e.value.code == code


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200))
def test_random_bytes_never_escape_as_anything_but_protocol_errors(data):
    try:
        p.decode(data)
    except p.ProtocolError as e:
        assert e.code in ("bad_frame", "unknown_type", "bad_field", "too_large")


values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.floats()
    | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(p.CLIENT_TYPES),
    st.dictionaries(
        st.sampled_from(
            [
                "name",
                "token",
                "mode",
                "sets",
                "clock",
                "private",
                "room",
                "seat",
                "team",
                "invite",
                "since",
                "x",
                "y",
                "angle",
                "power",
                "speed",
                "text",
                "n",
                "ref",
                "on",
                "ready",
            ]
        ),
        values,
    ),
)
def test_random_fields_decode_or_are_refused(kind, fields):
    try:
        env = dec({"t": kind, **fields})
    except p.ProtocolError as e:
        assert e.code == "bad_field"
        return
    for f in dataclasses.fields(env.msg):
        value = getattr(env.msg, f.name)
        assert not (isinstance(value, float) and not math.isfinite(value))
