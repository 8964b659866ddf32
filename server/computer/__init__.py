"""The computer opponent in the product: its seats in rooms (seats.py), practice's hints and
take-backs (practice.py), and the worker processes that run each game's search (thinker.py).
The searches themselves are the games' own (server/games/*/bot). docs/bot.md."""
