"""One tick: the ruleset's steps in order (classic: §9, steps 0–7)."""

from __future__ import annotations

from ..dice import Dice
from ..events import Event
from ..ruleset import Ruleset
from .context import Forcing, OrderIndex, Tick
from .pipeline import pipeline_of
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
    for step in pipeline_of(rules):
        step(t)
