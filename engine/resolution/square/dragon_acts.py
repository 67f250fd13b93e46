"""001 steps 3, 4 and 10: dragons meet players and fight, strike and burn;
balls on a head."""

from __future__ import annotations

from ...events import Kind
from ...field import SquareField
from ...orders import DragonOrder
from ...square_dragon import dragon_cells
from ..context import Tick
from ..work import WDragon
from .base import (
    abs_tick,
    active,
    cells_of,
    dragon_order,
    field_of,
    frame,
    in_reach,
    var,
    var_or,
)
from .outcomes import away, burn, fall, goal, swallow, throw_aside

__all__ = ["sq_dragon_actions", "sq_dragons_meet", "sq_head_balls"]


def sq_dragons_meet(t: Tick) -> None:
    for d in t.w.dragons:
        mine = set(cells_of(d))
        for p in active(t):
            if p.cell in mine and p.height == d.height:
                swallow(t, 3, d, p)
    _fight(t)


def _fight(t: Tick) -> None:
    """001: dragons within one cell fight; the cells next to them throw
    players 3 cells away, a player beside both falls; the dragons go back to
    their starting places, the players stay."""
    f = field_of(t)
    left, right = t.w.dragons
    reach = int(var(t, "fight_distance"))
    if min(f.distance(a, b) for a in cells_of(left) for b in cells_of(right)) > reach:
        return
    t.emit(3, Kind.DRAGON_FIGHT, {"cells": sorted(set(cells_of(left)) | set(cells_of(right)))})
    near: dict[str, set[int]] = {}
    for d in (left, right):
        own = set(cells_of(d))
        near[d.side] = {n for c in own for n in f.neighbours(c)} - own
    for p in active(t):
        hit = [d for d in (left, right) if p.cell in near[d.side] and in_reach(t, d, p.height)]
        if len(hit) == 2:
            fall(t, 3, p, "dragon_fight")
        elif hit:
            assert p.cell is not None
            throw_aside(t, 3, p, away(f, hit[0], p.cell), int(var(t, "fight_throw")), "fight")
    for d in (left, right):
        start = t.rules.dragon.start(d.side)
        cells = dragon_cells(f, start.head, start.facing)
        assert cells is not None
        d.head, d.body, d.tail = cells
        d.facing = start.facing
        d.height = t.rules.dragon.start_height
        d.marks.pop("turn", None)
        d.marks.pop("turn_step", None)
    t.emit(3, Kind.DRAGONS_RESET, {})
    if var_or(t, "put_back_onto", "next_tick") == "swallowed":
        _put_back_onto(t)


def _put_back_onto(t: Tick) -> None:
    """001: «Драконы отводятся в положение как в начале игры. Игроки остаются
    на своих местах» and «Дракон проглатывает игрока, который оказался на
    одной из клеток дракона»: one standing (or just thrown) on a cell a
    dragon is put back onto, at its height, is swallowed there and then, with
    his balls (version 4, ``variant.put_back_onto``); versions 1-3 left him
    there, active, to the next tick's step 3."""
    for d in t.w.dragons:
        mine = set(cells_of(d))
        for p in active(t):
            if p.cell in mine and p.height == d.height:
                swallow(t, 3, d, p)


def sq_dragon_actions(t: Tick) -> None:
    f = field_of(t)
    # The dazing zones of this tick: a black ball swallowed during this step
    # (with a player thrown onto the other dragon) acts from the next tick,
    # whichever dragon's turn comes first.
    dazed = {d.side for d in t.w.dragons if d.marks.get("daze_round") == t.round}
    for d in t.w.dragons:
        o = dragon_order(t, d)
        if o is not None and not d.marks.get("asleep"):
            if o.strike is not None:
                _strike(t, d, o.strike)
                if o.fire is not None:
                    # 001: «только одно» action a tick
                    t.emit(
                        4,
                        Kind.FIRE_REFUSED,
                        {"side": d.side, "fire": o.fire, "reason": "one_action"},
                    )
            elif o.fire is not None:
                _fire(t, d, o)
        if d.side in dazed:
            _daze_zone(t, f, d)


def _strike(t: Tick, d: WDragon, kind: str) -> None:
    f = field_of(t)
    origin, offsets = (
        (d.tail, var(t, "tail_zone")) if kind == "tail" else (d.body, var(t, "wings_zone"))
    )
    zone = {c for a, r in offsets if (c := frame(f, origin, d.facing, a, r)) is not None}
    zone -= set(cells_of(d))
    t.emit(4, Kind.STRIKE, {"side": d.side, "strike": kind, "cells": sorted(zone)})
    for p in active(t):
        if p.cell in zone and in_reach(t, d, p.height):
            throw_aside(t, 4, p, away(f, d, p.cell), int(var(t, "strike_throw")), kind)


def _fire(t: Tick, d: WDragon, o: DragonOrder) -> None:
    f = field_of(t)
    now = abs_tick(t)
    reason = None
    if d.extinguished:
        reason = "extinguished"
    elif d.marks.get("breath_round", 0) >= t.round:
        reason = "breath"
    elif (o.fire == "jet" and d.marks.get("jet_ready", 0) > now) or (
        o.fire == "wall" and t.round - d.marks.get("wall_round", -10) < 2
    ):
        reason = "budget"
    elif o.fire not in ("jet", "wall"):
        reason = "unknown"
    if reason is not None:
        t.emit(4, Kind.FIRE_REFUSED, {"side": d.side, "fire": o.fire, "reason": reason})
        return
    if o.fire == "jet":
        direction = o.fire_direction or d.facing
        target = f.step(d.head, direction)
        zone = {target} - set(cells_of(d)) if target is not None else set()
        d.marks["jet_ready"] = now + int(var(t, "jet_every_ticks"))
    else:
        zone = {
            c for a, r in var(t, "wall_zone") if (c := frame(f, d.head, d.facing, a, r)) is not None
        }
        d.marks["wall_round"] = t.round
        # 001: the deep breath: no flame to the end of this round and the next
        d.marks["breath_round"] = t.round + int(var(t, "breath_rounds"))
    cells = sorted(c for c in zone if c is not None)
    t.emit(
        4,
        Kind.FIRE,
        {
            "side": d.side,
            "fire": o.fire,
            "cells": cells,
            "random": False,
            "short_left": 0,
            "volleys_left": 0,
        },
    )
    for p in active(t):
        if p.cell in zone and in_reach(t, d, p.height):
            fall(t, 4, p, "fire", final=True)
    for b in t.w.balls:
        if b.status == "free" and b.cell in zone and in_reach(t, d, b.height):
            burn(t, 4, b, d)


def _daze_zone(t: Tick, f: SquareField, d: WDragon) -> None:
    """001, the black ball: to the end of the round the cells round the
    dragon throw players 3 cells (at the tail and wings) or swallow them (at
    the head), at the dragon's own height."""
    own = set(cells_of(d))
    head_near = set(f.neighbours(d.head)) - own
    near = {n for c in own for n in f.neighbours(c)} - own
    for p in active(t):
        if p.cell not in near or p.height != d.height:
            continue
        if p.cell in head_near:
            swallow(t, 4, d, p)
        else:
            throw_aside(t, 4, p, away(f, d, p.cell), int(var(t, "strike_throw")), "daze")


def sq_head_balls(t: Tick) -> None:
    """001: a ball in free flight on the head's cell is swallowed with 50%
    (d6 > 3) — at the dragon's height (interpretation)."""
    for b in t.w.balls:
        if b.status != "free" or b.spell is not None or b.pass_to is not None:
            continue
        for d in t.w.dragons:
            if b.cell == d.head and b.height == d.height:
                data = {
                    "ball": b.name,
                    "dragon": d.side,
                    "cell": b.cell,
                    "height": b.height,
                    "where": "head",
                }
                if t.chance(10, Kind.BALL_SWALLOW_ROLL, data, _head_ball_chance(t, d)):
                    goal(t, 10, d, b)
                break


def _head_ball_chance(t: Tick, d: WDragon) -> float:
    """001: «Если забит перцовый мяч, то … дракон широко открывает пасть.
    Вероятность забития гола становится 100%»: the gaping mouth swallows a
    free ball on the head for certain, as it takes every shot (version 4,
    ``variant.gape_head_balls``); versions 1-3 kept the die of «самый обидный
    гол» for it."""
    if d.marks.get("gape") and var_or(t, "gape_head_balls", "die") == "certain":
        return float(var(t, "gape_goal_probability"))
    return float(var(t, "free_ball_swallow"))
