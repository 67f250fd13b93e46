"""The built-in policies give legal orders, deterministically; a simulated
match is reproducible and its summary complete."""

from __future__ import annotations

import json

import pytest
from enginekit import CLASSIC

from engine.dice import derive_seed
from engine.legality import check_orders
from engine.orders import Catch, Pass, Steal
from engine.policies import greedy_policy, random_policy
from engine.simulate import simulate_match
from engine.state import MatchState

POLICIES = {"random": random_policy, "greedy": greedy_policy}


def _positions(seed: int) -> list[MatchState]:
    states: list[MatchState] = []
    result = simulate_match(
        seed,
        CLASSIC,
        policies=("random", "greedy"),
        on_round=lambda r: states.extend(r.tick_states[:1]),
    )
    return [result.initial, *(s for s in states if not s.ended and s.tick == 1)]


@pytest.mark.parametrize("name", ["random", "greedy"])
def test_policies_give_only_legal_orders(name: str) -> None:
    policy = POLICIES[name]
    checked = 0
    for seed in range(6):
        for state in _positions(seed):
            for side in ("left", "right"):
                orders = policy(state, CLASSIC, side, f"{seed}/{state.round}/{state.tick}")
                assert check_orders(state, orders, CLASSIC, side=side) == []
                checked += 1
    assert checked > 60


@pytest.mark.parametrize("name", ["random", "greedy"])
def test_policies_order_every_active_player_for_every_remaining_tick(name: str) -> None:
    state = simulate_match(3, CLASSIC, max_rounds=2).state
    state = MatchState.from_json({**state.to_json(), "status": "playing", "round": 3, "tick": 0})
    orders = POLICIES[name](state, CLASSIC, "left", "x")
    active = [p.number for p in state.team_players("left") if p.status == "active"]
    for tick in (1, 2, 3):
        assert (
            sorted(o.number for o in orders.players if o.tick == tick and o.number in active)
            == active
        )
    assert [d.tick for d in orders.dragons] == [1, 2, 3]
    assert all(o.side == "left" for o in orders.players)


@pytest.mark.parametrize("name", ["random", "greedy"])
def test_policies_are_deterministic_for_a_seed(name: str) -> None:
    state = simulate_match(5, CLASSIC, max_rounds=3).initial
    a = POLICIES[name](state, CLASSIC, "right", "same")
    assert a == POLICIES[name](state, CLASSIC, "right", "same")
    assert a != POLICIES[name](state, CLASSIC, "right", "other")


def test_policies_describe_their_orders_in_russian_now_and_then() -> None:
    state = simulate_match(1, CLASSIC, max_rounds=1).initial
    texts = [
        o.description
        for seed in range(10)
        for o in greedy_policy(state, CLASSIC, "left", seed).players
        if o.description
    ]
    assert texts and all(any("а" <= ch <= "я" for ch in t) for t in texts)


def test_greedy_policy_chases_balls_shoots_and_beats_the_random_one() -> None:
    totals = {"greedy": 0, "random": 0}
    kinds: set[type] = set()
    for seed in range(16):
        left, right = ("greedy", "random") if seed % 2 else ("random", "greedy")
        result = simulate_match(seed, CLASSIC, policies=(left, right), record=True)
        totals[left] += result.state.team("left").score
        totals[right] += result.state.team("right").score
        for rec in result.history:
            for o in rec.orders.players:
                if o.side == ("left" if left == "greedy" else "right") and o.action:
                    kinds.add(type(o.action))
    assert kinds == {Pass, Catch, Steal}
    assert totals["greedy"] > 2 * totals["random"], totals


def test_simulated_match_summary() -> None:
    result = simulate_match(11, CLASSIC)
    summary = result.summary()
    assert {"seed", "rounds", "ticks", "score", "balls", "end_reason", "events"} <= set(summary)
    assert summary["seed"] == 11 and summary["rounds"] == result.rounds
    assert set(summary["score"]) == {"left", "right"}
    assert set(summary["balls"]) == set(CLASSIC.ball_order)
    for name, fate in summary["balls"].items():
        ball = result.state.ball(name)
        assert fate["state"] == ball.status
        if ball.status == "swallowed":
            assert fate == {"state": "swallowed", "by": ball.swallowed_by}
    assert summary["end_reason"] == result.state.end_reason
    assert result.ticks <= 3 * result.rounds
    assert len(result.round_seeds) == result.rounds
    assert result.round_seeds[0] == derive_seed(11, "round1")
    json.dumps(summary)  # plain JSON


def test_simulated_match_is_reproducible_and_respects_max_rounds() -> None:
    a = simulate_match("abc", CLASSIC, max_rounds=4, players_per_team=3)
    b = simulate_match("abc", CLASSIC, max_rounds=4, players_per_team=3)
    assert a.state == b.state and a.summary() == b.summary()
    assert a.rounds <= 4 and len(a.state.team_players("left")) == 3
    if a.rounds == 4:
        assert a.state.end_reason == "max_rounds"


def test_simulate_refuses_unknown_policies_and_bad_limits() -> None:
    with pytest.raises(ValueError, match="unknown policy"):
        simulate_match(1, CLASSIC, policies=("random", "clever"))
    with pytest.raises(ValueError, match="max_rounds"):
        simulate_match(1, CLASSIC, max_rounds=0)


def test_simulated_events_are_counted() -> None:
    counted: list[int] = []
    result = simulate_match(
        2, CLASSIC, max_rounds=3, on_round=lambda r: counted.append(len(r.events))
    )
    assert result.events == sum(counted) + 2 * len(CLASSIC.ball_order)  # + the opening draws
    assert all(n > 0 for n in counted)
