"""§7: dragons swallowing balls landed by a pass (step 2) and balls freed this
tick (step 7), the closed mouth's bounce."""

from __future__ import annotations

import pytest
from enginekit import dragon, drg, fly, of, one, orders, player, position, resolve

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
    state = position([player("right", 1, 70, 2, balls=("red",))])
    given = orders(fly("right", 1, 70, 2, Pass("red", cell, height)))
    result = resolve(state, given, [p - 0.001])
    roll = one(result.events, Kind.BALL_SWALLOW_ROLL)
    assert (roll.step, roll.p, roll.data["where"], roll.ok) == (2, p, where, True)
    assert result.state.ball("red").status == "swallowed"
    assert one(result.events, Kind.GOAL).step == 2


def test_s7_a_missed_shot_gets_one_chance_a_tick_not_a_second_at_step_7() -> None:
    # §7 gives a ball next to an open mouth 50%; judging the same uncaught
    # pass again at step 7 would make it 75%.
    state = position([player("right", 1, 70, 2, balls=("red",))])
    given = orders(fly("right", 1, 70, 2, Pass("red", 86, 2)))
    result = resolve(state, given, [0.9, 0.1])
    rolls = of(result.events, Kind.BALL_SWALLOW_ROLL)
    assert [(e.step, e.ok) for e in rolls] == [(2, False)]
    assert not of(result.events, Kind.GOAL)
    red = result.state.ball("red")
    assert (red.status, red.cell) == ("free", 86)


def test_s7_pass_onto_a_closed_head_bounces_off() -> None:
    state = position(
        [player("right", 1, 70, 2, balls=("red",)), player("right", 2, 86, 2)],
        dragons=[dragon("left", height=1)],
    )
    given = orders(
        drg("left", "stay", 1),  # a height step: the mouth stays shut
        fly("right", 1, 70, 2, Pass("red", HEAD, 2)),
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
