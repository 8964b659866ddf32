"""The competitions service: tournaments stored in Redis, the rooms of each round, their results
into the pure tournament table (server/competitions/table/), and the organiser's and players' HTTP
API
(server/competitions/http.py). docs/competitions.md."""
