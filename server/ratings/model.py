"""The rating model: OpenSkill's Thurstone-Mosteller (full pairing), chosen over Plackett-Luce
because it predicted results better on simulated players of known strength (bench/ratings.py,
docs/accounts.md, "Ratings"). A doubles team is rated from its two partners' skills, and each
partner moves by their share of the team's uncertainty, as OpenSkill does for teams.

A skill is (mu, sigma): its mean and uncertainty. It is shown as one number, the mean scaled
so a newcomer starts at 1500, with a provisional mark while sigma is large; the leaderboard
orders by the conservative estimate mu - 3 sigma (OpenSkill's ordinal), so a lucky newcomer
does not top it after two wins.
"""

from __future__ import annotations

from dataclasses import dataclass

from openskill.models import ThurstoneMostellerFull

MODEL = ThurstoneMostellerFull()
SCALE = 60.0  # shown rating points per unit of mu: mu 25 (a newcomer) shows as 1500
PROVISIONAL_SIGMA = 4.5  # above this the rating is shown provisional (about 15 matches)
# Each game is rated apart, and each way of playing it: Novuss by mode; Crokinole's singles,
# doubles, and 3 or 4 players each alone (002 7 d) ranked by their points.
MODES = ("singles", "doubles", "crokinole-singles", "crokinole-doubles", "crokinole-7d")


@dataclass(frozen=True)
class Skill:
    """One player's rating in one mode."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    matches: int = 0

    @property
    def shown(self) -> int:
        """The one number a player sees."""
        return round(self.mu * SCALE)

    @property
    def provisional(self) -> bool:
        """True while the rating is too uncertain to mean much."""
        return self.sigma > PROVISIONAL_SIGMA

    @property
    def ordinal(self) -> float:
        """The conservative estimate the leaderboard orders by."""
        return self.mu - 3 * self.sigma

    def view(self) -> dict[str, object]:
        """The rating as served (docs/accounts.md, "Ratings")."""
        return {
            "rating": self.shown,
            "provisional": self.provisional,
            "matches": self.matches,
            "mu": round(self.mu, 4),
            "sigma": round(self.sigma, 4),
        }


def rate(teams: list[list[Skill]], winner: int | None) -> list[list[Skill]]:
    """The skills after a two-team match won by team `winner` (None: a draw, 004 § 32 (1))."""
    ranks = [0.0, 0.0] if winner is None else [0.0 if t == winner else 1.0 for t in range(2)]
    return rate_ranked(teams, ranks)


def rate_ranked(teams: list[list[Skill]], ranks: list[float]) -> list[list[Skill]]:
    """The skills after a match of two or more sides finishing in `ranks` (0 the best; equal
    ranks tie): a 3 or 4 player Crokinole game (002 7 d) rates every side against each other
    by where it finished, as OpenSkill's full pairing does."""
    if len(ranks) != len(teams) or len(teams) < 2:
        raise ValueError(f"{len(teams)} sides and {len(ranks)} ranks: one rank a side, two or more")
    rated = MODEL.rate(
        [[MODEL.rating(mu=s.mu, sigma=s.sigma) for s in team] for team in teams], ranks=ranks
    )
    return [
        [Skill(r.mu, r.sigma, s.matches + 1) for r, s in zip(after, before, strict=True)]
        for after, before in zip(rated, teams, strict=True)
    ]
