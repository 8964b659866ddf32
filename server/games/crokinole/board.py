"""The Crokinole board preset: geometry and physical constants, each with its source.

Millimetres, grams, seconds; the origin is the centre of the 20-hole. Seed 002 names the
regions (4 a) but gives no measures, so the tournament board of the National Crokinole
Association is taken (sources below); lines are modelled as circles of zero width.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

INCH = 25.4


@dataclass(frozen=True, slots=True)
class Board:
    """A round Crokinole board: rings, pegs, 20-hole, ditch, and its discs."""

    name: str
    surface_radius: float  # edge of the playing surface; beyond it is the ditch
    shooting_radius: float  # the shooting line, outermost ring (002 4 e)
    ring10_radius: float  # the line between the 10 and 5 regions
    ring15_radius: float  # the line between the 15 and 10 regions, where the pegs stand
    hole_radius: float  # the 20-hole
    peg_radius: float
    peg_count: int
    disc_radius: float
    disc_mass: float  # g
    mu: float  # sliding friction of a disc on the lacquered board
    g: float  # mm/s^2
    e_disc: float  # disc-disc restitution
    e_peg: float  # disc-peg restitution (rubber sleeve)
    max_speed: float  # the fastest flick accepted (mm/s)
    sources: dict[str, str] = field(default_factory=dict, compare=False, hash=False)

    @property
    def decel(self) -> float:
        """Sliding deceleration mu*g (mm/s^2) shared by every disc."""
        return self.mu * self.g

    def pegs(self) -> tuple[tuple[float, float], ...]:
        """Peg centres on the 15 line, one on each quadrant line and one between."""
        step = 2.0 * math.pi / self.peg_count
        r = self.ring15_radius
        return tuple(
            (r * math.cos(math.pi / 4.0 + k * step), r * math.sin(math.pi / 4.0 + k * step))
            for k in range(self.peg_count)
        )


TOURNAMENT = Board(
    name="NCA tournament board (26 in playing surface)",
    surface_radius=13.0 * INCH,
    shooting_radius=12.0 * INCH,
    ring10_radius=8.0 * INCH,
    ring15_radius=4.0 * INCH,
    hole_radius=1.375 * INCH / 2.0,
    peg_radius=0.375 * INCH / 2.0,
    peg_count=8,
    disc_radius=1.25 * INCH / 2.0,
    disc_mass=5.3,
    mu=0.05,
    g=9806.65,
    e_disc=0.9,
    e_peg=0.7,
    max_speed=4000.0,
    sources={
        "surface_radius": "playing surface 26 in across (tournament size): "
        "https://simply-fun-games.com/crokinole-board-dimensions-size-guides.html, "
        "https://proiest.com/crokinole-board-size/",
        "shooting_radius": "5-point zone (inside the shooting line) 24 in across: "
        "simply-fun-games.com (above)",
        "ring10_radius": "10-point zone 16 in across: simply-fun-games.com. "
        "visualfoodie.com lists the same 4/8/16 in figures with the names swapped; "
        "simply-fun-games.com's order is taken since the pegs (4 in from the centre, "
        "visualfoodie.com) stand on the 15 line and seed 002 4 a puts 10 outside them",
        "ring15_radius": "15-point zone 8 in across, pegs 4 in from the centre: "
        "simply-fun-games.com; https://visualfoodie.com/what-are-the-standard-crokinole-board-dimensions",
        "hole_radius": "20-hole 1 3/8 in across: simply-fun-games.com, "
        "https://crokinole.ca/blogs/news/crokinole-discs-faq",
        "peg_radius": "model choice: pegs of 3/16 in dowel in 1/4 in vinyl tube "
        "(http://www.instructables.com/id/Build-a-Crokinole-Board/), about 3/8 in across",
        "peg_count": "eight pegs guard the 15 ring (seed 002 4 a 'outside the pegs'; "
        "http://108.161.137.60/piglix/Crokinole)",
        "disc_radius": "tournament disc 1 1/4 in across, 3/8 in thick: crokinole.ca (above)",
        "disc_mass": "hard maple (~0.7 g/cm3) x pi * 15.875^2 * 9.525 mm3 = 7.54 cm3 -> 5.3 g",
        "mu": "model choice: lacquered, waxed board, faster than Novuss's powdered plywood "
        "(0.1); 0.05 lets a 1 m/s flick slide 1 m",
        "g": "standard gravity 9.80665 m/s^2",
        "e_disc": "model choice: maple on maple, 0.9",
        "e_peg": "model choice: a rubber-sleeved peg gives more than wood, 0.7",
        "max_speed": "model choice: a 1.4 m/s flick crosses the board and the ditch; 4 m/s "
        "leaves room for hard takeouts",
    },
)
"""The tournament board every Crokinole room plays on."""


def hole_capture_radius(board: Board) -> float:
    """A disc resting with its centre this close to the board's centre lies completely
    in the 20-hole, flat (002 4 b)."""
    return board.hole_radius - board.disc_radius
