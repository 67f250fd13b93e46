"""Settings of the ruleset beside the classic readings, and the shape of a
resolution (the rule book's own sentences are cases: cases/classic)."""

from __future__ import annotations

from dataclasses import replace

from enginekit import (
    STILL,
    dragon,
    drg,
    free_ball,
    of,
    one,
    orders,
    position,
    resolve,
)

from engine.events import Kind
from engine.orders import RoundOrders
from engine.resolve import resolve_round

HEAD = 102
HEAD, BODY, TAIL = 102, 101, 100
CLOSED = drg("left", "stay", 1)


def test_s1_a_round_is_three_ticks_then_the_next_round() -> None:
    state = position()
    result = resolve_round(state, RoundOrders(), STILL, "seed")
    assert [s.tick for s in result.tick_states] == [1, 2, 0]
    assert result.state.round == 2 and result.state.tick == 0
    assert one(result.events, Kind.ROUND_END).tick == 3
    assert [e.tick for e in of(result.events, Kind.ROUND_START)] == [1]


def test_s1_an_ended_match_resolves_nothing() -> None:
    state = replace(position(), status="ended", end_reason="game_master")
    result = resolve_round(state, RoundOrders(), STILL, "seed")
    assert result.state is state and result.events == () and result.tick_states == ()


def kinds_tail(result) -> list[str]:
    return [e.kind.value for e in result.events[-2:]]


def low_dragon():
    return dragon("left", height=1)


def _mouths(results) -> list[tuple[bool, str]]:
    return [
        (e.data["open"], e.data["reason"])
        for e in of(results, Kind.DRAGON_MOUTH)
        if e.data["side"] == "left"
    ]


def test_s6_paralysed_dragon_mouth_closed_under_the_other_reading() -> None:
    strict = replace(STILL, dragon=replace(STILL.dragon, paralysed_stay_opens_mouth=False))
    state = position(dragons=[dragon("left", height=1, paralysed=True)])
    result = resolve(state, rolls=[0.9], rules=strict)
    assert _mouths(result.events) == [(False, "paralysed")]


def test_s6_a_height_step_alone_is_a_move_unless_the_ruleset_says_otherwise() -> None:
    state = position(dragons=[low_dragon()])
    assert _mouths(resolve(state, orders(CLOSED)).events) == [(False, "moved")]
    lenient = replace(STILL, dragon=replace(STILL.dragon, height_step_is_a_move=False))
    assert _mouths(resolve(state, orders(CLOSED), rules=lenient).events) == [(True, "stay")]


def test_s6_fire_burns_free_balls_only_if_the_ruleset_says_so() -> None:
    state = position([], [free_ball("blue", 70, 2), free_ball("red", 87, 3)], [low_dragon()])
    fire = orders(drg("left", "stay", 0, "short"))
    assert resolve(state, fire).state.ball("blue").status == "free"  # classic reading
    burning = replace(STILL, fire=replace(STILL.fire, burns_free_balls=True))
    result = resolve(state, fire, rules=burning)
    assert one(result.events, Kind.BALL_BURNT).data == {
        "ball": "blue",
        "dragon": "left",
        "cell": 70,
    }
    assert result.state.ball("blue").status == "burnt"
    assert result.state.ball("red").status == "free"  # height 3: out of the flame's reach
