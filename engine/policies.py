"""Built-in bot policies: orders for one side's players and dragon for all
the round's remaining ticks.

Both produce only legal orders (:func:`engine.legality.check_orders` finds
nothing in them) and are deterministic for a seed: every choice is drawn
from a :class:`~engine.dice.Dice` seeded from ``seed`` and the side, never
from global randomness.  Now and then an order carries a short Russian
description, as players write them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from .bots.greedy import greedy_orders
from .bots.random_bot import random_orders
from .bots.square_bot import square_orders
from .dice import Dice, derive_seed
from .geometry import Side
from .orders import RoundOrders
from .ruleset import Ruleset
from .state import MatchState

__all__ = ["POLICIES", "Policy", "greedy_policy", "random_policy"]

Policy = Callable[[MatchState, Ruleset, Side, "str | int | bytes"], RoundOrders]


def random_policy(
    state: MatchState, ruleset: Ruleset, side: Side, seed: str | int | bytes
) -> RoundOrders:
    """Any legal flight and action, picked at random; fire now and then."""
    if ruleset.field.shape == "square":  # the second edition's captains know squares
        return square_orders(state, ruleset, side, _dice(seed, f"random/{side}"), careful=False)
    return random_orders(state, ruleset, side, _dice(seed, f"random/{side}"))


def greedy_policy(
    state: MatchState, ruleset: Ruleset, side: Side, seed: str | int | bytes
) -> RoundOrders:
    """Chase free balls, rob carriers, carry balls to the enemy dragon and
    shoot when its mouth will be open; the dragon keeps its mouth shut while
    threatened, goes for opponents, fires at them and rests otherwise
    (docs/engine.md, *The built-in captains*)."""
    if ruleset.field.shape == "square":
        return square_orders(state, ruleset, side, _dice(seed, f"greedy/{side}"))
    return greedy_orders(state, ruleset, side, _dice(seed, f"greedy/{side}"))


def _dice(seed: str | int | bytes, label: str) -> Dice:
    # Dice(derive_seed(seed, label)), without parsing the hex seed again.
    return Dice(bytes.fromhex(derive_seed(seed, label)))


POLICIES: Final[dict[str, Policy]] = {"random": random_policy, "greedy": greedy_policy}
