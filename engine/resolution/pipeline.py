"""A tick as a pipeline of named steps that a ruleset composes.

Each step is a function of the tick's context (:class:`Tick`); a ruleset's
``[resolution] steps`` lists the names in the order they run, and a ruleset
that names none plays :data:`CLASSIC_STEPS`, the order of the classic book's
§9.  An edition with other mechanics registers its own steps (the second
edition's are in :mod:`engine.resolution.square`) and lists them in its file:
no step asks which edition it is playing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from ..ruleset import Ruleset, RulesetError
from .contact import catch_free_balls, catch_passes, collisions, steals
from .context import Tick
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

__all__ = ["CLASSIC_STEPS", "STEPS", "Step", "pipeline_of", "register"]

Step = Callable[[Tick], None]


def _passes_land(t: Tick) -> None:
    # §9 (interpretation): thrown at step 4 of the tick before, they land now;
    # version 1 threw and landed them at once, at step 1.
    if t.rules.passes_next_tick:
        land_passes(t)
    else:
        throw_passes(t, 1)


def _passes_thrown(t: Tick) -> None:
    if t.rules.passes_next_tick:
        throw_passes(t, 4)


STEPS: dict[str, Step] = {
    # 0. start of round and tick
    "start_of_tick": start_of_tick,
    # 1. flights: players, dragons (mouth, fire), free balls, passes landing
    "players_fly": players_fly,
    "dragons_fly": dragons_fly,
    "balls_fly": balls_fly,
    "passes_land": _passes_land,
    # 2. passes landed where an open mouth can swallow them
    "swallow_landed_passes": swallow_landed_passes,
    # 3. players with each other, then with dragons and fire
    "collisions": collisions,
    "dragons_meet_players": dragons_meet_players,
    "burn_balls": burn_balls,
    # 4. passes: the landed ones caught, this tick's thrown
    "catch_passes": catch_passes,
    "passes_thrown": _passes_thrown,
    # 5. steals
    "steals": steals,
    # 6. balls in free flight caught
    "catch_free_balls": catch_free_balls,
    # 7. balls freed this tick swallowed; end conditions
    "swallow_freed_balls": swallow_freed_balls,
    "end_of_tick": end_of_tick,
}

CLASSIC_STEPS: Final[tuple[str, ...]] = tuple(STEPS)


def register(name: str, step: Step) -> None:
    """Make a step available to rulesets by ``name`` (an edition's module
    registers its steps when imported)."""
    if name in STEPS and STEPS[name] is not step:
        raise ValueError(f"a step named {name!r} is already registered")
    STEPS[name] = step


_CACHE: dict[tuple[str, ...], tuple[Step, ...]] = {}


def pipeline_of(rules: Ruleset) -> tuple[Step, ...]:
    """The steps of a tick under ``rules``, in order."""
    names = rules.steps or CLASSIC_STEPS
    found = _CACHE.get(names)
    if found is None:
        from . import square  # noqa: F401  (registers the second edition's steps)

        unknown = [n for n in names if n not in STEPS]
        if unknown:
            raise RulesetError(f"ruleset key resolution.steps: unknown step {unknown[0]!r}")
        found = _CACHE[names] = tuple(STEPS[n] for n in names)
    return found
