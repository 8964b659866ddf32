"""The competitions service: tournaments stored in Redis, the rooms of each round, their results
into the pure tournament table (server/tournament/), and the organiser's and players' HTTP API
(server/net/tournaments.py). docs/competitions.md."""
