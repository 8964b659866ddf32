"""The computer's messages on the wire: `computer`, `hint`, `takeback` and quick match's wait
for the computer decode to their typed forms; anything that does not fit is refused."""

from __future__ import annotations

import msgpack
import pytest

from server.net import protocol as p


def dec(msg: object) -> p.Envelope:
    return p.decode(msgpack.packb(msg))


def test_the_computers_messages_decode():
    singles = {"t": "computer", "mode": "singles", "level": 3, "sets": 1, "clock": 30}
    assert dec(singles).msg == p.Computer("singles", 3, 1, 30.0)
    both = {**singles, "mode": "doubles", "partner": True, "practice": True}
    assert dec(both).msg == p.Computer("doubles", 3, 1, 30.0, True, True, True)
    partner_only = {**both, "opponents": False}
    assert dec(partner_only).msg == p.Computer("doubles", 3, 1, 30.0, True, False, True)
    assert dec({"t": "hint"}).msg == p.Hint()
    assert dec({"t": "takeback"}).msg == p.TakeBack()
    quick = {"t": "quick", "mode": "singles", "computer_after": 30, "level": 2}
    assert dec(quick).msg == p.Quick("singles", "novuss", 30.0, 2)
    assert dec({"t": "quick", "mode": "doubles"}).msg == p.Quick("doubles")
    croki = {**quick, "game": "crokinole"}  # the Crokinole computer after the wait too
    assert dec(croki).msg == p.Quick("singles", "crokinole", 30.0, 2)


@pytest.mark.parametrize(
    "msg,field",
    [
        ({"t": "computer", "mode": "singles", "level": 0, "sets": 1, "clock": 30}, "level"),
        ({"t": "computer", "mode": "singles", "level": 6, "sets": 1, "clock": 30}, "level"),
        ({"t": "computer", "mode": "singles", "sets": 1, "clock": 30}, "level"),
        (
            {
                "t": "computer",
                "mode": "singles",
                "level": 1,
                "sets": 1,
                "clock": 30,
                "partner": True,
            },
            "partner",
        ),
        (
            {
                "t": "computer",
                "mode": "doubles",
                "level": 1,
                "sets": 1,
                "clock": 30,
                "opponents": False,
            },
            "opponents",
        ),
        (
            {"t": "computer", "mode": "singles", "level": 1, "sets": 1, "clock": 30, "rated": True},
            "rated",
        ),  # a computer match is never rated
        ({"t": "quick", "mode": "singles", "computer_after": 1}, "computer_after"),
        ({"t": "quick", "mode": "singles", "computer_after": 30, "level": 9}, "level"),
        ({"t": "hint", "seat": 1}, "seat"),
    ],
)
def test_what_does_not_fit_is_refused_naming_the_field(msg, field):
    with pytest.raises(p.ProtocolError) as refused:
        dec(msg)
    assert refused.value.code == "bad_field"
    assert refused.value.message.startswith(f"{msg['t']}.{field}:")
