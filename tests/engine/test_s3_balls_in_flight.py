"""§3 (and §5's kept direction): free flight, the dome, open mouths, the
vanishing yellow ball."""

from __future__ import annotations

from enginekit import (
    CLASSIC,
    fly,
    free_ball,
    moving,
    of,
    one,
    orders,
    player,
    position,
    resolve,
)

from engine.events import Kind
from engine.geometry import Direction
from engine.orders import Catch


def test_s3_free_ball_flies_its_speed_in_a_straight_line() -> None:
    state = position([], [free_ball("red", 36, 3, Direction.E)])
    result = resolve(state, rules=moving("red"), rolls=[0.0])
    move = one(result.events, Kind.BALL_MOVE)
    assert move.data == {
        "ball": "red",
        "from_cell": 36,
        "cell": 38,
        "height": 3,
        "direction": "E",
        "visible": True,
    }
    # Then a new random course for its next flight (§3): roll 0.0 of the six.
    course = one(result.events, Kind.BALL_DIRECTION)
    assert (course.p, course.data["direction"]) == (1 / 6, "E")
    assert result.state.ball("red").cell == 38


def test_s3_yellow_ball_flies_one_cell() -> None:
    state = position([], [free_ball("yellow", 36, 1, Direction.SE)])
    result = resolve(state, rules=moving("yellow"), rolls=[0.0])
    assert one(result.events, Kind.BALL_MOVE).data["cell"] == 53


def test_s3_ball_bounces_off_the_dome() -> None:
    # From 3 (top row) heading north-east the next cell is off the field:
    # a new course among the four that stay on it (roll 0.0: east).
    state = position([], [free_ball("green", 3, 2, Direction.NE)])
    result = resolve(state, rules=moving("green"), rolls=[0.0, 0.0])
    bounce = one(result.events, Kind.BALL_BOUNCE)
    assert (bounce.data["reason"], bounce.data["direction"], bounce.p) == ("dome", "E", 1 / 4)
    assert one(result.events, Kind.BALL_MOVE).data["cell"] == 5


def test_s3_ball_keeps_out_of_an_open_mouths_reach() -> None:
    # From 69 south-east is 86, next to the left dragon's open mouth; 85 is
    # too: the new course is one of the other four.
    state = position([], [free_ball("blue", 69, 2, Direction.SE)])
    result = resolve(state, rules=moving("blue"), rolls=[0.0, 0.0])
    bounce = one(result.events, Kind.BALL_BOUNCE)
    assert bounce.data["reason"] == "dragon" and bounce.p == 1 / 4
    path_end = one(result.events, Kind.BALL_MOVE).data["cell"]
    assert path_end not in (86, 85, 102, 103, 118, 119)


def test_s3_missed_pass_keeps_its_direction_two_more_ticks() -> None:
    state = position([], [free_ball("red", 32, 2, Direction.E, pass_ticks_left=2)])
    rules = moving("red")
    first = resolve(state, rules=rules)  # no draw: the direction is kept
    assert one(first.events, Kind.BALL_MOVE).data["cell"] == 34
    assert first.state.ball("red").pass_ticks_left == 1
    second = resolve(first.state, rules=rules, rolls=[0.5])
    assert one(second.events, Kind.BALL_MOVE).data["cell"] == 36
    # Only now a new random course: roll 0.5 picks the fourth of six, west.
    assert one(second.events, Kind.BALL_DIRECTION).data["direction"] == "W"
    assert second.state.ball("red").pass_ticks_left == 0


def test_s3_yellow_ball_vanishes_and_reappears() -> None:
    rules = moving("yellow", vanish=True)
    state = position([player("left", 1, 36, 2)], [free_ball("yellow", 36, 2, Direction.E)])
    catch = orders(fly("left", 1, 36, 2, Catch()))
    gone = resolve(state, catch, rules=rules, rolls=[0.49, 0.0])
    vanish = one(gone.events, Kind.YELLOW_VANISH)
    assert (vanish.p, vanish.ok) == (CLASSIC.balls["yellow"].vanish_probability, True)
    assert one(gone.events, Kind.BALL_MOVE).data["visible"] is False
    assert gone.state.ball("yellow").status == "vanished"
    assert not of(gone.events, Kind.CATCH_ROLL)  # a vanished ball cannot be caught
    # Next tick it reappears (roll 0.1) next to the catcher, but a ball that
    # reappeared this tick cannot be caught either (§9.6).
    catch2 = orders(fly("left", 1, 37, 2, Catch(), tick=2))
    back = resolve(gone.state, catch2, rules=rules, rolls=[0.1, 0.0])
    assert one(back.events, Kind.YELLOW_APPEAR).ok
    assert back.state.ball("yellow").status == "free"
    assert not of(back.events, Kind.CATCH_ROLL)


def test_s3_yellow_ball_stays_hidden_on_a_failed_roll() -> None:
    rules = moving("yellow", vanish=True)
    state = position([], [free_ball("yellow", 36, 2, status="vanished")])
    result = resolve(state, rules=rules, rolls=[0.5, 0.0])
    assert not one(result.events, Kind.YELLOW_APPEAR).ok
    assert result.state.ball("yellow").status == "vanished"
