"""A whole match between two built-in policies, from one seed.

The opening position comes from ``derive_seed(seed, "setup")``; round ``n``
is resolved with ``derive_seed(seed, f"round{n}")`` and the policies order
from ``derive_seed(that, "policy")``.  The same seed gives the same match,
byte for byte.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from .dice import derive_seed
from .orders import RoundOrders
from .policies import POLICIES, Policy
from .resolve import RoundResult, resolve_round
from .ruleset import Ruleset
from .setup import new_match
from .state import BallState, MatchState

__all__ = ["MatchResult", "RoundRecord", "ball_fate", "simulate_match"]


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """What a replay needs for one round: its seed and everyone's orders."""

    round: int
    seed: str
    orders: RoundOrders


@dataclass(frozen=True, slots=True)
class MatchResult:
    seed: str | int | bytes
    policies: tuple[str, str]
    initial: MatchState
    state: MatchState
    rounds: int  # rounds resolved (the last one may have ended early)
    ticks: int
    events: int  # events of the opening draws and of every tick
    round_seeds: tuple[str, ...]
    history: tuple[RoundRecord, ...] = ()  # filled when simulated with record=True

    def summary(self) -> dict[str, Any]:
        """The JSON summary printed by ``dragonball simulate --json``."""
        s = self.state
        left, right = s.teams
        winner = (
            None if left.score == right.score else "left" if left.score > right.score else "right"
        )
        seed = self.seed.hex() if isinstance(self.seed, bytes) else self.seed
        return {
            "seed": seed,
            "ruleset": s.ruleset,
            "policies": {"left": self.policies[0], "right": self.policies[1]},
            "teams": {"left": left.name, "right": right.name},
            "rounds": self.rounds,
            "ticks": self.ticks,
            "score": {"left": left.score, "right": right.score},
            "winner": winner,
            "balls": {b.name: ball_fate(b) for b in s.balls},
            "end_reason": s.end_reason,
            "events": self.events,
        }


def ball_fate(b: BallState) -> dict[str, Any]:
    """Where a ball ended up, e.g. ``{"state": "swallowed", "by": "right"}``."""
    if b.status == "swallowed":
        return {"state": "swallowed", "by": b.swallowed_by}
    if b.status == "held" and b.holder is not None:
        return {"state": "held", "by": b.holder.side, "number": b.holder.number}
    if b.status == "burnt":
        return {"state": "burnt"}
    return {"state": b.status, "cell": b.cell}


def _policy(spec: str | Policy) -> tuple[str, Policy]:
    if isinstance(spec, str):
        if spec not in POLICIES:
            raise ValueError(f"unknown policy {spec!r}: one of {', '.join(sorted(POLICIES))}")
        return spec, POLICIES[spec]
    return getattr(spec, "__name__", "custom"), spec


def simulate_match(
    seed: str | int | bytes,
    ruleset: Ruleset,
    *,
    max_rounds: int | None = None,
    players_per_team: int | None = None,
    policies: tuple[str | Policy, str | Policy] = ("random", "greedy"),
    record: bool = False,
    on_round: Callable[[RoundResult], None] | None = None,
) -> MatchResult:
    """Play a match, left team by ``policies[0]``, right by ``policies[1]``,
    until it ends (§1) or ``max_rounds`` rounds are played."""
    if max_rounds is not None:
        if max_rounds < 1:
            raise ValueError("max_rounds must be at least 1")
        ruleset = replace(ruleset, max_rounds=max_rounds)
    (left_name, left), (right_name, right) = _policy(policies[0]), _policy(policies[1])
    state, opening = new_match(
        ruleset, derive_seed(seed, "setup"), players_per_team=players_per_team
    )
    initial = state
    events = len(opening)
    ticks = rounds = 0
    seeds: list[str] = []
    history: list[RoundRecord] = []
    while not state.ended:
        round_seed = derive_seed(seed, f"round{state.round}")
        # bytes.fromhex(x) is the seed x means; passing bytes skips re-parsing.
        policy_seed = bytes.fromhex(derive_seed(bytes.fromhex(round_seed), "policy"))
        a = left(state, ruleset, "left", policy_seed)
        b = right(state, ruleset, "right", policy_seed)
        orders = RoundOrders(players=a.players + b.players, dragons=a.dragons + b.dragons)
        if record:
            history.append(RoundRecord(state.round, round_seed, orders))
        result = resolve_round(state, orders, ruleset, bytes.fromhex(round_seed))
        if on_round is not None:
            on_round(result)
        seeds.append(round_seed)
        rounds += 1
        ticks += len(result.tick_states)
        events += len(result.events)
        state = result.state
    return MatchResult(
        seed=seed,
        policies=(left_name, right_name),
        initial=initial,
        state=state,
        rounds=rounds,
        ticks=ticks,
        events=events,
        round_seeds=tuple(seeds),
        history=tuple(history),
    )
