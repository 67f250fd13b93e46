"""What the other team's dragon will do this round, as a player would guess it.

Orders are simultaneous, so a captain cannot know the other dragon's orders;
he can read the position as its captain reads it.  :func:`foresee` runs the
greedy dragon's own reasoning (:mod:`.greedy_dragon`) for the other side on
public facts only — the position at the start of the round, with that team's
players where they stand — and gives, tick by tick, where the head will be,
whether the mouth will be open and where the flame will burn.  A shot is
thrown when the mouth it lands in will be open; flights keep out of the
flame.  Against any other captain it is just a guess.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..dice import Dice
from ..geometry import Direction, Side
from ..resolution.geo import fire_cells
from ..ruleset import Ruleset
from ..state import MatchState, effect_names
from .common import Team
from .greedy_dragon import plan_dragon

__all__ = ["Forecast", "foresee"]


@dataclass(frozen=True, slots=True)
class Forecast:
    """The other dragon at one tick: head and facing after its move, height,
    whether its mouth is open, and the cells its flame burns (if it fires)."""

    head: int
    facing: Direction
    height: int
    mouth_open: bool
    fire: frozenset[int]
    # Where it would swallow from had it rested instead (it may: its captain
    # knows where his own players fly): keep clear, never shoot there.
    might_rest: frozenset[int] = frozenset()


def foresee(state: MatchState, rules: Ruleset, side: Side) -> dict[int, Forecast]:
    """tick → :class:`Forecast` of ``side``'s dragon for the rest of the round."""
    # Its captain's view; the dice only choose the players' descriptions.
    team = Team(state, rules, side, Dice(b"foresight"))
    d = team.dragon
    breath = state.dragon(side).open_ticks
    out: dict[int, Forecast] = {}
    last = None
    for tick in team.ticks:
        last = plan_dragon(team, tick, last, guess=True)
        order = d.orders[-1]
        fire: frozenset[int] = frozenset()
        if order.fire is not None:
            depth = (
                rules.fire.short_cells_depth
                if order.fire == "short"
                else rules.fire.volley_cells_depth
            )
            fire = frozenset(fire_cells(d.head, d.facing, depth))
        # When the mouth is open (§6, §9.1): fire, breath after fire, sneezing, or a skipped move.
        skipped = order.move == "stay" and order.height_step == 0
        opened = (
            order.fire is not None
            or breath > 0
            or "sneeze" in effect_names(d.effect)
            or (skipped and rules.dragon.stay_opens_mouth)
        )
        breath = max(breath - 1, 0)
        if order.fire is not None:
            after = (
                rules.fire.open_after_short
                if order.fire == "short"
                else rules.fire.open_after_volley
            )
            breath = max(breath, after)
        out[tick] = Forecast(d.head, d.facing, d.height, opened, fire, d.might_rest)
    return out
