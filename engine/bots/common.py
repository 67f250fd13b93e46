"""What both built-in policies share: a team's view of the position, legal
moves, and a planner that keeps each player's orders legal tick by tick
(the same bookkeeping :mod:`engine.legality` does)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TypeVar

from ..dice import Dice
from ..geometry import Direction, Side
from ..orders import (
    Action,
    Catch,
    DragonMove,
    DragonOrder,
    FireKind,
    Pass,
    PlayerOrder,
    RoundOrders,
    Steal,
)
from ..resolution.geo import DIST, NEXT, dragon_after, dragon_cells_problem
from ..ruleset import Ruleset
from ..state import DragonState, MatchState, PlayerState, after_pending, effect_names, other_side

__all__ = [
    "DragonPlan",
    "PlayerPlan",
    "Team",
    "cells_within",
    "dragon_body",
    "dragon_moves",
    "flight_cells",
    "flights",
]

T = TypeVar("T")

PHRASES: dict[str, tuple[str, ...]] = {
    "up": ("набирает высоту", "взмывает вверх", "свечой уходит ввысь"),
    "down": ("уходит в пике", "ныряет вниз", "снижается над полем"),
    "stay": ("зависает на месте", "выжидает", "осматривается"),
    "fly": ("летит вперёд", "мчится над полем", "закладывает вираж"),
    "catch": ("тянется за мячом", "ловит мяч", "бросается за мячом"),
    "steal": ("пытается отнять мяч", "вырывает мяч у соперника", "атакует владеющего мячом"),
    "pass": ("отдаёт пас", "пасует партнёру", "перебрасывает мяч"),
    "shot": ("бьёт прямо в пасть дракону", "швыряет мяч в дракона", "кидает мяч к голове дракона"),
    "launch": ("возвращается в игру", "снова в воздухе", "вылетает из больничного крыла"),
}


@cache
def flight_cells(cell: int) -> tuple[int, ...]:
    """The cells a player can fly to in a tick: his own and its neighbours."""
    return (cell,) + tuple(c for c in NEXT[cell] if c)


@cache
def _heights_from(heights: tuple[int, ...], step: int, height: int) -> tuple[int, ...]:
    return tuple(h for h in heights if abs(h - height) <= step)


@cache
def flights(
    cell: int, height: int, heights: tuple[int, ...], step: int
) -> tuple[tuple[int, int], ...]:
    """Every (cell, height) a player at (cell, height) can fly to in a tick."""
    return tuple((c, h) for c in flight_cells(cell) for h in heights if abs(h - height) <= step)


@cache
def cells_within(cell: int, low: int, high: int) -> tuple[int, ...]:
    """Cells at distance low..high from ``cell``."""
    row = DIST[cell]
    return tuple(c for c in range(1, len(row)) if low <= row[c] <= high)


MOVES: tuple[DragonMove, ...] = ("forward", "left", "right")


@cache
def dragon_moves(
    side: Side, head: int, facing: Direction
) -> tuple[tuple[DragonMove, int, Direction], ...]:
    """The legal (move, head, facing) of a dragon, ``stay`` first."""
    out: list[tuple[DragonMove, int, Direction]] = [("stay", head, facing)]
    for move in MOVES:
        after = dragon_after(head, facing, move)
        if after is not None and dragon_cells_problem(side, (after[0], after[2], after[3])) is None:
            out.append((move, after[0], after[1]))
    return tuple(out)


@cache
def dragon_body(head: int, facing: Direction) -> frozenset[int]:
    """The cells of a dragon whose head is at ``head``: head, body, tail."""
    back = facing.opposite
    body = NEXT[head][back]
    tail = NEXT[body][back] if body else 0
    return frozenset(c for c in (head, body, tail) if c)


@dataclass(slots=True)
class PlayerPlan:
    """One player's orders being built, with what legality tracks."""

    player: PlayerState
    cell: int | None
    height: int | None
    held: list[str]
    may_get: bool = False
    launching_at: int | None = None  # the tick he launches from the hospital
    # (tick, cell, height) where a team-mate's pass lands for him to catch.
    receive: tuple[int, int, int] | None = None
    orders: dict[int, PlayerOrder] = field(default_factory=dict)


@dataclass(slots=True)
class DragonPlan:
    dragon: DragonState
    head: int
    facing: Direction
    height: int
    effect: str | None
    paralysed: bool
    extinguished: bool
    short_left: int
    volleys_left: int
    orders: list[DragonOrder] = field(default_factory=list)
    # The cells an open mouth would swallow from had it rested instead of the
    # move planned (read by the other side, it might have): a hazard.
    might_rest: frozenset[int] = frozenset()

    @property
    def can_fire(self) -> bool:
        return not self.extinguished and "daze" not in effect_names(self.effect)


class Team:
    """One side's view of the position while a policy plans its round."""

    def __init__(self, state: MatchState, rules: Ruleset, side: Side, dice: Dice) -> None:
        self.state = state
        self.rules = rules
        self.side = side
        self.foe: Side = other_side(side)
        self.dice = dice
        self.heights = rules.heights
        self.first_tick = state.tick + 1
        self.ticks = range(self.first_tick, rules.ticks_per_round + 1)
        self.enchant_left = state.team(side).enchanted_left
        self._quiet = 1 + int(dice.uniform() * 4)
        self.plans: list[PlayerPlan] = []
        for p in state.team_players(side):
            if p.status == "active" and p.cell is not None:
                self.plans.append(PlayerPlan(p, p.cell, p.height, list(p.balls)))
            elif p.status == "hospital":
                back = p.return_round if p.return_round is not None else state.round
                tick = rules.hospital_return_tick
                if back <= state.round and tick in self.ticks:
                    self.plans.append(PlayerPlan(p, None, None, [], launching_at=tick))
        self.dragon = self._dragon_plan(state.dragon(side))
        self.opponents = [
            p for p in state.team_players(self.foe) if p.status == "active" and p.cell is not None
        ]

    def _dragon_plan(self, d: DragonState) -> DragonPlan:
        effect, paralysed, extinguished, height = d.effect, d.paralysed, d.extinguished, d.height
        effect, started = after_pending(effect, d.pending_effects)
        paralysed = paralysed or "paralyse" in started
        extinguished = extinguished or "extinguish" in started
        if paralysed:
            height = self.rules.dragon.paralysed_height
        return DragonPlan(
            d,
            d.head,
            d.facing,
            height,
            effect,
            paralysed,
            extinguished,
            d.short_left,
            d.volleys_left,
        )

    def result(self) -> RoundOrders:
        players = tuple(o for plan in self.plans for o in plan.orders.values())
        return RoundOrders(
            players=tuple(sorted(players, key=lambda o: (o.tick, o.number))),
            dragons=tuple(self.dragon.orders),
        )

    # -- helpers -----------------------------------------------------------
    def chance(self, p: float) -> bool:
        return self.dice.uniform() < p

    def pick(self, items: Sequence[T]) -> T:
        """A fair pick, as Dice.pick draws it (inlined: policies draw a lot)."""
        n = len(items)
        return items[min(int(self.dice.uniform() * n), n - 1)]

    def phrase(self, key: str) -> str:
        """A short Russian description now and then: every 2nd to 5th order."""
        self._quiet -= 1
        if self._quiet > 0:
            return ""
        self._quiet = 2 + int(self.dice.uniform() * 4)
        return self.pick(PHRASES[key])

    def heights_from(self, height: int) -> tuple[int, ...]:
        return _heights_from(self.heights, self.rules.player_height_step, height)

    def order(
        self,
        plan: PlayerPlan,
        tick: int,
        cell: int,
        height: int,
        action: Action | None,
        description: str = "",
    ) -> None:
        """Record an order and update the bookkeeping as legality does."""
        p = plan.player
        plan.orders[tick] = PlayerOrder(p.side, p.number, tick, cell, height, action, description)
        plan.cell, plan.height = cell, height
        if action is None:
            return
        if isinstance(action, Catch | Steal):
            plan.may_get = True
        elif isinstance(action, Pass) and action.ball in plan.held:
            plan.held.remove(action.ball)

    def can_take_more(self, plan: PlayerPlan) -> bool:
        return len(plan.held) < self.rules.catch.max_balls_held

    def steal_targets(self, plan: PlayerPlan, cell: int, tick: int) -> list[PlayerState]:
        """Opponents holding a ball who may be in reach of ``cell`` at ``tick``."""
        if not self.can_take_more(plan):
            return []
        slack = 1 + (tick - self.state.tick)
        row = DIST[cell]
        return [o for o in self.opponents if o.balls and o.cell and row[o.cell] <= slack]

    def fire_budget(self, kind: FireKind) -> int:
        d = self.dragon
        return d.short_left if kind == "short" else d.volleys_left

    def dragon_order(
        self,
        tick: int,
        move: DragonMove,
        head: int,
        facing: Direction,
        h_step: int,
        fire: FireKind | None,
    ) -> None:
        d = self.dragon
        d.orders.append(DragonOrder(self.side, tick, move, h_step, fire))
        d.head, d.facing = head, facing
        d.height += h_step
        if fire == "short":
            d.short_left -= 1
        elif fire == "volley":
            d.volleys_left -= 1

    def dragon_height_steps(self) -> list[int]:
        d = self.dragon
        r = self.rules
        if d.paralysed:
            return [0]
        return [s for s in (-1, 0, 1) if r.min_height <= d.height + s <= r.max_height]
