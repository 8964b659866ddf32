"""Crokinole's lessons in Learn to play (server/games/crokinole/lessons.py), served through
the Game seam by the lessons capability: each lesson's worked solution does its task, a shot
that does not do what the lesson asks is not taken as done, a try is refused as the referee
refuses a shot (002 5), and the HTTP routes list and play them for the game named."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from server.games.core.lessons import LessonRefused, UnknownLesson
from server.games.core.paths import discs_at
from server.games.core.play import Shot
from server.games.crokinole.board import TOURNAMENT
from server.games.crokinole.lessons import LESSONS, lesson, play_try
from server.games.crokinole.match import OFFSET
from server.games.registry import game
from server.lessons import game_of, listing
from tests.lessons.test_lessons import _http
from tests.server.test_protocol_doc import sections, undocumented

ROOT = Path(__file__).resolve().parents[2]
B = TOURNAMENT


def _from(polar_deg: float, tx: float, ty: float, slide: float) -> Shot:
    """A shot from the learner's shooting line at `polar_deg` (touching it, 002 5) through
    (tx, ty) (the rules' coordinates, from the centre) to rest `slide` mm beyond."""
    a = math.radians(polar_deg)
    r = B.shooting_radius - 4.0
    x, y = r * math.cos(a), r * math.sin(a)
    d = math.hypot(tx - x, ty - y) + slide
    return Shot(x + OFFSET, y + OFFSET, math.atan2(ty - y, tx - x), math.sqrt(2 * B.decel * d))


def _wire(s: Shot) -> dict[str, float]:
    return {"x": s.x, "y": s.y, "angle": s.angle, "speed": s.speed}


@pytest.mark.parametrize("chosen", LESSONS, ids=[x.id for x in LESSONS])
def test_each_lessons_solution_does_its_task(chosen) -> None:
    answer = play_try(chosen, chosen.solution)
    assert answer["done"] and answer["over"]
    motion = answer["motion"]
    assert motion["duration"] > 0.0 and motion["paths"]
    # the motion's end shows the discs where the ruling left them (none ditched by it)
    assert not answer["ruling"]["to_ditch"]
    last = {d["id"]: (d["x"], d["y"]) for d in discs_at(motion, motion["duration"])}
    for d in answer["discs"]:
        assert last[d["id"]] == (d["x"], d["y"])


def test_a_shot_short_of_the_15_is_not_the_line_lesson() -> None:
    # 002 3 b: on an empty board a disc resting outside the 15 is no valid shot: not done
    answer = play_try(lesson("crokinole-line"), [_from(-67.5, 0.0, -150.0, 0.0)])
    assert not answer["done"] and answer["over"]
    assert answer["ruling"]["code"] == "not_in_15" and answer["ruling"]["rule"] == "3 b"
    assert answer["ruling"]["to_ditch"] == [0]  # 3 c: the shot disc goes to the ditch


def test_a_disc_resting_in_the_15_is_not_the_twenty_lesson() -> None:
    # 002 2 b: valid (3 b), but the disc lies beside the hole, not in it
    answer = play_try(lesson("crokinole-twenty"), [_from(-67.5, 0.0, -50.0, 0.0)])
    assert answer["ruling"]["valid"] and not answer["ruling"]["twenties"]
    assert not answer["done"] and answer["over"]


def test_the_twenty_lesson_is_done_by_the_hole_alone() -> None:
    # 002 2 b: only a disc come to rest in the hole; a shot through the centre that slides
    # on is not
    twenty = lesson("crokinole-twenty")
    past = play_try(twenty, [_from(-67.5, 0.0, 0.0, 40.0)])
    assert not past["done"] and not past["ruling"]["twenties"]
    assert play_try(twenty, twenty.solution)["ruling"]["twenties"] == [0]


def test_missing_the_opponents_disc_is_not_the_hit_lesson() -> None:
    # 002 3 a, 3 c: an opposing disc is on the board; a shot into the 15 that misses it is
    # invalid, and the shot disc goes to the ditch
    hit = lesson("crokinole-hit")
    answer = play_try(hit, [_from(-112.5, 0.0, -50.0, 0.0)])  # away from it, between pegs
    assert answer["ruling"]["code"] == "no_opponent_struck" and answer["ruling"]["rule"] == "3 a"
    assert not answer["done"] and answer["over"]
    assert [d["id"] for d in answer["discs"]] == [10]  # the opponent's disc stays


def test_hits_from_anywhere_on_the_line_are_the_hit_lesson() -> None:
    # 002 3 a: whatever the start and strength, a shot whose disc meets the opposing one
    hit = lesson("crokinole-hit")
    (theirs,) = hit.state.discs
    tx, ty = theirs.x, theirs.y
    hits = 0
    for polar in (-120.0, -100.0, -80.0, -60.0):
        for slide in (20.0, 150.0, 400.0):
            answer = play_try(hit, [_from(polar, tx, ty, slide)])
            if answer["ruling"]["code"] == "no_opponent_struck":
                continue  # a peg in the way
            hits += 1
            assert answer["done"], (polar, slide, answer["ruling"])
    assert hits >= 6


def test_a_try_is_refused_as_the_referee_refuses_a_shot() -> None:
    line = lesson("crokinole-line")
    # 002 5: a disc set inside the shooting line
    inside = Shot(OFFSET, OFFSET - 200.0, math.pi / 2, 500.0)
    with pytest.raises(LessonRefused) as e:
        play_try(line, [inside])
    assert e.value.code == "inside_shooting_line" and e.value.rule == "5"
    # 002 5: outside the learner's quadrant (the north one is the opponent's)
    with pytest.raises(LessonRefused) as e:
        play_try(line, [Shot(OFFSET, OFFSET + 300.0, -math.pi / 2, 500.0)])
    assert e.value.code == "outside_quadrant"
    with pytest.raises(LessonRefused) as e:
        play_try(line, [])
    assert e.value.code == "bad_field"
    with pytest.raises(LessonRefused):  # one shot a try: the turn passes (002 2 a)
        play_try(line, [*line.solution, *line.solution])
    with pytest.raises(UnknownLesson):
        lesson("nope")


def test_the_capability_finds_lessons_by_the_registry() -> None:
    crok = game("crokinole")
    assert crok.lessons is not None
    listed = [x for x in listing() if x["game"] == crok.name]
    assert [x["id"] for x in listed] == [x.id for x in LESSONS]
    assert listed[0]["quadrant"] == 0 and listed[0]["board"]["game"] == "crokinole"
    assert game_of("crokinole", "crokinole-hit") == "crokinole"
    with pytest.raises(UnknownLesson):  # a Crokinole lesson is not the default game's
        game_of(None, "crokinole-hit")
    with pytest.raises(UnknownLesson):
        game_of("chess", "crokinole-hit")


@pytest.mark.parametrize("lang", ["en", "et", "lv"])
def test_every_crokinole_lesson_is_worded_in_each_language(lang: str) -> None:
    catalog = (ROOT / f"web/js/i18n/{lang}.js").read_text()
    for x in LESSONS:
        for part in ("title", "task", "after"):
            assert f'"lesson.{x.id}.{part}":' in catalog, (lang, x.id, part)


@pytest.mark.fresh_server  # its own tries' budget: a burst of 10 an address (lessons/http.py)
def test_the_routes_list_and_play_crokinole_lessons(game_server) -> None:
    base = game_server().url
    status, body = _http(f"{base}/api/lessons")
    assert status == 200
    crok = [x for x in body["lessons"] if x["game"] == "crokinole"]
    assert [x["id"] for x in crok] == [x.id for x in LESSONS]
    hit = next(x for x in crok if x["id"] == "crokinole-hit")
    assert [d["id"] for d in hit["discs"]] == [10] and hit["seat"] == 0
    shot = _wire(lesson("crokinole-hit").solution[0])
    url = f"{base}/api/lessons/crokinole-hit"
    status, answer = _http(url, {"game": "crokinole", "shots": [shot]})
    assert status == 200 and answer["done"] is True and answer["ruling"]["rule"] == "3 a"
    assert answer["lines"][0]["code"] == "shot.valid"
    # a miss: played and judged, not done
    miss = _from(-112.5, 0.0, -50.0, 0.0)
    status, answer = _http(url, {"game": "crokinole", "shots": [_wire(miss)]})
    assert status == 200 and answer["done"] is False
    # the referee's refusal with its code and paragraph (002 5), nothing played
    inside = {**shot, "x": OFFSET, "y": OFFSET - 200.0}
    status, answer = _http(url, {"game": "crokinole", "shots": [inside]})
    assert status == 400 and answer["code"] == "inside_shooting_line" and answer["rule"] == "5"
    # a Crokinole lesson asked of the default game, or of no game: no such lesson
    assert _http(url, {"shots": [shot]})[0] == 404
    assert _http(url, {"game": "chess", "shots": [shot]})[0] == 404
    status, answer = _http(url, {"game": 7, "shots": [shot]})
    assert status == 400 and answer["code"] == "bad_field"
    # every field sent is documented
    parts = sections()
    names = ("HTTP", "ruling", "Crokinole rooms", "Discs, motion and the table")
    doc = "".join(parts[k] for k in names)
    good = _http(url, {"game": "crokinole", "shots": [shot]})[1]
    missing = set(undocumented(crok, doc, "/api/lessons")) | set(
        undocumented(good, doc, "/api/lessons/{id}")
    )
    assert not missing, "sent but not documented: " + ", ".join(sorted(missing))
