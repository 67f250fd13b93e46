"""Resolution of a round: state + orders + seed in, new state + events out.

Each tick ``t`` of round ``r`` draws from its own stream
``Dice(derive_seed(seed, f"round{r}/tick{t}"))``, so a round resolved tick by
tick gives exactly what it gives resolved at once.  The resolver never
raises on orders: one that is impossible when its tick comes (it should have
been refused when saved, see :mod:`engine.legality`) counts as no order or a
lost action, with an event saying why.  Inputs are never mutated.
"""

from __future__ import annotations

from dataclasses import dataclass

from .dice import Dice, derive_seed, seed_bytes
from .events import Event
from .orders import RoundOrders
from .resolution.context import Forcing, OrderIndex
from .resolution.tick import run_tick
from .resolution.work import freeze, thaw
from .ruleset import Ruleset
from .state import MatchState

__all__ = ["RoundResult", "resolve_round", "resolve_tick", "tick_seed"]


@dataclass(frozen=True, slots=True)
class RoundResult:
    state: MatchState  # after the ticks resolved
    events: tuple[Event, ...]
    tick_states: tuple[MatchState, ...]  # the state after each tick resolved


def tick_seed(seed: str | int | bytes, round_: int, tick: int) -> str:
    """The seed of one tick's dice stream."""
    return derive_seed(seed, f"round{round_}/tick{tick}")


def _tick_dice(base: bytes, round_: int, tick: int) -> Dice:
    # The same stream as Dice(tick_seed(...)): a 64-digit hex seed reads as
    # its bytes; handing the bytes over skips parsing the hex again.
    return Dice(bytes.fromhex(derive_seed(base, f"round{round_}/tick{tick}")))


def resolve_round(
    state: MatchState,
    orders: RoundOrders,
    ruleset: Ruleset,
    seed: str | int | bytes,
    *,
    ticks: int | None = None,
    forcing: Forcing | None = None,
) -> RoundResult:
    """Resolve from tick ``state.tick + 1`` to the end of the round, or only
    ``ticks`` ticks.  After the round's last tick the state moves on to
    ``round + 1, tick 0``, or ends (§1).  ``forcing`` decides named draws
    (the case book, :mod:`engine.cases`)."""
    if state.ended:
        return RoundResult(state, (), ())
    remaining = ruleset.ticks_per_round - state.tick
    count = remaining if ticks is None else max(0, min(ticks, remaining))
    work = thaw(state, ruleset)
    index = OrderIndex(orders)
    events: list[Event] = []
    states: list[MatchState] = []
    base = seed_bytes(seed)
    for _ in range(count):
        dice = _tick_dice(base, work.round, work.tick + 1)
        round_before = work.round
        run_tick(work, index, ruleset, dice, events, forcing)
        states.append(freeze(work))
        if work.status == "ended" or work.round != round_before:
            break
    final = states[-1] if states else state
    return RoundResult(final, tuple(events), tuple(states))


def resolve_tick(
    state: MatchState,
    orders: RoundOrders,
    ruleset: Ruleset,
    seed: str | int | bytes = 0,
    *,
    dice: Dice | None = None,
    forcing: Forcing | None = None,
) -> RoundResult:
    """Resolve the single tick ``state.tick + 1``; ``dice`` replaces the
    seeded stream (tests force rolls through it), ``forcing`` decides named
    draws."""
    if state.ended or state.tick >= ruleset.ticks_per_round:
        return RoundResult(state, (), ())
    work = thaw(state, ruleset)
    events: list[Event] = []
    if dice is None:
        dice = _tick_dice(seed_bytes(seed), state.round, state.tick + 1)
    run_tick(work, OrderIndex(orders), ruleset, dice, events, forcing)
    final = freeze(work)
    return RoundResult(final, tuple(events), (final,))
