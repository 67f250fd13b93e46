"""§10: penalty throw-ins of held balls."""

from __future__ import annotations

from enginekit import STILL, fly, of, one, orders, player, position, resolve

from engine.events import Kind
from engine.orders import Catch, Penalty


def test_s10_lowest_value_ball_is_thrown_in_at_the_centre() -> None:
    state = position(
        [player("right", 1, 106, 2, balls=("red",)), player("right", 2, 36, 2, balls=("green",))]
    )
    given = orders(Penalty("right", 1), fly("right", 1, 106, 2, Catch("green")))
    # Height pick (0.0 → 1), direction pick (0.0 → east).
    result = resolve(state, given, [0.0, 0.0])
    throw = one(result.events, Kind.PENALTY_THROW_IN)
    assert throw.step == 0 and throw.data == {
        "side": "right",
        "number": 2,
        "ball": "green",
        "cell": STILL.throw_in_cell,
        "height": 1,
        "direction": "E",
    }
    assert one(result.events, Kind.BALL_HEIGHT).p == 1 / 3
    green = result.state.ball("green")
    assert (green.status, green.cell, green.height) == ("free", 106, 1)
    # Thrown in this tick: nobody can catch it yet.
    assert one(result.events, Kind.CATCH_NOTHING).data["reason"] == "not_catchable"


def test_s10_one_throw_in_a_tick() -> None:
    state = position([player("right", 1, 36, 2, balls=("red", "black"))])
    result = resolve(state, orders(Penalty("right", 1), Penalty("right", 1)), [0.0, 0.0])
    assert [e.data["ball"] for e in of(result.events, Kind.PENALTY_THROW_IN)] == ["black"]
    assert result.state.player("right", 1).balls == ("red",)


def test_s10_nothing_to_throw_in_when_the_team_holds_no_ball() -> None:
    state = position([player("right", 1, 36, 2), player("left", 1, 37, 2, balls=("red",))])
    result = resolve(state, orders(Penalty("right", 1)))
    assert one(result.events, Kind.PENALTY_NOTHING).data == {"side": "right"}


def test_s10_penalty_acts_only_on_its_tick() -> None:
    state = position([player("right", 1, 36, 2, balls=("red",))])
    result = resolve(state, orders(Penalty("right", 3)))
    assert not of(result.events, Kind.PENALTY_THROW_IN)
