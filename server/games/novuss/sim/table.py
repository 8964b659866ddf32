"""Table presets: the geometry and the physical constants of a table, with their sources.

Millimetres, grams, seconds. A preset is plain data so that other tables (the Latvian
Novuss board, Crokinole's round board) can be added with a cited source.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from server.games.novuss.sim.types import Pocket, Side


@dataclass(frozen=True, slots=True)
class Table:
    """A square table with four corner pockets, its discs and its physical constants."""

    name: str
    size: float  # side of the square playing surface (mm)
    rail_height: float  # mm
    pocket_radius: float  # radius of each corner hole (mm)
    pocket_inset: float  # distance of a pocket's centre from both rails (mm)
    zone_depth: float  # the edge-zone line's distance from its rail (mm)
    circle_radius: float  # centre circle (mm)
    puck_radius: float
    puck_hole_radius: float
    puck_mass: float  # g
    striker_radius: float
    striker_hole_radius: float
    striker_mass: float  # g
    mu: float  # sliding friction coefficient of a disc on the powdered board
    g: float  # mm/s^2
    e_disc: float  # disc-disc coefficient of restitution
    e_rail: float  # disc-rail coefficient of restitution
    jump_speed: float  # normal speed into a rail above which a disc goes over it (mm/s)
    max_speed: float  # the fastest cue stroke accepted (mm/s)
    sources: dict[str, str] = field(default_factory=dict, compare=False, hash=False)

    @property
    def decel(self) -> float:
        """Sliding deceleration mu*g (mm/s^2) shared by every disc."""
        return self.mu * self.g

    def pocket_centres(self) -> tuple[tuple[Pocket, float, float], ...]:
        """The four pockets as (name, x, y), in the order SW, SE, NE, NW."""
        lo, hi = self.pocket_inset, self.size - self.pocket_inset
        return (("SW", lo, lo), ("SE", hi, lo), ("NE", hi, hi), ("NW", lo, hi))

    def rail_distance(self, side: Side, x: float, y: float) -> float:
        """Distance of the point (x, y) from the rail along `side`."""
        if side == "S":
            return y
        if side == "N":
            return self.size - y
        if side == "W":
            return x
        return self.size - x


COMPETITION = Table(
    name="koroona competition table (seed 004 § 33-36)",
    size=1080.0,
    rail_height=21.0,
    pocket_radius=40.0,
    pocket_inset=60.0,
    zone_depth=120.0,
    circle_radius=125.0,
    puck_radius=14.0,
    puck_hole_radius=2.5,
    puck_mass=3.1,
    striker_radius=24.0,
    striker_hole_radius=4.5,
    striker_mass=20.0,
    mu=0.1,
    g=9806.65,
    e_disc=0.85,
    e_rail=0.65,
    jump_speed=5000.0,
    max_speed=8000.0,
    sources={
        "size": "004 § 33 (1) 1): playing surface 1.08 x 1.08 m",
        "rail_height": "004 § 33 (1) 1): rails 21 mm high",
        "pocket_radius": "004 § 33 (1) 1): holes 80 mm across",
        "pocket_inset": "004 § 33 (1) 1): holes 20 mm from the rails, read as the hole's edge "
        "(centre 20 + 40 = 60 mm from both rails); a centre 20 mm out would cut into the rails",
        "zone_depth": "004 § 33 (1) 1): edge-zone lines 120 mm from the rail",
        "circle_radius": "004 § 33 (1) 1): centre circle 250 mm across",
        "puck_radius": "004 § 34 (1) 1): pucks 28 mm across",
        "puck_hole_radius": "004 § 34 (1) 1): central hole 5 mm",
        "puck_mass": "004 § 34 (1) 1): birch (~0.65 g/cm3), 28 mm x 8 mm with a 5 mm hole: "
        "pi * (14^2 - 2.5^2) * 8 mm3 = 4.77 cm3 -> 3.1 g",
        "striker_radius": "004 § 35 (1) 1): diameter 48 mm",
        "striker_hole_radius": "004 § 35 (1) 1): hole 8 to 10 mm; 9 mm taken",
        "striker_mass": "004 § 35 (1) 1): at most 22 g; 20 g taken (players favour heavy ones)",
        "mu": "DESIGN.md: boric-acid powder on plywood, mu ~0.07-0.12 (starch 0.07-0.08, "
        "flour 0.11-0.15); 0.1 taken",
        "g": "standard gravity 9.80665 m/s^2",
        "e_disc": "DESIGN.md: wood on wood 0.75-0.9; 0.85 taken for hard birch",
        "e_rail": "DESIGN.md: disc on rail 0.5-0.8; 0.65 taken (the rail gives more)",
        "jump_speed": "model choice: to clear a 21 mm rail a disc needs a vertical speed of "
        "sqrt(2 g h) = 0.64 m/s; taking ~13 % of the normal speed turned upward by the "
        "impact on the rail's edge gives 5 m/s: a hard stroke straight at a rail. A disc "
        "that starts its motion already against the rail (a row puck) has no run-up and "
        "never jumps",
        "max_speed": "DESIGN.md: a hard stroke is a few m/s, a break up to about 8 m/s",
    },
)
"""The competition table of seed 004 § 33-36."""
