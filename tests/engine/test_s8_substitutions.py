"""§8: substitutions before the round's first tick; swallowed players."""

from __future__ import annotations

from enginekit import fly, one, orders, player, position, resolve

from engine.events import Kind
from engine.orders import Substitution


def test_s8_reserve_takes_an_active_players_place_and_balls() -> None:
    state = position(
        [player("left", 1, 36, 3, balls=("red",)), player("left", 8, None, status="reserve")]
    )
    result = resolve(state, orders(Substitution("left", 1, 8), fly("left", 8, 37, 3)))
    assert one(result.events, Kind.SUBSTITUTION).data == {"side": "left", "out": 1, "in": 8}
    new, old = result.state.player("left", 8), result.state.player("left", 1)
    assert (new.status, new.cell, new.height, new.balls) == ("active", 37, 3, ("red",))
    assert (old.status, old.cell, old.balls) == ("reserve", None, ())
    assert result.state.ball("red").holder.number == 8


def test_s8_reserve_for_a_hospital_player_launches_on_this_rounds_return_tick() -> None:
    state = position(
        [
            player("left", 1, None, status="hospital", return_round=5),
            player("left", 8, None, status="reserve"),
        ],
        round_=2,
    )
    result = resolve(state, orders(Substitution("left", 1, 8)))
    new, old = result.state.player("left", 8), result.state.player("left", 1)
    assert (new.status, new.return_round) == ("hospital", 2)
    assert (old.status, old.return_round) == ("reserve", 5)  # he keeps his return round


def test_s8_swallowed_player_cannot_be_substituted() -> None:
    state = position(
        [
            player("left", 1, None, status="swallowed", swallowed_by="right"),
            player("left", 8, None, status="reserve"),
        ]
    )
    result = resolve(state, orders(Substitution("left", 1, 8)))
    refused = one(result.events, Kind.SUBSTITUTION_REFUSED)
    assert refused.data["reason"] == "swallowed"
    assert result.state.player("left", 8).status == "reserve"


def test_s8_substitution_only_before_the_first_tick() -> None:
    state = position([player("left", 1, 36, 3), player("left", 8, None, status="reserve")], tick=1)
    result = resolve(state, orders(Substitution("left", 1, 8)))
    assert result.state.player("left", 8).status == "reserve"
