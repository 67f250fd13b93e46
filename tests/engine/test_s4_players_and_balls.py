"""§4: catching, several claimants, stealing, collisions, falls, no order."""

from __future__ import annotations

import pytest
from enginekit import (
    STILL,
    fly,
    free_ball,
    of,
    one,
    orders,
    player,
    position,
    resolve,
)

from engine.events import Kind
from engine.orders import Catch, Steal

# Cells of a quiet corner of the left half, far from both dragons.
A, B = 36, 37  # neighbours
FAR = 39  # two cells from B, three from A


def _catch(cell: int, height: int, ball_cell: int, ball_height: int, roll: float, held=()):
    state = position(
        [player("left", 1, cell, height, balls=held)],
        [free_ball("green", ball_cell, ball_height)],
    )
    return resolve(state, orders(fly("left", 1, cell, height, Catch("green"))), [roll])


@pytest.mark.parametrize(
    ("where", "p_cell", "p_height", "b_cell", "b_height", "p"),
    [
        ("same_cell_same_height", A, 2, A, 2, 1.0),
        ("same_cell_other_height", A, 1, A, 3, 0.75),
        ("adjacent", A, 2, B, 2, 0.5),
    ],
)
def test_s4_catch_first_ball(where, p_cell, p_height, b_cell, b_height, p) -> None:
    caught = _catch(p_cell, p_height, b_cell, b_height, p - 0.001)
    roll = one(caught.events, Kind.CATCH_ROLL)
    assert (roll.p, roll.data["where"], roll.data["second"], roll.ok) == (p, where, False, True)
    assert caught.state.player("left", 1).balls == ("green",)
    assert caught.state.ball("green").status == "held"
    if p < 1:
        missed = _catch(p_cell, p_height, b_cell, b_height, p)
        assert not one(missed.events, Kind.CATCH_ROLL).ok
        assert missed.state.ball("green").status == "free"
        assert not of(missed.events, Kind.CATCH)


@pytest.mark.parametrize(
    ("where", "p_cell", "p_height", "b_cell", "b_height", "p"),
    [
        ("same_cell_same_height", A, 2, A, 2, 0.9),
        ("same_cell_other_height", A, 2, A, 1, 0.65),
        ("adjacent", A, 1, B, 3, 0.4),
    ],
)
def test_s4_catch_second_ball(where, p_cell, p_height, b_cell, b_height, p) -> None:
    caught = _catch(p_cell, p_height, b_cell, b_height, p - 0.001, held=("black",))
    roll = one(caught.events, Kind.CATCH_ROLL)
    assert (roll.p, roll.data["where"], roll.data["second"]) == (p, where, True)
    assert caught.state.player("left", 1).balls == ("black", "green")
    missed = _catch(p_cell, p_height, b_cell, b_height, p, held=("black",))
    assert missed.state.player("left", 1).balls == ("black",)


def test_s4_catch_out_of_reach_does_nothing() -> None:
    result = _catch(A, 2, FAR, 2, 0.0)
    assert not of(result.events, Kind.CATCH_ROLL)
    assert one(result.events, Kind.CATCH_NOTHING).data["reason"] == "out_of_reach"


def test_s4_catch_at_most_two_balls() -> None:
    state = position([player("left", 1, A, 2, balls=("black", "blue"))], [free_ball("green", A, 2)])
    result = resolve(state, orders(fly("left", 1, A, 2, Catch())))
    assert one(result.events, Kind.CATCH_NOTHING).data["reason"] == "hands_full"
    assert result.state.player("left", 1).balls == ("black", "blue")


def test_s4_catch_without_a_name_takes_the_best_chance() -> None:
    # Green is on his cell (100%), red next to him (50%): he goes for green
    # even though red is worth more; one catch, one ball.
    state = position([player("left", 1, A, 2)], [free_ball("green", A, 2), free_ball("red", B, 2)])
    result = resolve(state, orders(fly("left", 1, A, 2, Catch())), [0.0])
    assert one(result.events, Kind.CATCH_ROLL).data["ball"] == "green"
    assert result.state.player("left", 1).balls == ("green",)


def test_s4_catch_ties_go_to_the_higher_value() -> None:
    state = position([player("left", 1, A, 2)], [free_ball("green", B, 2), free_ball("red", 20, 2)])
    result = resolve(state, orders(fly("left", 1, A, 2, Catch())), [0.0])
    assert one(result.events, Kind.CATCH).data["ball"] == "red"


def test_s4_several_claimants_one_is_picked_at_random() -> None:
    state = position(
        [player("left", 1, A, 2), player("right", 1, B, 2), player("left", 2, 53, 3)],
        [free_ball("blue", A, 3)],
    )
    given = orders(
        fly("left", 1, A, 2, Catch()),
        fly("right", 1, B, 2, Catch()),
        fly("left", 2, 53, 3, Catch()),
    )
    # left 1: same cell other height 75% (made), right 1: adjacent 50% (made),
    # left 2: adjacent 50% (missed); then a fair pick between the two: index 1.
    result = resolve(state, given, [0.1, 0.2, 0.9, 0.75])
    rolls = of(result.events, Kind.CATCH_ROLL)
    assert [(e.data["side"], e.data["number"], e.p, e.ok) for e in rolls] == [
        ("left", 1, 0.75, True),
        ("right", 1, 0.5, True),
        ("left", 2, 0.5, False),
    ]
    pick = one(result.events, Kind.CATCH_PICK)
    assert pick.p == 0.5 and pick.data["candidates"] == [
        {"side": "left", "number": 1},
        {"side": "right", "number": 1},
    ]
    assert (pick.data["side"], pick.data["number"]) == ("right", 1)
    assert result.state.player("right", 1).balls == ("blue",)


def test_s4_ball_freed_this_tick_cannot_be_caught() -> None:
    # Left 2 has no order: he drops the red ball; left 1 on the same cell cannot catch it.
    state = position([player("left", 1, A, 1), player("left", 2, A, 2, balls=("red",))])
    result = resolve(
        state, orders(fly("left", 1, A, 1, Catch("red"))), [0.0], stays=False, then=0.0
    )
    assert one(result.events, Kind.BALL_DROPPED).data["reason"] == "no_order"
    assert not of(result.events, Kind.CATCH_ROLL)
    assert one(result.events, Kind.CATCH_NOTHING).data["reason"] == "not_catchable"
    assert result.state.ball("red").status == "free"


# ---------------------------------------------------------------- stealing


def _steal(
    holder_balls: tuple[str, ...], stealer_balls: tuple[str, ...], adjacent: bool, roll: float
):
    target_cell = B if adjacent else A
    state = position(
        [
            player("left", 1, A, 1, balls=stealer_balls),
            player("right", 5, target_cell, 2, balls=holder_balls),
        ]
    )
    return resolve(state, orders(fly("left", 1, A, 1, Steal(5))), [roll, 0.0])


@pytest.mark.parametrize(
    ("holder", "stealer", "adjacent", "p", "where"),
    [
        (("red",), (), False, 0.30, "same_cell"),
        (("red",), ("black",), False, 0.22, "same_cell"),
        (("red",), (), True, 0.15, "adjacent"),
        (("red",), ("black",), True, 0.10, "adjacent"),
        (("red", "blue"), (), False, 0.40, "same_cell"),
        (("red", "blue"), ("black",), False, 0.30, "same_cell"),
        (("red", "blue"), (), True, 0.25, "adjacent"),
        (("red", "blue"), ("black",), True, 0.15, "adjacent"),
    ],
)
def test_s4_steal_table(holder, stealer, adjacent, p, where) -> None:
    won = _steal(holder, stealer, adjacent, p - 0.001)
    roll = one(won.events, Kind.STEAL_ROLL)
    assert (roll.p, roll.data["where"], roll.ok) == (p, where, True)
    assert len(won.state.player("left", 1).balls) == len(stealer) + 1
    assert len(won.state.player("right", 5).balls) == len(holder) - 1
    lost = _steal(holder, stealer, adjacent, p)
    assert not one(lost.events, Kind.STEAL_ROLL).ok
    assert lost.state.player("right", 5).balls == holder


def test_s4_steal_of_two_balls_takes_one_at_random() -> None:
    result = _steal(("red", "blue"), (), False, 0.0)
    steal = one(result.events, Kind.STEAL)
    # roll 0.0 of a fair pick between red and blue: the first
    assert (steal.data["ball"], steal.p, steal.roll) == ("red", 0.5, 0.0)
    assert result.state.player("left", 1).balls == ("red",)
    assert result.state.ball("red").holder.side == "left"


def test_s4_steal_out_of_reach_or_without_ball_does_nothing() -> None:
    state = position(
        [
            player("left", 1, A, 1),
            player("right", 5, FAR, 2, balls=("red",)),
            player("right", 6, A, 3),
        ]
    )
    result = resolve(state, orders(fly("left", 1, A, 1, Steal(5))))
    assert one(result.events, Kind.STEAL_NOTHING).data["reason"] == "out_of_reach"
    result = resolve(state, orders(fly("left", 1, A, 1, Steal(6))))
    assert one(result.events, Kind.STEAL_NOTHING).data["reason"] == "no_ball"


def test_s4_steal_with_full_hands_does_nothing() -> None:
    state = position(
        [player("left", 1, A, 1, balls=("black", "blue")), player("right", 5, A, 2, balls=("red",))]
    )
    result = resolve(state, orders(fly("left", 1, A, 1, Steal(5))))
    assert one(result.events, Kind.STEAL_NOTHING).data["reason"] == "hands_full"


def test_s4_steals_read_the_position_at_the_start_of_the_step() -> None:
    # Left 1 steals the red ball from right 5 while right 6 tries to steal
    # from left 1, who had nothing when the step began: right 6 gets nothing.
    state = position(
        [
            player("left", 1, A, 1),
            player("right", 5, A, 2, balls=("red",)),
            player("right", 6, B, 1),
        ]
    )
    given = orders(fly("left", 1, A, 1, Steal(5)), fly("right", 6, B, 1, Steal(1)))
    result = resolve(state, given, [0.0])
    assert result.state.player("left", 1).balls == ("red",)
    nothing = one(result.events, Kind.STEAL_NOTHING)
    assert (nothing.data["number"], nothing.data["reason"]) == (6, "no_ball")


# ---------------------------------------------------------------- collisions


def test_s4_collision_of_two_one_falls_the_other_holds_on() -> None:
    state = position(
        [player("left", 1, A, 2, balls=("red",)), player("right", 1, B, 2, balls=("blue",))],
        [free_ball("green", A, 1)],
    )
    # Both fly to A at height 2; pick index 0 (left 1) falls; the second roll
    # 0.5 is not below 50%: right 1 holds on and loses his catch.
    given = orders(fly("left", 1, A, 2), fly("right", 1, A, 2, Catch("green")))
    result = resolve(state, given, [0.0, 0.0, 0.5])
    pick = one(result.events, Kind.COLLISION_PICK)
    assert (pick.data["side"], pick.p) == ("left", 0.5)
    second = one(result.events, Kind.COLLISION_SECOND)
    assert (second.p, second.ok) == (0.5, False)
    assert one(result.events, Kind.HELD_ON).data == {"side": "right", "number": 1}
    lost = one(result.events, Kind.ACTION_LOST)
    assert (lost.data["action"], lost.data["reason"]) == ("catch", "held_on")
    assert result.state.player("left", 1).status == "hospital"
    assert result.state.player("right", 1).balls == ("blue",)  # keeps his ball
    assert result.state.ball("green").status == "free"
    # The faller's ball flies free from his cell and height.
    red = result.state.ball("red")
    assert (red.status, red.cell, red.height) == ("free", A, 2)


def test_s4_collision_of_two_both_may_fall() -> None:
    state = position([player("left", 1, A, 2), player("right", 1, B, 2)])
    given = orders(fly("left", 1, A, 2), fly("right", 1, A, 2))
    result = resolve(state, given, [0.9, 0.49])
    assert one(result.events, Kind.COLLISION_PICK).data["side"] == "right"
    assert {(e.data["side"], e.data["cause"]) for e in of(result.events, Kind.FALL)} == {
        ("left", "collision"),
        ("right", "collision"),
    }


def test_s4_collision_of_three_all_fall() -> None:
    state = position([player("left", 1, A, 2), player("left", 2, B, 2), player("right", 1, 53, 2)])
    given = orders(fly("left", 1, A, 2), fly("left", 2, A, 2), fly("right", 1, A, 2))
    result = resolve(state, given)  # no dice at all
    assert len(of(result.events, Kind.FALL)) == 3
    assert not of(result.events, Kind.COLLISION_PICK)


def test_s4_same_cell_other_height_is_no_collision() -> None:
    state = position([player("left", 1, A, 2), player("right", 1, A, 3)])
    result = resolve(state)
    assert not of(result.events, Kind.COLLISION)


@pytest.mark.parametrize("height", [1, 2, 3])
def test_s4_hospital_rounds_by_height(height: int) -> None:
    state = position(
        [player("left", 1, A, height), player("left", 2, B, height), player("left", 3, 53, height)],
        round_=4,
    )
    given = orders(fly("left", 1, A, height), fly("left", 2, A, height), fly("left", 3, A, height))
    result = resolve(state, given)
    fall = of(result.events, Kind.FALL)[0]
    assert fall.data["return_round"] == 4 + height * STILL.hospital_rounds_per_height
    p = result.state.player("left", 1)
    assert (p.status, p.cell, p.return_round) == ("hospital", None, 4 + height)


def test_s4_no_order_stays_and_drops_every_ball() -> None:
    state = position([player("left", 1, A, 3, balls=("red", "yellow"))])
    result = resolve(state, stays=False, rules=STILL, then=0.0)
    assert one(result.events, Kind.NO_ORDER).data["reason"] == "none"
    move = one(result.events, Kind.PLAYER_MOVE)
    assert (move.data["cell"], move.data["height"]) == (A, 3)
    drops = of(result.events, Kind.BALL_DROPPED)
    assert [e.data["ball"] for e in drops] == ["red", "yellow"]
    for name in ("red", "yellow"):
        ball = result.state.ball(name)
        assert (ball.status, ball.cell, ball.height) == ("free", A, 3)
        assert ball.direction is not None  # a random course for its first flight
    assert result.state.player("left", 1).balls == ()
