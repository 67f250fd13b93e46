"""§10: penalty throw-ins of held balls."""

from __future__ import annotations

from dataclasses import replace

from enginekit import STILL, fly, of, one, orders, player, position, resolve

from engine.events import Kind
from engine.orders import Catch, Penalty

WARNED = {"round_": 2, "warned_round": (None, 1)}  # right warned in round 1


def test_s10_lowest_value_ball_is_thrown_in_at_the_centre() -> None:
    state = position(
        [player("right", 1, 106, 2, balls=("red",)), player("right", 2, 36, 2, balls=("green",))],
        **WARNED,
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
    state = position([player("right", 1, 36, 2, balls=("red", "black"))], **WARNED)
    result = resolve(state, orders(Penalty("right", 1), Penalty("right", 1)), [0.0, 0.0])
    assert [e.data["ball"] for e in of(result.events, Kind.PENALTY_THROW_IN)] == ["black"]
    assert result.state.player("right", 1).balls == ("red",)


def test_s10_one_penalty_throws_in_every_held_ball_one_a_tick_lowest_value_first() -> None:
    # §10 "Если команда удерживает несколько мячей … они сбрасываются в центре
    # поля в разных тактах (начиная с 1-го). Выбираются мячи для сброса,
    # начиная с наименьшей ценности по очкам."
    state = position(
        [
            player("right", 1, 36, 2, balls=("red", "black")),
            player("right", 2, 40, 2, balls=("blue",)),
        ],
        **WARNED,
    )
    given = orders(Penalty("right", 1))
    thrown = []
    for _ in range(3):
        result = resolve(state, given, then=0.0)
        thrown += [e.data["ball"] for e in of(result.events, Kind.PENALTY_THROW_IN)]
        state = result.state
    assert thrown == ["black", "blue", "red"]


def test_s10_nothing_to_throw_in_when_the_team_holds_no_ball() -> None:
    state = position(
        [player("right", 1, 36, 2), player("left", 1, 37, 2, balls=("red",))], **WARNED
    )
    result = resolve(state, orders(Penalty("right", 1)))
    assert one(result.events, Kind.PENALTY_NOTHING).data == {"side": "right"}


def test_s10_penalty_acts_only_from_its_tick() -> None:
    state = position([player("right", 1, 36, 2, balls=("red",))], **WARNED)
    result = resolve(state, orders(Penalty("right", 3)))
    assert not of(result.events, Kind.PENALTY_THROW_IN)


def test_s10_a_penalty_without_a_warning_in_the_round_before_is_refused() -> None:
    # §10 "судья в раунде, следующим за тем, когда было вынесено
    # предупреждение…": no warning, or one two rounds ago, is not enough.
    for warned in (None, 0):
        state = position(
            [player("right", 1, 36, 2, balls=("red",))], round_=2, warned_round=(None, warned)
        )
        state = replace(state, teams=(state.teams[0], replace(state.teams[1], warnings=1)))
        if warned is None:
            state = replace(state, teams=(state.teams[0], replace(state.teams[1], warnings=0)))
        result = resolve(state, orders(Penalty("right", 1)))
        refused = one(result.events, Kind.PENALTY_REFUSED)
        assert refused.data == {"side": "right", "reason": "no_warning"}
        assert result.state.player("right", 1).balls == ("red",)
