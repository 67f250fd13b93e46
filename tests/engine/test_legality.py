"""§7 "validity is checked when the move is saved": check_orders finds every
problem, each naming the order at fault, and later ticks are checked from
where the player's own earlier orders take him."""

from __future__ import annotations

from dataclasses import replace

import pytest
from enginekit import CLASSIC, dragon, drg, fly, orders, player, position

from engine.geometry import Direction
from engine.legality import check_orders, player_path
from engine.orders import Catch, Pass, Penalty, PlayerOrder, Steal, Substitution
from engine.problems import Code, Problem
from engine.state import BallState


def codes(problems: list[Problem]) -> list[Code]:
    return [p.code for p in problems]


def check(state, *items, side=None) -> list[Problem]:
    return check_orders(state, orders(*items), CLASSIC, side=side)


def only(problems: list[Problem], order) -> Problem:
    assert len(problems) == 1, problems
    assert problems[0].order is order
    return problems[0]


ME = player("left", 1, 36, 2)


def test_s2_legal_orders_have_no_problem() -> None:
    state = position([ME, player("right", 1, 38, 2, balls=("red",))])
    assert (
        check(
            state,
            fly("left", 1, 37, 3, Steal(1)),
            fly("left", 1, 38, 3, Catch("red"), tick=2),
            fly("left", 1, 39, 2, tick=3),
            drg("left", "left"),
            drg("right", "forward", -1, "short"),
        )
        == []
    )


def test_s2_flight_too_far() -> None:
    o = fly("left", 1, 38, 2)
    p = only(check(position([ME]), o), o)
    assert (p.code, p.tick) == (Code.TOO_FAR, 1)
    assert p.params == {"number": 1, "from_cell": 36, "cell": 38, "distance": 2, "max": 1}
    assert "38" in p.message


def test_s2_height_step_too_big_and_bad_cells() -> None:
    state = position([player("left", 1, 36, 1)])
    assert codes(check(state, fly("left", 1, 36, 3))) == [Code.HEIGHT_STEP]
    assert codes(check(state, fly("left", 1, 999, 1))) == [Code.CELL_INVALID]
    assert codes(check(state, fly("left", 1, 36, 0))) == [Code.HEIGHT_INVALID]


def test_s2_later_ticks_are_checked_from_the_players_own_path() -> None:
    state = position([ME])
    path = [fly("left", 1, 37, 2), fly("left", 1, 38, 2, tick=2), fly("left", 1, 39, 3, tick=3)]
    assert check(state, *path) == []
    assert player_path(state, orders(*path), CLASSIC, "left", 1) == {
        1: (37, 2),
        2: (38, 2),
        3: (39, 3),
    }
    # An illegal tick-1 order leaves him at 36: tick 2's 38 is then too far.
    bad = [fly("left", 1, 99, 2), fly("left", 1, 37, 2, tick=2), fly("left", 1, 38, 2, tick=3)]
    assert codes(check(state, *bad)) == [Code.TOO_FAR]


def test_s2_hospital_player_launches_only_on_the_return_tick_from_a_re_entry_cell() -> None:
    state = position([player("left", 1, None, status="hospital", return_round=1)])
    early = fly("left", 1, 32, 2)
    assert only(check(state, early), early).code == Code.LAUNCH_TICK
    wrong = fly("left", 1, 36, 2, tick=3)
    assert only(check(state, wrong), wrong).code == Code.LAUNCH_CELL
    assert check(state, fly("left", 1, 32, 3, tick=3)) == []
    later = position([player("left", 1, None, status="hospital", return_round=2)])
    assert codes(check(later, fly("left", 1, 32, 3, tick=3))) == [Code.LAUNCH_TICK]


def test_s2_swallowed_and_reserve_players_cannot_be_ordered() -> None:
    state = position(
        [
            player("left", 1, None, status="swallowed", swallowed_by="right"),
            player("left", 2, None, status="reserve"),
        ]
    )
    problems = check(state, fly("left", 1, 36, 2), fly("left", 2, 36, 2))
    assert codes(problems) == [Code.NOT_ACTIVE, Code.NOT_ACTIVE]
    assert [p.params["status"] for p in problems] == ["swallowed", "reserve"]


@pytest.mark.parametrize(
    ("head", "facing", "move", "code"),
    [
        (105, Direction.E, "forward", Code.DRAGON_OFF_HALF),
        (83, Direction.W, "forward", Code.DRAGON_EDGE),
    ],
)
def test_s2_dragon_keeps_to_its_half_and_off_edge_cells(head, facing, move, code) -> None:
    state = position(dragons=[dragon("left", head, facing)])
    o = drg("left", move)
    assert only(check(state, o), o).code == code


def test_s2_dragon_path_over_the_round_and_height_limits() -> None:
    state = position(dragons=[dragon("left", 104, Direction.E, height=3)])
    # forward to 105 is fine; from there forward again reaches the centre line.
    problems = check(state, drg("left", "forward"), drg("left", "forward", tick=2))
    assert codes(problems) == [Code.DRAGON_OFF_HALF] and problems[0].tick == 2
    assert codes(check(state, drg("left", "left", 1))) == [Code.DRAGON_HEIGHT]
    assert codes(check(state, drg("left", "left", -2))) == [Code.DRAGON_HEIGHT_STEP]


def test_s2_paralysed_dragon_cannot_move_even_if_the_ball_was_just_swallowed() -> None:
    for d in (dragon("left", paralysed=True), dragon("left", pending_effects=("paralyse",))):
        state = position(dragons=[d])
        assert codes(check(state, drg("left", "forward"))) == [Code.DRAGON_PARALYSED]
        assert check(state, drg("left", "stay", 0, "short")) == []


def test_s4_steal_checks() -> None:
    state = position(
        [
            player("left", 1, 36, 2),
            player("right", 1, 40, 2, balls=("red",)),
            player("right", 2, None, status="hospital", return_round=3),
        ]
    )
    # 37 → right 1 at 40 is 3 cells away: on tick 1 he cannot be in reach,
    # on tick 2 he might (1 + 2 ticks).
    assert codes(check(state, fly("left", 1, 37, 2, Steal(1)))) == [Code.STEAL_OUT_OF_REACH]
    assert check(state, fly("left", 1, 37, 2), fly("left", 1, 38, 2, Steal(1), tick=2)) == []
    assert codes(check(state, fly("left", 1, 36, 2, Steal(9)))) == [Code.STEAL_UNKNOWN]
    assert codes(check(state, fly("left", 1, 36, 2, Steal(2)))) == [Code.STEAL_TARGET_OUT]


def test_s4_two_balls_are_the_most_a_player_can_hold() -> None:
    state = position([player("left", 1, 36, 2, balls=("red", "blue"))])
    assert codes(check(state, fly("left", 1, 36, 2, Catch()))) == [Code.HANDS_FULL]
    # After passing one away he may catch again.
    assert (
        check(
            state,
            fly("left", 1, 36, 2, Pass("red", 38, 2)),
            fly("left", 1, 36, 2, Catch(), tick=2),
        )
        == []
    )


def test_s4_no_order_on_an_earlier_tick_drops_the_balls() -> None:
    state = position([player("left", 1, 36, 2, balls=("red",))])
    o = fly("left", 1, 36, 2, Pass("red", 38, 2), tick=2)
    assert only(check(state, o), o).code == Code.PASS_NO_BALL


def test_s5_pass_checks() -> None:
    holder = player("left", 1, 36, 2, balls=("red", "yellow"))
    state = position([holder])
    cases = {
        Pass("blue", 38, 2): Code.PASS_NO_BALL,
        Pass("red", 41, 2): Code.PASS_RANGE,  # 5 cells
        Pass("red", 36, 2): Code.PASS_RANGE,  # 0 cells
        Pass("yellow", 40, 2): Code.PASS_YELLOW_RANGE,  # 4 cells, at most 3
        Pass("red", 38, 4): Code.HEIGHT_INVALID,
        Pass("red", 38, 2, "abracadabra"): Code.SPELL_UNKNOWN,
        Pass("purple", 38, 2): Code.BALL_UNKNOWN,
    }
    for action, code in cases.items():
        o = fly("left", 1, 36, 2, action)
        assert only(check(state, o), o).code == code, action
    assert check(state, fly("left", 1, 36, 2, Pass("yellow", 39, 2))) == []


def test_s5_pass_of_a_ball_he_may_catch_earlier_in_the_round() -> None:
    state = position([ME])
    assert (
        check(
            state, fly("left", 1, 36, 2, Catch()), fly("left", 1, 36, 2, Pass("red", 38, 2), tick=2)
        )
        == []
    )
    passed = position([player("left", 1, 36, 2, balls=("red",))])
    twice = [
        fly("left", 1, 36, 2, Pass("red", 38, 2)),
        fly("left", 1, 36, 2, Pass("red", 38, 2), tick=2),
    ]
    assert codes(check(passed, *twice)) == [Code.PASS_NO_BALL]


def test_s5_enchanted_pass_quota_and_counter_spells() -> None:
    spell = CLASSIC.spells[0].spell
    state = position(
        [player("left", 1, 36, 2, balls=("red",)), player("left", 2, 53, 2, balls=("blue",))],
        enchanted_left=(1, 5),
    )
    first = fly("left", 1, 36, 2, Pass("red", 38, 2, spell))
    second = fly("left", 2, 53, 2, Pass("blue", 55, 2, spell))
    p = only(check(state, first, second), second)
    assert (p.code, p.params) == (Code.ENCHANT_QUOTA, {"left": 1, "ordered": 2})
    o = fly("left", 1, 36, 2, Catch(None, "hocus-pocus"))
    assert only(check(state, o), o).code == Code.COUNTER_UNKNOWN


def test_s5_swallowed_ball_is_out_of_play() -> None:
    state = position([ME], [BallState("red", "swallowed", 102, 2, swallowed_by="left")])
    assert codes(check(state, fly("left", 1, 36, 2, Catch("red")))) == [Code.BALL_OUT_OF_PLAY]


def test_s6_fire_checks() -> None:
    budget = position(dragons=[dragon("left", short_left=1)])
    problems = check(
        budget, drg("left", "left", fire="short"), drg("left", "right", fire="short", tick=2)
    )
    assert codes(problems) == [Code.FIRE_BUDGET]
    assert problems[0].params == {"fire": "short", "left": 1, "ordered": 2}
    out = position(dragons=[dragon("left", pending_effects=("extinguish",))])
    assert codes(check(out, drg("left", fire="volley"))) == [Code.FIRE_EXTINGUISHED]
    dazed = position(dragons=[dragon("left", effect="daze")])
    assert codes(check(dazed, drg("left", fire="short"))) == [Code.FIRE_DAZED]
    # A new ball pending ends the daze before the next tick.
    cured = position(dragons=[dragon("left", effect="daze", pending_effects=("pepper",))])
    assert check(cured, drg("left", fire="short")) == []


def test_s8_substitution_checks() -> None:
    state = position(
        [
            player("left", 1, 36, 2),
            player("left", 2, None, status="swallowed", swallowed_by="right"),
            player("left", 8, None, status="reserve"),
            player("left", 9, None, status="reserve", return_round=3),
        ]
    )
    assert codes(check(state, Substitution("left", 2, 8))) == [Code.SUBST_SWALLOWED]
    assert codes(check(state, Substitution("left", 1, 1))) == [Code.SUBST_NOT_RESERVE]
    assert codes(check(state, Substitution("left", 1, 42))) == [Code.SUBST_UNKNOWN]
    assert codes(check(state, Substitution("left", 1, 9))) == [Code.SUBST_INJURED]
    late = replace(state, tick=1)
    assert codes(check(late, Substitution("left", 1, 8))) == [Code.SUBST_TICK]


def test_s8_the_reserve_flies_from_the_place_he_takes() -> None:
    state = position([player("left", 1, 36, 2), player("left", 8, None, status="reserve")])
    sub = Substitution("left", 1, 8)
    assert check(state, sub, fly("left", 8, 37, 2)) == []
    assert codes(check(state, sub, fly("left", 1, 37, 2))) == [Code.NOT_ACTIVE]


def test_s9_tick_and_team_checks() -> None:
    state = position([ME, player("right", 1, 40, 2)], tick=1)
    assert codes(check(state, fly("left", 1, 36, 2))) == [Code.TICK_PAST]
    assert codes(check(state, fly("left", 1, 36, 2, tick=4))) == [Code.TICK_RANGE]
    theirs = fly("right", 1, 40, 2, tick=2)
    assert only(check(state, theirs, side="left"), theirs).code == Code.OTHER_TEAM
    assert codes(check(state, drg("right", tick=2), side="left")) == [Code.OTHER_TEAM]
    assert codes(check(state, fly("left", 5, 36, 2, tick=2))) == [Code.UNKNOWN_PLAYER]
    dup = fly("left", 1, 37, 2, tick=2)
    problems = check(state, fly("left", 1, 36, 2, tick=2), dup)
    assert only(problems, dup).code == Code.DUPLICATE


def test_s9_nothing_can_be_ordered_once_the_match_is_over() -> None:
    state = replace(position([ME]), status="ended", end_reason="all_balls")
    o = fly("left", 1, 36, 2)
    assert only(check(state, o), o).code == Code.MATCH_ENDED


def test_s10_penalties_are_for_game_masters_and_future_ticks() -> None:
    state = position([ME], tick=1, round_=4, warned_round=(3, None))
    assert codes(check(state, Penalty("left", 1))) == [Code.PENALTY_TICK]
    assert check(state, Penalty("left", 3)) == []
    assert codes(check(state, Penalty("left", 3), side="left")) == [Code.GM_ONLY]


def test_s10_a_penalty_needs_a_warning_in_the_round_before() -> None:
    for warned in (None, 2, 4):  # never, two rounds ago, this round
        state = position([ME], round_=4, warned_round=(warned, None))
        pen = Penalty("left", 1)
        problem = only(check(state, pen), pen)
        assert problem.code == Code.PENALTY_NO_WARNING
        assert problem.params == {"side": "left", "round": 3}


def test_s9_every_problem_names_its_order() -> None:
    state = position([ME])
    bad: list[PlayerOrder] = [fly("left", 1, 99, 7), fly("left", 1, 37, 1, Pass("x", 1, 1))]
    for p in check(state, *bad):
        assert any(p.order is o for o in bad)
        assert p.message
