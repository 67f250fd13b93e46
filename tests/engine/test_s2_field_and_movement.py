"""§2: players fly one cell and one height a tick; dragons move forward or
turn about the body and keep to their half; return from the hospital."""

from __future__ import annotations

import pytest
from enginekit import (
    dragon,
    dragon_event,
    drg,
    fly,
    of,
    one,
    orders,
    player,
    position,
    resolve,
)

from engine.events import Kind
from engine.geometry import Direction


def test_s2_player_flies_one_cell_and_one_height() -> None:
    state = position([player("left", 1, 36, 2, balls=("red",))])
    result = resolve(state, orders(fly("left", 1, 53, 3)))
    move = one(result.events, Kind.PLAYER_MOVE)
    assert move.data == {
        "side": "left",
        "number": 1,
        "from_cell": 36,
        "from_height": 2,
        "cell": 53,
        "height": 3,
    }
    p = result.state.player("left", 1)
    assert (p.cell, p.height) == (53, 3)
    red = result.state.ball("red")  # a held ball moves with its holder
    assert (red.status, red.cell, red.height) == ("held", 53, 3)


@pytest.mark.parametrize(
    ("cell", "height", "reason"),
    [
        (38, 2, "too_far"),
        (37, 1 + 2, "height_step"),
        (0, 2, "cell_invalid"),
        (37, 4, "height_invalid"),
    ],
)
def test_s2_an_impossible_flight_counts_as_no_order(cell: int, height: int, reason: str) -> None:
    state = position([player("left", 1, 36, 1, balls=("red",))])
    result = resolve(state, orders(fly("left", 1, cell, height)), then=0.0)
    assert one(result.events, Kind.NO_ORDER).data["reason"] == reason
    p = result.state.player("left", 1)
    assert (p.cell, p.height, p.balls) == (36, 1, ())
    assert result.state.ball("red").status == "free"


def test_s2_dragon_moves_forward_one_cell() -> None:
    result = resolve(position(), orders(drg("right", "forward")))
    move = dragon_event(result.events, Kind.DRAGON_MOVE, "right")
    assert (move.data["head"], move.data["cells"], move.data["facing"]) == (
        109,
        [109, 110, 111],
        "W",
    )


@pytest.mark.parametrize(
    ("turn", "head", "facing", "tail"), [("left", 85, "NE", 117), ("right", 118, "SE", 84)]
)
def test_s2_dragon_turns_about_its_body(turn: str, head: int, facing: str, tail: int) -> None:
    result = resolve(position(), orders(drg("left", turn)))  # type: ignore[arg-type]
    move = dragon_event(result.events, Kind.DRAGON_MOVE)
    assert move.data["cells"] == [head, 101, tail] and move.data["facing"] == facing
    d = result.state.dragon("left")
    assert (d.head, d.facing) == (head, Direction[facing])


def test_s2_dragon_changes_height_by_one_step() -> None:
    result = resolve(position(), orders(drg("left", "forward", -1)))
    assert result.state.dragon("left").height == 1


def test_s2_dragon_may_not_reach_the_centre_line() -> None:
    state = position(dragons=[dragon("left", 105, Direction.E)])
    result = resolve(state, orders(drg("left", "forward", 1)))
    move = dragon_event(result.events, Kind.DRAGON_MOVE)
    assert (move.data["move"], move.data["refused"], move.data["head"]) == (
        "stay",
        "dragon_off_half",
        105,
    )
    assert move.data["height"] == 3  # the height step alone was possible
    assert result.state.dragon("left").head == 105


def test_s2_dragon_may_not_enter_an_edge_cell() -> None:
    state = position(dragons=[dragon("left", 83, Direction.W)])  # body 84, tail 85; 82 is edge
    result = resolve(state, orders(drg("left", "forward")))
    assert dragon_event(result.events, Kind.DRAGON_MOVE).data["refused"] == "dragon_edge"


def test_s2_return_from_hospital_on_the_return_tick_where_ordered() -> None:
    state = position([player("left", 1, None, status="hospital", return_round=3)], round_=3, tick=2)
    result = resolve(state, orders(fly("left", 1, 32, 3, tick=3)))
    launch = one(result.events, Kind.PLAYER_LAUNCH)
    assert launch.data == {"side": "left", "number": 1, "cell": 32, "height": 3, "ordered": True}
    p = result.state.player("left", 1)
    assert (p.status, p.cell, p.height, p.return_round) == ("active", 32, 3, None)


def test_s2_return_without_order_on_the_first_free_re_entry_cell() -> None:
    state = position(
        [player("left", 1, None, status="hospital", return_round=2), player("right", 4, 1, 3)],
        round_=2,
        tick=2,
    )
    result = resolve(state)
    launch = one(result.events, Kind.PLAYER_LAUNCH)
    assert (launch.data["cell"], launch.data["height"], launch.data["ordered"]) == (2, 1, False)


def test_s2_no_return_before_the_return_round_or_tick() -> None:
    early = position([player("left", 1, None, status="hospital", return_round=4)], round_=3, tick=2)
    assert not of(resolve(early, orders(fly("left", 1, 32, 3, tick=3))).events, Kind.PLAYER_LAUNCH)
    not_yet = position([player("left", 1, None, status="hospital", return_round=3)], round_=3)
    assert not of(resolve(not_yet, orders(fly("left", 1, 32, 3))).events, Kind.PLAYER_LAUNCH)
