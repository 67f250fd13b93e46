"""One tick in exactly the order of §9 (steps 0–7)."""

from __future__ import annotations

from ..dice import Dice
from ..events import Event
from ..ruleset import Ruleset
from .contact import catch_free_balls, catch_passes, collisions, steals
from .context import Forcing, OrderIndex, Tick
from .dragons import (
    burn_balls,
    dragons_fly,
    dragons_meet_players,
    swallow_freed_balls,
    swallow_landed_passes,
)
from .finish import end_of_tick
from .flight import balls_fly, land_passes, players_fly, throw_passes
from .start import start_of_tick
from .work import Work, reset_tick_flags

__all__ = ["run_tick"]


def run_tick(
    w: Work,
    orders: OrderIndex,
    rules: Ruleset,
    dice: Dice,
    events: list[Event],
    forcing: Forcing | None = None,
) -> None:
    """Resolve tick ``w.tick + 1`` of round ``w.round`` in place."""
    reset_tick_flags(w)
    t = Tick(w, orders, rules, dice, events, forcing)
    # 0. start of round and tick
    start_of_tick(t)
    next_tick = rules.passes_next_tick
    # 1. flights: players, dragons (mouth, fire), free balls, passes landing
    players_fly(t)
    dragons_fly(t)
    balls_fly(t)
    if next_tick:
        land_passes(t)  # thrown at step 4 of the tick before
    else:
        throw_passes(t, 1)  # version 1: thrown and landed at once
    # 2. passes landed where an open mouth can swallow them
    swallow_landed_passes(t)
    # 3. players with each other, then with dragons and fire
    collisions(t)
    dragons_meet_players(t)
    burn_balls(t)
    # 4. passes: the landed ones caught, this tick's thrown
    catch_passes(t)
    if next_tick:
        throw_passes(t, 4)
    # 5. steals
    steals(t)
    # 6. balls in free flight caught
    catch_free_balls(t)
    # 7. balls freed this tick swallowed; end conditions
    swallow_freed_balls(t)
    end_of_tick(t)
