"""Learn to play: short lessons on a real table or board, each a set-up position with one
task, the strokes judged by the game's real physics and referee (docs/client.md, "Learn to
play"). Each game gives its lessons through the Game seam (`Game.lessons`,
server/games/seam.py); this capability lists them by the registry and serves a try over HTTP
(server/lessons/http.py) in worker processes (server/lessons/pool.py). Stateless: a try is
the lesson's position and the strokes played so far, replayed from the start each time.
"""

from server.lessons.catalog import game_of, listing, play

__all__ = ["game_of", "listing", "play"]
