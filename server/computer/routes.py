"""The dispatcher's routes of the computer opponent and of practice (server/net/dispatch.py):
`quick` is the computer's, which adds the wait for the computer to the lobby's queue."""

from __future__ import annotations

from server.computer.practice import Practice
from server.computer.seats import Computer
from server.net import protocol as p
from server.net.dispatch import Routes


def routes(computer: Computer, practice: Practice) -> Routes:
    """computer, quick, hint and takeback."""
    return {
        p.Computer: lambda c, m: computer.create(c, m),
        p.Quick: lambda c, m: computer.quick(c, m),
        p.Hint: lambda c, m: practice.hint(c),
        p.TakeBack: lambda c, m: practice.takeback(c),
    }
