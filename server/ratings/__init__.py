"""Ratings: OpenSkill over match results, for singles and doubles (pure: no I/O).
docs/accounts.md ("Ratings") says the model, its parameters and how well it predicts."""
