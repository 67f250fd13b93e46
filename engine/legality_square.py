"""Legality at save time on the second edition's square field (seed 001).

The same contract as :func:`engine.legality.check_orders` (the problems of
:mod:`engine.problems`, each with the order at fault): a player's ticks are
walked from where his own earlier orders take him; a pass goes along one of
the eight lines, or at a dragon's head from the next cell (a shot); an
unenchanted throw flies at most ``throw_max_distance``; a dragon moves
forward or turns (a turn under way goes on by itself), does one action a
tick («только одно»), breathes a jet at most once in three ticks and a wall
once in two rounds, and nothing during the deep breath or once
extinguished.
"""

from __future__ import annotations

from typing import Any

from .field import SquareField
from .geometry import Side
from .legality import penalty_problems
from .orders import SQUARE_FIRE_KINDS, Catch, DragonOrder, Pass, PlayerOrder, RoundOrders, Steal
from .problems import Code, Problem
from .ruleset import Ruleset
from .state import MatchState, other_side

__all__ = ["square_problems"]


def square_problems(
    state: MatchState,
    orders: RoundOrders,
    rules: Ruleset,
    side: Side | None,
    problem: Any,
) -> list[Problem]:
    field = rules.field
    assert isinstance(field, SquareField)
    extra: dict[str, Any] = rules.extra or {}
    out: list[Problem] = []
    seen: set[tuple[str, int, int]] = set()
    walk: dict[tuple[Side, int], tuple[int, int]] = {}
    for o in sorted(orders.players, key=lambda o: (o.tick, o.side, o.number)):
        if side is not None and o.side != side:
            out.append(problem(Code.OTHER_TEAM, o, o.tick, number=o.number))
            continue
        if not state.tick < o.tick <= rules.ticks_per_round:
            code = Code.TICK_PAST if 1 <= o.tick <= state.tick else Code.TICK_RANGE
            out.append(problem(code, o, o.tick, tick=o.tick, ticks=rules.ticks_per_round))
            continue
        key = (o.side, o.number, o.tick)
        if key in seen:
            out.append(problem(Code.DUPLICATE, o, o.tick, tick=o.tick))
            continue
        seen.add(key)
        p = state.find_player(o.side, o.number)
        if p is None:
            out.append(problem(Code.UNKNOWN_PLAYER, o, o.tick, number=o.number))
            continue
        back = p.mark("return_tick")
        if p.status == "hospital" and p.return_round == state.round and back is not None:
            if o.tick < back:
                out.append(
                    problem(
                        Code.LAUNCH_TICK,
                        o,
                        o.tick,
                        number=o.number,
                        tick=o.tick,
                        return_round=p.return_round,
                        return_tick=back,
                    )
                )
                continue
            start = (p.mark("return_cell") or 1, p.mark("return_height") or 1)
        elif p.status != "active" or p.cell is None or p.height is None:
            out.append(problem(Code.NOT_ACTIVE, o, o.tick, number=o.number, status=p.status))
            continue
        else:
            start = (p.cell, p.height)
        cell, height = walk.get((o.side, o.number), start)
        if not field.is_cell(o.cell):
            out.append(problem(Code.CELL_INVALID, o, o.tick, cell=o.cell, max=field.cell_count))
            continue
        if o.height not in rules.heights:
            out.append(
                problem(
                    Code.HEIGHT_INVALID,
                    o,
                    o.tick,
                    height=o.height,
                    min=rules.min_height,
                    max=rules.max_height,
                )
            )
            continue
        dist = field.distance(cell, o.cell)
        if dist > rules.player_speed:
            out.append(
                problem(
                    Code.TOO_FAR,
                    o,
                    o.tick,
                    number=o.number,
                    from_cell=cell,
                    cell=o.cell,
                    distance=dist,
                    max=rules.player_speed,
                )
            )
            continue
        if abs(o.height - height) > rules.player_height_step:
            out.append(
                problem(
                    Code.HEIGHT_STEP,
                    o,
                    o.tick,
                    number=o.number,
                    from_height=height,
                    height=o.height,
                    max=rules.player_height_step,
                )
            )
            continue
        walk[(o.side, o.number)] = (o.cell, o.height)
        _action(state, rules, field, extra, o, out, problem)
    _dragons(state, orders, rules, side, out, problem)
    classic_penalties = extra.get("penalties", "none") == "classic"  # version 1: "none"
    penalty_problems(state, orders, rules, side, out, problem, checked=classic_penalties)
    return out


def _action(
    state: MatchState,
    rules: Ruleset,
    field: SquareField,
    extra: dict[str, Any],
    o: PlayerOrder,
    out: list[Problem],
    problem: Any,
) -> None:
    a = o.action
    if isinstance(a, Pass):
        if a.ball not in rules.balls:
            out.append(problem(Code.BALL_UNKNOWN, o, o.tick, ball=a.ball))
            return
        ball = state.ball(a.ball)
        if ball.status in ("swallowed", "burnt"):
            out.append(problem(Code.BALL_OUT_OF_PLAY, o, o.tick, ball=a.ball, status=ball.status))
            return
        if a.spell is not None and rules.counter_for(a.spell) is None:
            out.append(problem(Code.SPELL_UNKNOWN, o, o.tick, spell=a.spell))
            return
        at_head = any(d.head == a.cell for d in state.dragons)
        if at_head and field.distance(o.cell, a.cell) == 1:
            return  # a shot at the head
        if not field.is_cell(a.cell):
            out.append(problem(Code.CELL_INVALID, o, o.tick, cell=a.cell, max=field.cell_count))
            return
        if field.line_direction(o.cell, a.cell) is None:
            out.append(problem(Code.PASS_NOT_A_LINE, o, o.tick, from_cell=o.cell, cell=a.cell))
            return
        limit = int(extra.get("throw_max_distance", rules.pass_max_distance))
        dist = field.distance(o.cell, a.cell)
        if a.spell is None and dist > limit:
            out.append(
                problem(
                    Code.PASS_RANGE,
                    o,
                    o.tick,
                    ball=a.ball,
                    from_cell=o.cell,
                    cell=a.cell,
                    distance=dist,
                    min=1,
                    max=limit,
                )
            )
    elif isinstance(a, Catch):
        if a.counter is not None and a.counter not in rules.counter_names:
            out.append(problem(Code.COUNTER_UNKNOWN, o, o.tick, counter=a.counter))
        if a.ball is not None and a.ball not in rules.balls:
            out.append(problem(Code.BALL_UNKNOWN, o, o.tick, ball=a.ball))
    elif isinstance(a, Steal):
        target = state.find_player(other_side(o.side), a.target)
        if state.find_player(o.side, a.target) is not None and target is None:
            out.append(problem(Code.STEAL_TEAMMATE, o, o.tick, target=a.target))
        elif target is None:
            out.append(problem(Code.STEAL_UNKNOWN, o, o.tick, target=a.target))
        elif target.status != "active":
            out.append(
                problem(Code.STEAL_TARGET_OUT, o, o.tick, target=a.target, status=target.status)
            )


def _dragons(
    state: MatchState,
    orders: RoundOrders,
    rules: Ruleset,
    side: Side | None,
    out: list[Problem],
    problem: Any,
) -> None:
    extra: dict[str, Any] = rules.extra or {}
    every = int(extra.get("jet_every_ticks", 3))
    seen: set[tuple[str, int]] = set()
    jets: dict[str, int] = {}
    walls: dict[str, bool] = {}
    for o in sorted(orders.dragons, key=lambda o: (o.side, o.tick)):
        if side is not None and o.side != side:
            out.append(problem(Code.OTHER_TEAM, o, o.tick, number=None))
            continue
        if not state.tick < o.tick <= rules.ticks_per_round:
            out.append(
                problem(Code.TICK_RANGE, o, o.tick, tick=o.tick, ticks=rules.ticks_per_round)
            )
            continue
        if (o.side, o.tick) in seen:
            out.append(problem(Code.DUPLICATE, o, o.tick, tick=o.tick))
            continue
        seen.add((o.side, o.tick))
        d = state.dragon(o.side)
        if abs(o.height_step) > rules.dragon_height_step:
            out.append(
                problem(
                    Code.DRAGON_HEIGHT_STEP,
                    o,
                    o.tick,
                    step=o.height_step,
                    max=rules.dragon_height_step,
                )
            )
        _fire(state, rules, d.side, o, every, jets, walls, out, problem)


def _fire(
    state: MatchState,
    rules: Ruleset,
    side: Side,
    o: DragonOrder,
    every: int,
    jets: dict[str, int],
    walls: dict[str, bool],
    out: list[Problem],
    problem: Any,
) -> None:
    if o.fire is None:
        return
    d = state.dragon(side)
    if o.strike is not None:  # 001: «только одно» action a tick
        out.append(problem(Code.DRAGON_ONE_ACTION, o, o.tick, side=side))
        return
    if o.fire not in SQUARE_FIRE_KINDS:  # a classic flame
        kinds = ", ".join(SQUARE_FIRE_KINDS)
        out.append(problem(Code.FIRE_KIND, o, o.tick, fire=o.fire, kinds=kinds))
        return
    if d.extinguished:
        out.append(problem(Code.FIRE_EXTINGUISHED, o, o.tick, side=side))
        return
    now = (state.round - 1) * rules.ticks_per_round + o.tick
    breath = (d.mark("breath_round") or 0) >= state.round or walls.get(side, False)
    if breath:
        out.append(problem(Code.FIRE_BREATH, o, o.tick, side=side))
        return
    if o.fire == "jet":
        ready = max(d.mark("jet_ready") or 0, jets.get(side, 0))
        if ready > now:
            out.append(problem(Code.FIRE_BUDGET, o, o.tick, fire=o.fire, left=0, ordered=1))
            return
        jets[side] = now + every
    else:
        if state.round - (d.mark("wall_round") or -10) < 2:
            out.append(problem(Code.FIRE_BUDGET, o, o.tick, fire=o.fire, left=0, ordered=1))
            return
        walls[side] = True
