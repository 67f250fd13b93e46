"""§7: dragons swallowing balls landed by a pass (step 2) and balls freed this
tick (step 7), the closed mouth's bounce."""

from __future__ import annotations

import pytest
from enginekit import dragon, drg, fly, in_air, of, one, orders, player, position, resolve

from engine.events import Kind
from engine.orders import Catch, Pass

HEAD = 102  # left dragon, height 2; without orders it stays with its mouth open


@pytest.mark.parametrize(
    ("cell", "height", "where", "p"),
    [
        (HEAD, 2, "head_same_height", 1.0),
        (HEAD, 3, "head_other_height", 0.75),
        (86, 1, "adjacent", 0.5),
    ],
)
def test_s7_pass_into_an_open_mouth(cell: int, height: int, where: str, p: float) -> None:
    # Passed last tick from 70, it lands at step 1 and is judged at step 2.
    state = position([player("right", 1, 70, 2)], [in_air("red", 70, cell, height)])
    result = resolve(state, None, [p - 0.001])
    roll = one(result.events, Kind.BALL_SWALLOW_ROLL)
    assert (roll.step, roll.p, roll.data["where"], roll.ok) == (2, p, where, True)
    assert result.state.ball("red").status == "swallowed"
    assert one(result.events, Kind.GOAL).step == 2


def test_s7_a_missed_shot_gets_one_chance_a_tick_not_a_second_at_step_7() -> None:
    # §7 gives a ball next to an open mouth 50%; judging the same uncaught
    # pass again at step 7 would make it 75%.
    state = position([player("right", 1, 70, 2)], [in_air("red", 70, 86)])
    result = resolve(state, None, [0.9, 0.1])
    rolls = of(result.events, Kind.BALL_SWALLOW_ROLL)
    assert [(e.step, e.ok) for e in rolls] == [(2, False)]
    assert not of(result.events, Kind.GOAL)
    red = result.state.ball("red")
    assert (red.status, red.cell) == ("free", 86)


def test_s7_pass_onto_a_closed_head_bounces_off() -> None:
    state = position(
        [player("right", 1, 70, 2), player("right", 2, 86, 2)],
        [in_air("red", 70, HEAD)],
        dragons=[dragon("left", height=1)],
    )
    given = orders(
        drg("left", "stay", 1),  # a height step: the mouth stays shut
        fly("right", 2, 86, 2, Catch("red")),
    )
    result = resolve(state, given, [0.0])
    bounce = one(result.events, Kind.BALL_BOUNCE)
    assert (bounce.step, bounce.data["reason"], bounce.p) == (2, "closed_mouth", 1 / 5)
    red = result.state.ball("red")
    assert red.status == "free" and red.cell == bounce.data["cell"] != 101
    # Bounced: no longer a pass to catch, and not catchable this tick.
    assert not of(result.events, Kind.CATCH_ROLL)


def test_s7_ball_freed_by_a_fall_may_be_swallowed_at_step_7() -> None:
    # Three left players collide on 86, next to their own dragon's open mouth;
    # the red ball one of them held falls free and is swallowed (an own goal).
    state = position(
        [
            player("left", 1, 86, 2, balls=("red",)),
            player("left", 2, 86, 2),
            player("left", 3, 70, 2),
        ]
    )
    given = orders(fly("left", 3, 86, 2))
    result = resolve(state, given, [0.0, 0.3])
    roll = one(result.events, Kind.BALL_SWALLOW_ROLL)
    assert (roll.step, roll.p, roll.data["where"]) == (7, 0.5, "adjacent")
    assert one(result.events, Kind.GOAL).data["scorer_side"] == "right"


def test_s7_balls_not_freed_this_tick_are_not_swallowed() -> None:
    # A ball that lies still next to an open mouth is not swallowed at step 7.
    state = position([player("right", 1, 86, 3, balls=("red",))])
    result = resolve(state, rolls=[0.9])  # his own 50% swallow roll fails
    assert not of(result.events, Kind.BALL_SWALLOW_ROLL)
    assert result.state.ball("red").status == "held"


@pytest.mark.parametrize(
    ("cell", "height", "where", "p"),
    [(HEAD, 3, "head_other_height", 0.75), (86, 2, "adjacent", 0.5)],
)
def test_s7_a_ball_passed_from_beside_an_open_mouth_may_be_swallowed_at_step_7(
    cell: int, height: int, where: str, p: float
) -> None:
    # §9.7 "глотание драконами … мячей, пасованных с тех клеток, которые
    # находятся в опасной близости к открытой пасти дракона": thrown at step 4,
    # the ball is still beside its passer at step 7.  (A team-mate is safe on
    # those cells himself.)
    state = position([player("left", 1, cell, height, balls=("red",))])
    given = orders(fly("left", 1, cell, height, Pass("red", 70, 2)))
    result = resolve(state, given, [p - 0.001])
    roll = one(result.events, Kind.BALL_SWALLOW_ROLL)
    assert (roll.step, roll.p, roll.data["where"], roll.data["cell"]) == (7, p, where, cell)
    assert result.state.ball("red").status == "swallowed"
    assert one(result.events, Kind.GOAL).data["scorer_side"] == "right"


def test_s7_a_ball_passed_from_beside_a_closed_head_neither_bounces_nor_is_swallowed() -> None:
    state = position([player("left", 1, HEAD, 3, balls=("red",))], dragons=[dragon("left")])
    given = orders(drg("left", "stay", -1), fly("left", 1, HEAD, 3, Pass("red", 70, 2)))
    result = resolve(state, given)
    assert not of(result.events, Kind.BALL_SWALLOW_ROLL)
    assert not of(result.events, Kind.BALL_BOUNCE)
    assert result.state.ball("red").pass_to == (70, 2)


@pytest.mark.parametrize("hands", [("green", "red"), ("red", "green")])
def test_s1_two_balls_swallowed_at_one_moment_act_together_in_any_hand_order(hands) -> None:
    # §1: the sneeze lasts "до проглатывания следующего мяча"; a ball swallowed
    # at the same moment is not the next one, so the red ball does not end it.
    state = position([player("right", 1, HEAD, 2, balls=hands)])
    swallowed = resolve(state, rolls=[0.0])
    d = swallowed.state.dragon("left")
    assert d.pending_effects == ("sneeze+pepper",)
    later = resolve(swallowed.state, orders(drg("left", "forward", tick=2)), then=0.9)
    d = later.state.dragon("left")
    assert (d.effect, d.mouth_open, d.sneezing) == ("sneeze", True, True)
