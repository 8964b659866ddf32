"""Ratings: OpenSkill over match results, for singles and doubles (pure: no I/O).
docs/ratings.md says the model, its parameters and how well it predicts."""
