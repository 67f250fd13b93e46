"""§1: goals score for the other team, the balls' magic and when it starts,
the round of three ticks, the end of a match."""

from __future__ import annotations

from dataclasses import replace

import pytest
from enginekit import (
    STILL,
    dragon,
    dragon_event,
    drg,
    free_ball,
    in_air,
    of,
    one,
    orders,
    player,
    position,
    resolve,
)

from engine.events import Kind
from engine.orders import RoundOrders
from engine.resolve import resolve_round
from engine.state import BallState

HEAD = 102  # the left dragon's head; it stays (mouth open) without orders


def _shot(ball: str, *, dragons=(), rolls=(0.0,), **kw):
    """A right-team player at 70 passed ``ball`` last tick: it lands in the left
    dragon's open mouth at step 1 and is swallowed at step 2."""
    state = position([player("right", 1, 70, 2)], [in_air(ball, 70, HEAD)], dragons=dragons, **kw)
    return resolve(state, None, rolls)


def test_s1_goal_scores_for_the_team_not_owning_the_dragon() -> None:
    result = _shot("red")
    goal = one(result.events, Kind.GOAL)
    assert goal.data == {
        "ball": "red",
        "dragon": "left",
        "scorer_side": "right",
        "points": 5,
        "score": {"left": 0, "right": 5},
    }
    assert one(result.events, Kind.SCORE).data == {"left": 0, "right": 5}
    assert result.state.team("right").score == 5


def test_s1_own_goal_scores_for_the_other_team() -> None:
    state = position([player("left", 1, 70, 2)], [in_air("green", 70, HEAD, passer=("left", 1))])
    result = resolve(state, None, [0.0])
    assert one(result.events, Kind.GOAL).data["scorer_side"] == "right"


@pytest.mark.parametrize(
    ("ball", "effect"),
    [("black", "daze"), ("green", "sneeze"), ("blue", "extinguish"), ("yellow", "paralyse")],
)
def test_s1_ball_magic_starts_on_the_next_tick(ball: str, effect: str) -> None:
    result = _shot(ball)
    assert one(result.events, Kind.EFFECT_PENDING).data == {"dragon": "left", "effect": effect}
    d = result.state.dragon("left")
    assert d.pending_effects == (effect,)
    assert (d.effect, d.extinguished, d.paralysed) == (None, False, False)
    later = resolve(result.state, rolls=[0.9], then=0.9)
    assert one(later.events, Kind.EFFECT_START).data == {"dragon": "left", "effect": effect}
    assert (later.events[0].kind, later.events[0].step) == (Kind.EFFECT_START, 0)
    d = later.state.dragon("left")
    assert d.pending_effects == ()
    assert d.effect == (effect if effect in ("daze", "sneeze") else None)
    assert d.extinguished is (effect == "extinguish")
    assert d.paralysed is (effect == "paralyse")


def test_s1_daze_makes_fire_random_and_refuses_ordered_fire() -> None:
    state = position(dragons=[dragon("left", effect="daze")])
    result = resolve(state, orders(drg("left", "left", fire="volley")), [0.5])
    assert one(result.events, Kind.FIRE_REFUSED).data["reason"] == "dazed"
    assert not one(result.events, Kind.RANDOM_FIRE_ROLL).ok


def test_s1_extinguished_dragon_never_fires_not_even_at_random() -> None:
    state = position(dragons=[dragon("left", effect="daze", extinguished=True)])
    result = resolve(state, orders(drg("left", "left", fire="short")))
    assert one(result.events, Kind.FIRE_REFUSED).data["reason"] == "extinguished"
    assert not of(result.events, Kind.RANDOM_FIRE_ROLL)


def test_s1_paralysed_dragon_drops_to_height_one_and_never_moves() -> None:
    result = _shot("yellow", dragons=[dragon("left", height=3)])
    later = resolve(result.state, orders(drg("left", "forward", 1, tick=2)), [0.9])
    move = dragon_event(later.events, Kind.DRAGON_MOVE)
    assert (move.data["move"], move.data["height"], move.data["refused"]) == (
        "stay",
        STILL.dragon.paralysed_height,
        "dragon_paralysed",
    )
    assert later.state.dragon("left").head == HEAD
    # It keeps its fire and spits short flames at random (roll 0.9: not now).
    assert one(later.events, Kind.RANDOM_FIRE_ROLL).p == STILL.fire.random_fire_probability


def test_s1_pepper_spits_out_the_swallowed_players_at_once() -> None:
    eaten = player("left", 3, None, None, status="swallowed", swallowed_by="left")
    d = dragon("left", swallowed_players=(eaten.ref,))
    state = position(
        [eaten, player("right", 1, 70, 2)], [in_air("red", 70, HEAD)], dragons=[d], round_=5
    )
    result = resolve(state, None, [0.0])
    spat = one(result.events, Kind.PLAYERS_SPAT)
    assert spat.step == 2
    assert spat.data == {
        "dragon": "left",
        "players": [{"side": "left", "number": 3}],
        "return_round": 6,
    }
    p = result.state.player("left", 3)
    assert (p.status, p.return_round, p.swallowed_by) == ("hospital", 6, None)
    assert result.state.dragon("left").swallowed_players == ()


def test_s1_a_new_ball_ends_the_lasting_effect_of_the_last() -> None:
    # The sneezing dragon swallows the blue ball: from the next tick it no
    # longer sneezes (and its fire is out).
    result = _shot("blue", dragons=[dragon("left", effect="sneeze")])
    later = resolve(result.state, orders(drg("left", "left", tick=2)))
    d = later.state.dragon("left")
    assert (d.effect, d.extinguished, d.mouth_open) == (None, True, False)


def test_s1_a_round_is_three_ticks_then_the_next_round() -> None:
    state = position()
    result = resolve_round(state, RoundOrders(), STILL, "seed")
    assert [s.tick for s in result.tick_states] == [1, 2, 0]
    assert result.state.round == 2 and result.state.tick == 0
    assert one(result.events, Kind.ROUND_END).tick == 3
    assert [e.tick for e in of(result.events, Kind.ROUND_START)] == [1]


def _all_but(name: str) -> list[BallState]:
    return [
        BallState(b, "swallowed", HEAD, 2, swallowed_by="left")
        for b in STILL.ball_order
        if b != name
    ]


def test_s1_match_ends_when_every_ball_is_swallowed() -> None:
    rules = replace(STILL, end_when_decided=False)
    state = position(
        [player("right", 1, 70, 2)], [*_all_but("black"), in_air("black", 70, HEAD)], score=(0, 20)
    )
    result = resolve(state, None, [0.0], rules=rules)
    end = one(result.events, Kind.MATCH_END)
    assert end.data == {"reason": "all_balls", "score": {"left": 0, "right": 21}}
    assert result.state.status == "ended" and result.state.end_reason == "all_balls"
    assert result.state.tick == 1  # checked after every tick


def test_s1_match_ends_when_a_whole_team_is_swallowed() -> None:
    eaten = player("right", 2, None, None, status="swallowed", swallowed_by="left")
    state = position([player("right", 1, HEAD, 2), eaten, player("left", 1, 36, 2)])
    result = resolve(state, rolls=[0.0])
    assert one(result.events, Kind.MATCH_END).data["reason"] == "team_swallowed"


def test_s1_match_ends_when_the_result_cannot_change() -> None:
    # Interpretation (match.end_when_decided): the lead exceeds what is left.
    state = position(
        [player("right", 1, 70, 2)],
        [BallState("yellow", "swallowed", HEAD, 1, swallowed_by="left"), in_air("red", 70, HEAD)],
        score=(0, 10),
    )
    # Left in play before the shot: 1 + 2 + 3 + 5 = 11 > 10; after it 6 < 15.
    result = resolve(state, None, [0.0])
    assert one(result.events, Kind.MATCH_END).data["reason"] == "decided"


def test_s1_match_ends_after_the_last_round() -> None:
    state = position(round_=STILL.max_rounds, tick=2)
    result = resolve_round(state, RoundOrders(), STILL, "seed")
    assert kinds_tail(result) == ["round_end", "match_end"]
    assert result.state.end_reason == "max_rounds"
    assert (result.state.round, result.state.tick) == (STILL.max_rounds, 3)


def test_s1_an_ended_match_resolves_nothing() -> None:
    state = replace(position(), status="ended", end_reason="game_master")
    result = resolve_round(state, RoundOrders(), STILL, "seed")
    assert result.state is state and result.events == () and result.tick_states == ()


def kinds_tail(result) -> list[str]:
    return [e.kind.value for e in result.events[-2:]]


def test_s1_free_balls_count_as_in_play() -> None:
    state = position([], [free_ball("black", 36)])
    assert not resolve(state).state.ended
