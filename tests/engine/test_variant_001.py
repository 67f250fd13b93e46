"""The second edition (seed 001) as the ruleset ``variant-001``: whole
matches on the square field, legal bot orders, the same seed the same match."""

from __future__ import annotations

import json

import pytest

from engine import (
    MatchState,
    check_orders,
    greedy_policy,
    load_ruleset,
    new_match,
    random_policy,
    resolve_round,
    simulate_match,
    state_problems,
)
from engine.field import SquareField


@pytest.fixture(scope="module")
def rules():  # type: ignore[no-untyped-def]
    return load_ruleset("variant-001")


def test_the_ruleset_plays_on_a_square_field_with_its_own_steps(rules) -> None:  # type: ignore[no-untyped-def]
    assert isinstance(rules.field, SquareField)
    assert (rules.field.rows, rules.field.columns) == (13, 17)
    assert rules.steps[0] == "sq_start" and rules.steps[-1] == "sq_end"
    assert rules.extra["turn_ticks"] == 3 and rules.extra["strike_throw"] == 3


def test_the_opening_is_a_possible_position_and_survives_json(rules) -> None:  # type: ignore[no-untyped-def]
    state, _ = new_match(rules, 7)
    assert state_problems(state, rules) == []
    assert {b.direction.name for b in state.balls if b.direction} <= {
        "N",
        "NE",
        "E",
        "SE",
        "S",
        "SW",
        "W",
        "NW",
    }
    again = MatchState.from_json(json.loads(json.dumps(state.to_json())))
    assert again == state


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_bots_play_legal_orders_through_a_whole_match(rules, seed: int) -> None:  # type: ignore[no-untyped-def]
    state, _ = new_match(rules, seed)
    kinds: set[str] = set()
    for n in range(1, rules.max_rounds + 1):
        if state.ended:
            break
        orders = greedy_policy(state, rules, "left", f"{seed}/{n}").merged(
            random_policy(state, rules, "right", f"{seed}/{n}")
        )
        assert check_orders(state, orders, rules) == []
        result = resolve_round(state, orders, rules, f"{seed}/{n}")
        kinds.update(e.kind.value for e in result.events)
        state = result.state
        assert state_problems(state, rules) == []
        assert MatchState.from_json(json.loads(json.dumps(state.to_json()))) == state
    assert state.ended
    assert {"player_move", "dragon_move", "ball_move", "match_end"} <= kinds


def test_the_same_seed_plays_the_same_match(rules) -> None:  # type: ignore[no-untyped-def]
    a = simulate_match(11, rules, policies=("greedy", "greedy"))
    b = simulate_match(11, rules, policies=("greedy", "greedy"))
    assert a.summary() == b.summary() and a.state == b.state
    assert a.summary()["ruleset"] == "variant-001"
