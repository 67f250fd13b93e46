"""The case format, the position builder and dice forced by name
(engine.cases): what a referee writes is what the engine plays."""

from __future__ import annotations

import tomllib

import pytest

from engine.cases import CaseError, parse_case, play, run_case
from engine.events import Kind

HELD_ON = """
title = "held on"
rule = "4.25"
quote = "он потеряет все выбранные на такт действия с мячами"

[players]
L1 = { at = "36/2", holds = "red" }
R1 = "37/2"

[orders]
L1 = "37/2 pass red 39/2"
R1 = "37/2"

[dice]
collision = "R1"
second_falls = false

[expect]
L1 = { at = "37/2", holds = ["red"] }
events = ["held_on L1"]
"""


def case(text: str, name: str = "t"):
    return parse_case(tomllib.loads(text), name=name)


def test_a_case_runs_and_passes() -> None:
    result = run_case(case(HELD_ON))
    assert result.passed, result.detail
    assert result.line().startswith("PASS t: as expected (L1.at = '37/2'")


def test_a_wrong_expectation_fails_with_observed_and_expected() -> None:
    result = run_case(case(HELD_ON.replace('holds = ["red"]', "holds = []")))
    assert not result.passed
    assert "L1.holds: expected [], observed ['red']" in result.line()


def test_forced_picks_choose_by_name_and_the_rest_comes_from_the_seed() -> None:
    falls_l1 = play(case(HELD_ON.replace('collision = "R1"', 'collision = "L1"')), "s")
    pick = next(e for e in falls_l1.events if e.kind == Kind.COLLISION_PICK)
    assert (pick.data["side"], pick.data["number"]) == ("left", 1)
    assert pick.roll is not None and pick.roll < 0.5  # a roll that gives that pick
    # Forcing one draw does not move the others: unforced, the stream is the same.
    free = play(case(HELD_ON.replace('collision = "R1"\n', "")), "s")
    forced = play(case(HELD_ON), "s")
    rolls = [e.roll for e in free.events if e.roll is not None]
    forced_rolls = [e.roll for e in forced.events if e.roll is not None]
    assert len(rolls) == len(forced_rolls)
    assert rolls[1:] == forced_rolls[1:]  # only the collision pick differs, if at all


def test_a_forced_draw_that_cannot_happen_is_a_failure() -> None:
    never = HELD_ON.replace("[dice]", '[dice]\n"steal L1" = true')
    result = run_case(case(never))
    assert not result.passed
    assert "forced draw 'steal L1' never happened" in result.detail
    impossible = HELD_ON.replace('collision = "R1"', 'collision = "L7"')
    result = run_case(case(impossible))
    assert any("not one of L1, R1" in d for d in result.detail)


def test_unnamed_balls_are_out_and_unnamed_dragons_parked_away() -> None:
    c = case(HELD_ON)
    balls = {b.name: b.status for b in c.position.balls}
    assert balls == {"black": "out", "green": "out", "blue": "out", "red": "held", "yellow": "out"}
    from engine.resolution.geo import DIST

    for d in c.position.dragons:
        assert min(DIST[d.head][cell] for cell in (36, 37, 39)) >= 4


def test_a_held_ball_is_named_once() -> None:
    twice = HELD_ON.replace(
        'R1 = "37/2"\n\n[orders]', 'R1 = "37/2"\n\n[balls]\nred = "40/2"\n\n[orders]'
    )
    with pytest.raises(CaseError, match="a held ball is named once"):
        case(twice)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ('L1 = "37/2 pass red 39/2"', "orders"),
        ('R1 = "37/2"\n\n[orders]', "players.R1"),
        ("second_falls = false", "dice"),
        ('events = ["held_on L1"]', "expect"),
    ],
)
def test_bad_input_names_the_key_at_fault(change: str, message: str) -> None:
    broken = {
        "orders": 'L1 = "37/2 throw red 39/2"',
        "players.R1": 'R1 = "37-2"\n\n[orders]',
        "dice": "wobble = false",
        "expect": 'events = ["no_such_kind L1"]',
    }[message]
    with pytest.raises(CaseError) as err:
        case(HELD_ON.replace(change, broken))
    assert message.split(".")[0] in str(err.value)


def test_no_order_drops_the_balls() -> None:
    text = """
rule = "4.30"
quote = "Если игрок не сделал ход, то он роняет все мячи, находящиеся в его руках."
[players]
L1 = { at = "36/2", holds = "red" }
[orders]
L1 = "none"
[expect]
red = { status = "free", at = "36/2" }
events = ["no_order L1 reason=none", "ball_dropped red L1 reason=no_order"]
"""
    assert run_case(case(text)).passed


def test_refused_when_saved_compares_the_problem_codes() -> None:
    text = """
rule = "7.11"
quote = "Если пас сделан более чем на 3 клетки, то он не сохраняется."
[players]
L1 = { at = "36/2", holds = "yellow" }
[orders]
L1 = "36/2 pass yellow 40/2"
[expect]
refused = "%s"
"""
    assert run_case(case(text % "pass_yellow_range")).passed
    wrong = run_case(case(text % "pass_range"))
    assert not wrong.passed and "pass_yellow_range" in wrong.observed


def test_a_probability_is_checked_over_seeds_within_the_tolerance() -> None:
    text = """
rule = "4.4"
quote = "50% - если мяч и игрок на соседних клетках."
[players]
L1 = "36/2"
[balls]
green = { at = "35/2", direction = "E" }  # flies 35 → 36 → 37 at step 1
[orders]
L1 = "36/2 catch green"
[expect]
L1 = { holds = ["green"] }
probability = P
seeds = 400
"""
    good = run_case(case(text.replace("= P", "= 0.5")))
    assert good.passed, good.detail
    bad = run_case(case(text.replace("= P", "= 0.75")))
    assert not bad.passed and "is not 0.75" in bad.detail[-1]


def test_a_case_names_its_ruleset_version() -> None:
    # Version 1 threw the pass at step 1: the survivor's pass was already gone.
    old = run_case(case(HELD_ON.replace('title = "held on"', 'ruleset = "classic@1"')))
    assert not old.passed
    assert "L1.holds: expected ['red'], observed []" in old.detail
    with pytest.raises(CaseError, match="no version 9"):
        case(HELD_ON.replace('title = "held on"', 'ruleset = "classic@9"'))


def test_orders_for_later_ticks_and_rounds() -> None:
    text = """
rule = "2.4"
quote = "взлетают на 3-м такте"
[players]
L1 = { status = "hospital", return_round = 2 }
[orders."2.3"]
L1 = "16/3"
[expect]
L1 = { status = "active", at = "16/3" }
events = ["player_launch L1 round=2 tick=3 ordered=true"]
"""
    c = case(text)
    assert c.moments[-1] == (2, 3) and len(c.moments) == 6
    assert run_case(c).passed
