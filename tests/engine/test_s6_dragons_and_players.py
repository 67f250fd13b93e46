"""§6: dragons and players — body and tail, the head with the mouth closed
or open, swallowing, fire, when the mouth is open, the dazed dragon."""

from __future__ import annotations

from dataclasses import replace

import pytest
from enginekit import (
    STILL,
    dragon,
    drg,
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
from engine.orders import Catch, Pass, RoundOrders, Steal
from engine.resolve import resolve_round

# The left dragon as it starts: head 102 facing east, body 101, tail 100,
# height 2.  The five cells next to the head: 103, 119, 86 ahead, 85 and 118
# behind.  A dragon given no order stays, and its mouth is open.
HEAD, BODY, TAIL = 102, 101, 100
CLOSED = drg("left", "stay", 1)  # from height 1 to 2: a move, the mouth stays shut


def low_dragon():
    return dragon("left", height=1)


def test_s6_body_same_height_any_player_crashes() -> None:
    state = position([player("left", 1, BODY, 2)])
    result = resolve(state)
    fall = one(result.events, Kind.FALL)
    assert (fall.data["side"], fall.data["cause"]) == ("left", "dragon_body")


def test_s6_body_other_height_team_mate_safe() -> None:
    state = position([player("left", 1, TAIL, 3), player("left", 2, BODY, 1)])
    result = resolve(state)
    assert not of(result.events, Kind.FALL)
    assert not of(result.events, Kind.DRAGON_KNOCK_ROLL)


@pytest.mark.parametrize(("roll", "falls"), [(0.49, True), (0.5, False)])
def test_s6_body_other_height_opponent_knocked_half_the_time(roll: float, falls: bool) -> None:
    state = position([player("right", 1, TAIL, 3)])
    result = resolve(state, rolls=[roll])
    knock = one(result.events, Kind.DRAGON_KNOCK_ROLL)
    assert (knock.p, knock.data["part"], knock.ok) == (0.5, "tail", falls)
    assert (result.state.player("right", 1).status == "hospital") is falls


def test_s6_closed_head_same_height_any_player_falls() -> None:
    state = position([player("left", 1, HEAD, 2)], dragons=[low_dragon()])
    result = resolve(state, orders(CLOSED))
    assert _mouths(result.events) == [(False, "moved")]
    assert one(result.events, Kind.FALL).data["cause"] == "dragon_head"


def test_s6_closed_head_other_height_opponent_knocked_team_mate_safe() -> None:
    state = position(
        [player("right", 1, HEAD, 3), player("left", 1, HEAD, 1)], dragons=[low_dragon()]
    )
    result = resolve(state, orders(CLOSED), [0.3])
    knock = one(result.events, Kind.DRAGON_KNOCK_ROLL)
    assert (knock.data["side"], knock.data["part"], knock.p) == ("right", "head", 0.5)
    assert result.state.player("right", 1).status == "hospital"
    assert result.state.player("left", 1).status == "active"


@pytest.mark.parametrize(
    ("cell", "part", "action"),
    [
        (TAIL, "tail", Catch("green")),
        (BODY, "body", Steal(1)),
        (HEAD, "head", Pass("red", 40, 2)),
    ],
)
def test_s9_3a_surviving_a_closed_dragon_knock_loses_the_ticks_actions(cell, part, action) -> None:
    # §9.3а: with the mouth closed, "просто как столкновение с последствиями,
    # как при столкновении с игроком": like a collision survivor, he keeps his
    # balls and loses every action chosen for the tick.
    state = position(
        [player("right", 1, cell, 3, balls=("red",)), player("left", 1, 87, 3, balls=("blue",))],
        [free_ball("green", cell, 3)],
        dragons=[low_dragon()],
    )
    given = orders(CLOSED, fly("right", 1, cell, 3, action))
    result = resolve(state, given, [0.5])  # the 50% knock fails: he holds on
    held = one(result.events, Kind.HELD_ON)
    assert held.data == {"side": "right", "number": 1, "dragon": "left", "part": part}
    lost = one(result.events, Kind.ACTION_LOST)
    assert (lost.step, lost.data["reason"]) == (3, "held_on")
    assert not of(result.events, Kind.CATCH_ROLL)
    assert not of(result.events, Kind.STEAL_ROLL)
    assert not of(result.events, Kind.PASS)
    assert result.state.player("right", 1).balls == ("red",)


def test_s6_open_mouth_same_cell_same_height_swallows_anyone() -> None:
    state = position([player("left", 1, HEAD, 2)])
    result = resolve(state, rolls=[0.999])
    roll = one(result.events, Kind.SWALLOW_ROLL)
    assert (roll.p, roll.data["where"], roll.ok) == (1.0, "head_same_height", True)
    p = result.state.player("left", 1)
    assert (p.status, p.swallowed_by, p.cell) == ("swallowed", "left", None)
    assert result.state.dragon("left").swallowed_players[0].number == 1


@pytest.mark.parametrize(("roll", "swallowed"), [(0.74, True), (0.75, False)])
def test_s6_open_mouth_other_height_opponent_swallowed_75(roll: float, swallowed: bool) -> None:
    state = position([player("right", 1, HEAD, 3), player("left", 1, HEAD, 1)])
    result = resolve(state, rolls=[roll])
    event = one(result.events, Kind.SWALLOW_ROLL)  # the team-mate is not at risk
    assert (event.data["side"], event.p, event.data["where"]) == (
        "right",
        0.75,
        "head_other_height",
    )
    assert (result.state.player("right", 1).status == "swallowed") is swallowed


@pytest.mark.parametrize("cell", [85, 118, 86, 103, 119])
def test_s6_open_mouth_next_to_head_opponent_swallowed_50(cell: int) -> None:
    state = position([player("right", 1, cell, 3), player("left", 1, cell, 1)])
    result = resolve(state, rolls=[0.49])
    event = one(result.events, Kind.SWALLOW_ROLL)
    assert (event.data["side"], event.p, event.data["where"]) == ("right", 0.5, "adjacent")
    assert result.state.player("right", 1).status == "swallowed"
    assert result.state.player("left", 1).status == "active"


def test_s6_swallowed_player_balls_are_swallowed_and_score() -> None:
    # A right-team player carried two balls into the left dragon: the right team scores.
    state = position([player("right", 1, HEAD, 2, balls=("blue", "green"))])
    result = resolve(state, rolls=[0.0])
    goals = of(result.events, Kind.GOAL)
    assert [(g.data["ball"], g.data["scorer_side"], g.data["points"]) for g in goals] == [
        ("blue", "right", 3),
        ("green", "right", 2),
    ]
    assert result.state.team("right").score == 5
    assert result.state.dragon("left").swallowed_balls == ("blue", "green")
    assert result.state.ball("blue").swallowed_by == "left"


def test_s6_dazed_dragon_treats_its_own_team_as_opponents() -> None:
    state = position([player("left", 1, 85, 2)], dragons=[dragon("left", effect="daze")])
    # The random-fire roll (no fire), then the swallow roll for his own player.
    result = resolve(state, rolls=[0.99, 0.0])
    assert not one(result.events, Kind.RANDOM_FIRE_ROLL).ok
    assert one(result.events, Kind.SWALLOW_ROLL).data["side"] == "left"
    assert result.state.player("left", 1).status == "swallowed"


def test_s6_short_flame_fells_players_within_one_height() -> None:
    # Dragon at height 1 breathes a short flame (8 cells ahead, two deep).
    # 70 is two ahead: height 2 falls, height 3 is out of reach.
    state = position(
        [player("right", 1, 70, 2), player("right", 2, 87, 3), player("left", 1, 120, 1)],
        dragons=[dragon("left", height=1)],
    )
    result = resolve(state, orders(drg("left", "stay", 0, "short")))
    fire = one(result.events, Kind.FIRE)
    assert sorted(fire.data["cells"]) == [70, 86, 87, 103, 104, 119, 120, 136]
    assert (fire.data["short_left"], fire.data["random"]) == (STILL.fire.short_budget - 1, False)
    falls = {
        (e.data["side"], e.data["number"]): e.data["cause"] for e in of(result.events, Kind.FALL)
    }
    assert falls == {("right", 1): "fire", ("left", 1): "fire"}  # fire spares no one
    assert result.state.dragon("left").short_left == STILL.fire.short_budget - 1


def test_s6_mouth_cell_in_the_cone_but_above_the_flame_is_still_swallowed_from() -> None:
    # Dragon at height 1 breathes a short flame; 103 is in the cone and next
    # to the head.  At height 3 the flame misses him, but the mouth is open.
    state = position([player("right", 1, 103, 3)], dragons=[dragon("left", height=1)])
    result = resolve(state, orders(drg("left", "stay", 0, "short")), [0.1])
    assert not of(result.events, Kind.FALL)
    roll = one(result.events, Kind.SWALLOW_ROLL)
    assert (roll.data["where"], roll.p, roll.ok) == ("adjacent", 0.5, True)
    assert result.state.player("right", 1).status == "swallowed"


def test_s6_volley_covers_fifteen_cells() -> None:
    state = position()
    result = resolve(state, orders(drg("left", "stay", 0, "volley")))
    fire = one(result.events, Kind.FIRE)
    assert len(fire.data["cells"]) == 15 and fire.data["volleys_left"] == 2


def test_s6_head_and_cells_behind_it_are_not_in_the_fire() -> None:
    # Behind the head the mouth is open, so swallowing applies there, not fire.
    state = position([player("right", 1, 118, 2), player("right", 2, HEAD, 1)])
    result = resolve(state, orders(drg("left", "stay", 0, "short")), [0.9, 0.9])
    assert not of(result.events, Kind.FALL)
    assert sorted(e.data["where"] for e in of(result.events, Kind.SWALLOW_ROLL)) == [
        "adjacent",
        "head_other_height",
    ]


def _mouths(results) -> list[tuple[bool, str]]:
    return [
        (e.data["open"], e.data["reason"])
        for e in of(results, Kind.DRAGON_MOUTH)
        if e.data["side"] == "left"
    ]


def test_s6_mouth_open_one_tick_after_a_short_flame() -> None:
    state = position()
    given = orders(
        drg("left", "left", fire="short"), drg("left", "right", tick=2), drg("left", "left", tick=3)
    )
    result = resolve_round(state, given, STILL, "seed")
    assert _mouths(result.events) == [(True, "fire"), (True, "breath"), (False, "moved")]


def test_s6_mouth_open_two_ticks_after_a_volley() -> None:
    state = position()
    given = orders(
        drg("left", "left", fire="volley"),
        drg("left", "right", tick=2),
        drg("left", "left", tick=3),
    )
    result = resolve_round(state, given, STILL, "seed")
    assert _mouths(result.events) == [(True, "fire"), (True, "breath"), (True, "breath")]


def test_s6_dragon_without_orders_stays_with_mouth_open() -> None:
    result = resolve_round(position(), RoundOrders(), STILL, "seed")
    assert _mouths(result.events) == [(True, "stay")] * 3


def test_s6_sneezing_dragon_always_has_its_mouth_open() -> None:
    state = position(dragons=[dragon("left", effect="sneeze")])
    result = resolve(state, orders(drg("left", "left")))
    assert _mouths(result.events) == [(True, "sneeze")]


def test_s6_dazed_dragon_fires_at_random_outside_the_budget() -> None:
    state = position([player("right", 1, 70, 2)], dragons=[dragon("left", effect="daze")])
    result = resolve(state, orders(drg("left", "left", fire="short")), [0.1])
    assert one(result.events, Kind.FIRE_REFUSED).data["reason"] == "dazed"
    roll = one(result.events, Kind.RANDOM_FIRE_ROLL)
    assert (roll.p, roll.ok) == (STILL.fire.random_fire_probability, True)
    fire = one(result.events, Kind.FIRE)
    assert fire.data["random"] and fire.data["short_left"] == STILL.fire.short_budget
    assert _mouths(result.events) == [(True, "fire")]


def test_s6_fire_beyond_the_budget_is_refused() -> None:
    state = position(dragons=[dragon("left", volleys_left=0)])
    result = resolve(state, orders(drg("left", "left", fire="volley")))
    assert one(result.events, Kind.FIRE_REFUSED).data["reason"] == "budget"
    assert not of(result.events, Kind.FIRE)


def test_s6_paralysed_dragon_stays_so_its_mouth_is_open() -> None:
    # §9.1 read literally (dragon.paralysed_stay_opens_mouth = true).
    state = position(dragons=[dragon("left", height=1, paralysed=True)])
    result = resolve(state, rolls=[0.9])  # its random-fire roll fails
    assert _mouths(result.events) == [(True, "stay")]


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
