"""The match history: each finished match archived into its players' lists, figures and
ratings (docs/accounts.md, "History")."""
