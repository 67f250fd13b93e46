"""§9: the order of a tick, one stream of dice per tick, every draw recorded."""

from __future__ import annotations

import pytest
from enginekit import CLASSIC

from engine.dice import Dice
from engine.orders import RoundOrders
from engine.policies import greedy_policy, random_policy
from engine.resolve import resolve_round, resolve_tick, tick_seed
from engine.ruleset import Ruleset
from engine.simulate import simulate_match
from engine.state import MatchState


class CountingDice(Dice):
    def __init__(self, seed: str) -> None:
        super().__init__(seed)
        self.count = 0

    def uniform(self) -> float:
        self.count += 1
        return super().uniform()


def _busy_positions(rounds: int = 12) -> list[tuple[MatchState, RoundOrders]]:
    """Positions and orders from a few bot matches: plenty of everything."""
    out: list[tuple[MatchState, RoundOrders]] = []

    def both(state: MatchState, rules: Ruleset, seed: str) -> RoundOrders:
        a = random_policy(state, rules, "left", seed)
        b = greedy_policy(state, rules, "right", seed)
        return RoundOrders(a.players + b.players, a.dragons + b.dragons)

    for seed in range(4):
        result = simulate_match(seed, CLASSIC, max_rounds=rounds, record=True)
        state = result.initial
        for rec in result.history:
            out.append((state, rec.orders))
            state = resolve_round(state, rec.orders, CLASSIC, rec.seed).state
        out.append((state, both(state, CLASSIC, "extra")))
    return out


def test_s9_steps_follow_the_order_of_section_9() -> None:
    for state, orders in _busy_positions():
        result = resolve_round(state, orders, CLASSIC, "s9")
        ticks: dict[int, list[int]] = {}
        for e in result.events:
            ticks.setdefault(e.tick, []).append(e.step)
        for steps in ticks.values():
            assert steps == sorted(steps)
            assert all(0 <= s <= 7 for s in steps)


def test_s9_every_draw_is_an_event_with_its_probability_and_roll() -> None:
    for state, orders in _busy_positions(6):
        if state.ended:
            continue
        dice = CountingDice(tick_seed("draws", state.round, state.tick + 1))
        result = resolve_tick(state, orders, CLASSIC, dice=dice)
        drawn = [e for e in result.events if e.roll is not None]
        assert len(drawn) == dice.count
        for e in drawn:
            assert e.p is not None and 0 <= e.p <= 1 and 0 <= e.roll < 1
            if e.ok is not None:
                assert e.ok == (e.roll < e.p)


def test_s9_a_round_tick_by_tick_equals_the_round_at_once() -> None:
    for state, orders in _busy_positions(5)[::3]:
        whole = resolve_round(state, orders, CLASSIC, "same")
        parts = []
        step = state
        for _ in range(3):
            if step.ended or step.round != state.round:
                break
            r = resolve_round(step, orders, CLASSIC, "same", ticks=1)
            parts.extend(r.events)
            step = r.state
        assert step == whole.state
        assert tuple(parts) == whole.events


def test_s9_inputs_are_never_mutated() -> None:
    state, orders = _busy_positions(3)[2]
    before = (state.to_json(), orders.to_json())
    resolve_round(state, orders, CLASSIC, "x")
    assert (state.to_json(), orders.to_json()) == before


def test_s9_resolving_the_same_state_twice_gives_the_same_result() -> None:
    # The resolver takes over its own last working copy when the next round
    # starts from the state it returned; a second use must thaw afresh.
    positions = _busy_positions(4)
    state, orders = positions[0]
    first = resolve_round(state, orders, CLASSIC, "a")
    nxt = greedy_policy(first.state, CLASSIC, "left", "b")
    one = resolve_round(first.state, nxt, CLASSIC, "b")
    two = resolve_round(first.state, nxt, CLASSIC, "b")
    assert one.state == two.state and one.events == two.events
    three = resolve_round(first.state, RoundOrders(), CLASSIC, "b")
    assert three.state != one.state or three.events != one.events


def test_s9_events_are_built_like_the_dataclass_builds_them() -> None:
    from engine.events import Event, Kind
    from engine.resolution.context import make_event

    args = (3, 2, 6, Kind.CATCH_ROLL, {"side": "left"}, 0.5, 0.25, True)
    made, plain = make_event(*args), Event(*args)
    assert made == plain and type(made) is Event and made.to_json() == plain.to_json()
    with pytest.raises(AttributeError):
        made.step = 7  # type: ignore[misc]  # still frozen
