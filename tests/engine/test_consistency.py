"""state_problems: a state document that is not a possible position is
refused before the resolver sees it."""

from __future__ import annotations

from dataclasses import replace

from enginekit import CLASSIC, dragon, free_ball, player, position

from engine.consistency import state_problems
from engine.geometry import Direction
from engine.simulate import simulate_match
from engine.state import BallState, PlayerRef


def test_positions_of_real_matches_are_consistent() -> None:
    seen = []
    simulate_match(3, CLASSIC, max_rounds=8, on_round=lambda r: seen.extend(r.tick_states))
    assert seen and all(state_problems(s, CLASSIC) == [] for s in seen)


def test_impossible_positions_are_described() -> None:
    cases = [
        position([player("left", 1, 999, 2)]),
        position([player("left", 1, 36, 5)]),
        position([], [free_ball("red", 0, 2)]),
        position(dragons=[dragon("left", 106, Direction.E)]),
        replace(position(), tick=4),
        replace(position(), ruleset="variant-001"),
    ]
    for state in cases:
        assert state_problems(state, CLASSIC), state


def test_held_balls_must_agree_with_their_holders() -> None:
    state = position([player("left", 1, 36, 2, balls=("red",))])
    wrong = replace(
        state,
        balls=tuple(
            BallState("red", "held", 36, 2, PlayerRef("left", 2)) if b.name == "red" else b
            for b in state.balls
        ),
    )
    problems = state_problems(wrong, CLASSIC)
    assert any("red" in p for p in problems)
    lost = replace(state, balls=state.balls[1:])
    assert any("balls are" in p for p in state_problems(lost, CLASSIC))
