"""The random policy: any legal flight, any legal action, now and then fire."""

from __future__ import annotations

from ..dice import Dice
from ..geometry import Side
from ..orders import Action, Catch, DragonMove, FireKind, Pass, RoundOrders, Steal
from ..ruleset import Ruleset
from ..state import MatchState
from .common import PlayerPlan, Team, cells_within, dragon_moves, flights

__all__ = ["random_orders"]


def random_orders(state: MatchState, rules: Ruleset, side: Side, dice: Dice) -> RoundOrders:
    team = Team(state, rules, side, dice)
    if state.ended:
        return RoundOrders()
    for tick in team.ticks:
        for plan in team.plans:
            _player(team, plan, tick)
        _dragon(team, tick)
    return team.result()


def _player(team: Team, plan: PlayerPlan, tick: int) -> None:
    rules = team.rules
    dice = team.dice
    heights = team.heights
    if plan.launching_at is not None:
        if tick != plan.launching_at:
            return
        plan.launching_at = None
        cell = team.pick(rules.reentry(plan.player.side))
        height = team.pick(heights)
        action: Action | None = Catch() if team.chance(0.5) else None
        team.order(plan, tick, cell, height, action, team.phrase("launch"))
        return
    if plan.cell is None or plan.height is None:
        return
    cell, height = team.pick(flights(plan.cell, plan.height, heights, rules.player_height_step))
    r = dice.uniform()
    action = None
    key = "up" if height > plan.height else "down" if height < plan.height else "fly"
    if plan.held and r < 0.35:
        ball = team.pick(plan.held)
        target = team.pick(cells_within(cell, rules.pass_min_distance, rules.pass_range(ball)))
        spell = None
        if team.enchant_left > 0 and team.chance(0.15):
            spell = team.pick(rules.spell_names)
            team.enchant_left -= 1
        action = Pass(ball, target, team.pick(heights), spell)
        key = "pass"
    elif r < 0.75 and team.can_take_more(plan):
        counter = team.pick(rules.counter_names) if team.chance(0.2) else None
        action = Catch(None, counter)
        key = "catch"
    elif r < 0.9:
        targets = team.steal_targets(plan, cell, tick)
        if targets:
            action = Steal(team.pick(targets).number)
            key = "steal"
    team.order(plan, tick, cell, height, action, team.phrase(key))


def _dragon(team: Team, tick: int) -> None:
    d = team.dragon
    dice = team.dice
    move: DragonMove = "stay"
    head, facing, h_step = d.head, d.facing, 0
    if not d.paralysed:
        move, head, facing = team.pick(dragon_moves(team.side, d.head, d.facing))
        h_step = team.pick(team.dragon_height_steps())
    fire: FireKind | None = None
    if d.can_fire:
        r = dice.uniform()
        if r < 0.08 and d.short_left > 0:
            fire = "short"
        elif 0.08 <= r < 0.11 and d.volleys_left > 0:
            fire = "volley"
    team.dragon_order(tick, move, head, facing, h_step, fire)
