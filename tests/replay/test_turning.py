"""The turning points of a replayed match (server/replay/turning.py): a set won (004 § 27
(3)), the match decided, and the side ahead on the table passing to the other side within a
set; a level table in between is no change. Pure, on steps as the viewer is served them."""

from __future__ import annotations

from typing import Any

from server.replay.steps import recompute
from server.replay.turning import turning_points
from tests.replay.scripted import scripted_record


def step(
    n: int | None,
    ahead: int | None,
    score: tuple[int, int] = (0, 0),
    set_no: int = 1,
    result: dict[str, Any] | None = None,
) -> dict[str, Any]:
    return {"stroke": n, "ahead": ahead, "score": list(score), "set": set_no, "result": result}


def test_a_lead_passing_to_the_other_side_a_set_and_the_match_are_turning_points():
    start = step(None, None)
    steps = [
        step(1, 0),  # team 0 ahead first: no change (nobody was ahead)
        step(2, None),  # level
        step(3, 0),  # team 0 again: the same side, no change
        step(4, 1),  # team 1 ahead: a turning point
        step(5, 1),
        step(6, None, (0, 1), 2),  # team 1 wins set 1; set 2 starts level
        step(7, 0, (0, 1), 2),  # a new set: the first side ahead is no change
        step(8, 1, (0, 1), 2),  # team 1 overtakes
        step(None, None, (0, 1), 2, {"winner": 1, "reason": "resigned"}),
    ]
    turns = turning_points(start, steps)
    assert [(t["index"], t["stroke"], t["why"], t["side"]) for t in turns] == [
        (4, 4, "lead", 1),
        (6, 6, "set", 1),
        (8, 8, "lead", 1),
        (9, None, "match", 1),
    ]


def test_steps_without_a_side_ahead_mark_only_the_score_and_the_result():
    # a game whose table says nobody ahead (Crokinole's): its rounds' points and its end
    start = {"score": [0, 0], "set": 1, "result": None}
    steps = [
        {"stroke": 1, "score": [0, 0], "set": 1, "result": None},
        {"stroke": 2, "score": [20, 0], "set": 2, "result": None},
        {"stroke": 3, "score": [20, 15], "set": 3, "result": None},
        {"stroke": 4, "score": [20, 30], "set": 3, "result": {"winner": None}},
    ]
    assert [(t["index"], t["why"], t["side"]) for t in turning_points(start, steps)] == [
        (2, "set", 0),
        (3, "set", 1),
        (4, "match", None),
    ]
    assert turning_points(start, []) == []


def test_a_replayed_match_has_its_lead_changes_and_its_end_marked():
    record = scripted_record(seed=8, strokes=60)  # a set won, and leads that change
    replayed = recompute(record)
    turns = turning_points(replayed.start, replayed.steps)
    # every step's table says who is ahead by the pucks still to pocket, on the table or
    # owed (004 § 27 (3), § 24), counted here from the discs and the last ruling's debts
    debts = [0, 0, 0, 0]
    for s in replayed.steps:
        debts = (s.get("ruling") or {}).get("debts", debts)
        left = [sum(debts[0::2]), sum(debts[1::2])]  # seats 0 & 2, 1 & 3
        for d in s["discs"]:
            if d["id"] != 0:
                left[d["owner"] % 2] += 1
        assert s["ahead"] == (None if left[0] == left[1] else int(left[1] < left[0]))
    assert turns and turns[-1]["why"] == "match"  # the resignation decides it
    assert turns[-1]["index"] == [s["kind"] for s in replayed.steps].index("resign") + 1
    assert {t["why"] for t in turns} == {"lead", "set", "match"}
    for t in turns:
        if t["why"] == "set":  # the score moved for the side it names
            after, before = (
                replayed.steps[t["index"] - 1]["score"],
                replayed.steps[t["index"] - 2]["score"],
            )
            assert after[t["side"]] == before[t["side"]] + 1
    leads = [t for t in turns if t["why"] == "lead"]
    for t in leads:  # a lead change is the other side than the one last ahead
        before = [s["ahead"] for s in replayed.steps[: t["index"] - 1] if s["ahead"] is not None]
        assert before and before[-1] != t["side"] == replayed.steps[t["index"] - 1]["ahead"]
