"""Learn to play (server/lessons), Novuss's lessons (server/games/novuss/lessons): every
lesson's task can be done and its worked solution does it; strokes that miss the task do
not; a try is refused as the referee refuses a stroke; the HTTP routes answer, refuse bad
input with a code, and cite paragraphs the rules page has."""

from __future__ import annotations

import json
import math
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from server.games.core.paths import discs_at
from server.games.novuss.lessons import LESSONS, LessonRefused, UnknownLesson, lesson, play_try
from server.games.novuss.rules.cites import parse_cite
from server.games.novuss.sim import Shot
from tests.server.test_protocol_doc import sections, undocumented

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("chosen", LESSONS, ids=[x.id for x in LESSONS])
def test_each_lessons_solution_does_its_task(chosen) -> None:
    result = play_try(chosen, chosen.solution)
    assert result.done and result.over
    motion = result.motion
    assert motion["duration"] > 0.0 and motion["paths"]
    # the motion's end shows the discs where they came to rest, save those the referee put
    moved = {spot[0] for spot in (*result.ruling.penalty_placed, *result.ruling.restored)}
    last = {d["id"]: (d["x"], d["y"]) for d in discs_at(motion, motion["duration"])}
    for d in result.discs:
        if d["id"] not in moved:
            assert last[d["id"]] == (d["x"], d["y"])


def test_a_direct_stroke_at_the_blind_puck_is_a_penalty_and_not_the_task() -> None:
    # 004 § 21 (1), § 24 (1) 8): the blind lesson's own puck in the centre circle struck directly
    blind = lesson("blind")
    p = blind.state.puck(1)
    shot = Shot(p.x, 60.0, math.pi / 2, 1500.0)
    result = play_try(blind, [shot])
    assert not result.done and result.over
    assert result.ruling.penalty
    assert any(ln.code == "penalty.direct_own_blind" for ln in result.ruling.lines)


def test_a_direct_stroke_in_the_rebound_lesson_is_not_a_rebound() -> None:
    # 004 § 21 (2): the task is a rebound; straight at the blind puck is a foul
    rebound = lesson("rebound")
    result = play_try(rebound, [Shot(540.0, 60.0, math.pi / 2, 1500.0)])
    assert not result.done and result.ruling.kind == "direct" and result.ruling.penalty


def test_a_stroke_touching_no_puck_does_no_lesson() -> None:
    # issue 36, 3: a stroke that touches nothing (a penalty, 004 § 24 (1) 1)) was taken as
    # the penalty lesson done; no lesson takes it
    for x in LESSONS:
        for sx in (150.0, 930.0):
            result = play_try(x, [Shot(sx, 60.0, math.pi / 2, 200.0)])
            assert result.ruling.first_touch == () and not result.done, (x.id, sx)


def test_the_penalty_lesson_is_done_by_the_stroke_it_asks_for_however_hard() -> None:
    # issue 36, 3: striking the opponent's puck first directly (004 § 24 (1) 2)) is the task,
    # also when the puck drops (it did end the set, the opponent's only puck, "not yet")
    pen = lesson("penalty")
    target = pen.state.puck(9)
    hits = 0
    for k in range(40):
        x = 200.0 + k * 17.0
        for speed in (400.0, 1500.0, 2900.0):
            angle = math.atan2(target.y - 60.0, target.x - x)
            result = play_try(pen, [Shot(x, 60.0, angle, speed)])
            if result.ruling.first_touch[:1] != (9,):
                continue
            hits += 1
            assert result.done and result.ruling.penalty, (x, speed, result.ruling.lines)
    assert hits > 60


def test_the_place_lesson_starts_the_striker_where_it_may_not_stay() -> None:
    # issue 36, 3: the learner must move the striker: where it starts is refused (§ 20 (2))
    place = lesson("place")
    assert place.striker is not None
    with pytest.raises(LessonRefused) as e:
        play_try(place, [Shot(*place.striker, math.pi / 2, 300.0)])
    assert e.value.code == "placement_touch"


def test_the_series_lesson_needs_a_kept_turn_then_a_lost_one() -> None:
    series = lesson("series")
    first = play_try(series, series.solution[:1])
    assert first.ruling.keeps_turn and not first.done and not first.over
    assert play_try(series, series.solution).done


def test_a_try_is_refused_as_the_referee_refuses_a_stroke() -> None:
    place = lesson("place")
    # 004 § 20 (2): the striker placed on the opponent's puck in the own zone
    with pytest.raises(LessonRefused) as e:
        play_try(place, [Shot(450.0, 60.0, math.pi / 2, 1000.0)])
    assert e.value.code == "placement_touch" and "20 (2)" in e.value.rule
    with pytest.raises(LessonRefused) as e:
        play_try(place, [])
    assert e.value.code == "bad_field"
    with pytest.raises(LessonRefused):  # more strokes than the lesson takes
        play_try(place, [*place.solution, *place.solution])
    # a stroke after the try is over (the strike right passed)
    with pytest.raises(LessonRefused) as e:
        play_try(lesson("series"), [Shot(540.0, 60.0, math.pi / 2, 300.0)] * 2)
    assert e.value.code == "not_your_turn"
    with pytest.raises(UnknownLesson):
        lesson("nope")


def test_every_lesson_cites_paragraphs_the_rules_page_has() -> None:
    anchors = json.dumps(json.loads((ROOT / "web/rules/rules.json").read_text()))
    for x in LESSONS:
        for ref in parse_cite(x.cite):
            assert f'"{ref.anchor}"' in anchors, (x.id, ref.anchor)


def _http(url: str, body: Any = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        text = e.read().decode()
        return e.code, json.loads(text) if text.startswith("{") else text


def test_the_routes_list_play_and_refuse(game_server) -> None:
    base = game_server().url
    status, listing = _http(f"{base}/api/lessons")
    assert status == 200
    novuss = [x for x in listing["lessons"] if x["game"] == "novuss"]
    assert [x["id"] for x in novuss] == [x.id for x in LESSONS]
    direct = novuss[1]
    assert direct["side"] == "S" and direct["seat"] == 0 and direct["discs"]
    s = lesson("direct").solution[0]
    shot = {"x": s.x, "y": s.y, "angle": s.angle, "speed": s.speed}
    status, answer = _http(f"{base}/api/lessons/direct", {"shots": [shot]})
    assert status == 200 and answer["done"] is True
    assert answer["lines"][0]["code"] == "stroke.direct" and answer["lines"][0]["cite"]
    # bad input: a clear refusal with a code, nothing played
    status, answer = _http(f"{base}/api/lessons/direct", {"shots": [{**shot, "x": "a"}]})
    assert status == 400 and answer["code"] == "bad_field"
    status, answer = _http(f"{base}/api/lessons/direct", {"shots": [{**shot, "y": 500.0}]})
    assert status == 400 and answer["code"] == "placement_zone" and answer["rule"]
    status, _ = _http(f"{base}/api/lessons/nope", {"shots": [shot]})
    assert status == 404


@pytest.mark.fresh_server  # the per-address limit at its default
def test_tries_from_one_address_are_limited(game_server) -> None:
    # each try is simulated and judged on the server's event loop: a flood is refused
    base = game_server().url
    s = lesson("direct").solution[0]
    shot = {"x": s.x, "y": s.y, "angle": s.angle, "speed": s.speed}
    statuses = [_http(f"{base}/api/lessons/direct", {"shots": [shot]}) for _ in range(14)]
    codes = [status for status, _ in statuses]
    assert codes[:10] == [200] * 10, "a burst of 10 is played"
    assert 429 in codes[10:], codes
    refused = next(answer for status, answer in statuses if status == 429)
    assert refused["code"] == "rate_limited"


def test_what_the_routes_send_is_documented(game_server) -> None:
    base = game_server().url
    parts = sections()
    doc = (
        parts["HTTP"]
        + parts["ruling"]
        + parts["The referee's data"]
        + parts["Discs, motion and the table"]
    )
    _, listing = _http(f"{base}/api/lessons")
    s = lesson("penalty").solution[0]
    shot = {"x": s.x, "y": s.y, "angle": s.angle, "speed": s.speed}
    _, answer = _http(f"{base}/api/lessons/penalty", {"shots": [shot]})
    missing = set(undocumented(listing, doc, "/api/lessons"))
    missing.update(undocumented(answer, doc, "/api/lessons/{id}"))
    assert not missing, "sent but not documented: " + ", ".join(sorted(missing))


@pytest.mark.parametrize("lang", ["en", "et", "lv"])
def test_every_lesson_is_worded_in_each_language(lang: str) -> None:
    catalog = (ROOT / f"web/js/i18n/{lang}.js").read_text()
    for x in LESSONS:
        for part in ("title", "task", "after"):
            assert f'"lesson.{x.id}.{part}":' in catalog, (lang, x.id, part)
