"""001 steps 1 and 2: the players' and dragons' flights, then the balls'."""

from __future__ import annotations

from ...events import Kind
from ...geometry import Direction
from ...square_dragon import dragon_cells, turn_cells
from ..context import Tick
from ..work import WBall, WDragon
from .base import (
    active,
    bounce,
    cells_of,
    dragon_order,
    field_of,
    in_reach,
    player_order,
    var,
    var_or,
)
from .outcomes import fall, release

__all__ = ["sq_balls_fly", "sq_dragons_move", "sq_players_fly"]


def sq_players_fly(t: Tick) -> None:
    f = field_of(t)
    heights = t.rules.heights
    for p in active(t):
        o = player_order(t, p)
        p.order = o
        assert p.cell is not None and p.height is not None
        reason = None
        if o is None:
            reason = "none"
        elif not f.is_cell(o.cell) or f.distance(p.cell, o.cell) > t.rules.player_speed:
            reason = "too_far"
        elif o.height not in heights or abs(o.height - p.height) > t.rules.player_height_step:
            reason = "height_step"
        if reason is not None:
            # classic §4: without a (possible) order he stays and drops his balls
            t.emit(1, Kind.NO_ORDER, {"side": p.side, "number": p.number, "reason": reason})
            for b in tuple(p.balls):
                release(t, 1, b, p, "no_order")
            p.order = None
            new_cell, new_height = p.cell, p.height
        else:
            assert o is not None
            new_cell, new_height = o.cell, o.height
        t.emit(
            1,
            Kind.PLAYER_MOVE,
            {
                "side": p.side,
                "number": p.number,
                "from_cell": p.cell,
                "from_height": p.height,
                "cell": new_cell,
                "height": new_height,
            },
        )
        p.cell, p.height = new_cell, new_height


def sq_dragons_move(t: Tick) -> None:
    """001: one cell a tick forward, or a 90° turn over three ticks with the
    tail in place; the cells the turning head and body sweep knock players
    down («Отмеченные точки являются зоной поражения»)."""
    f = field_of(t)
    for d in t.w.dragons:
        o = dragon_order(t, d)
        ordered = o.move if o else "stay"
        before = set(cells_of(d))
        old_head = d.head
        refused = None
        turn = d.marks.get("turn", 0)
        move = ordered
        if d.marks.get("asleep"):
            move, refused = "stay", ("asleep" if ordered != "stay" else None)
        elif turn:
            step = d.marks["turn_step"] + 1
            cells = turn_cells(f, d.tail, d.facing, turn, step)
            assert cells is not None  # checked when the turn began
            if step >= int(var(t, "turn_ticks")):
                d.facing = f.turned(d.facing, turn)
                del d.marks["turn"], d.marks["turn_step"]
            else:
                d.marks["turn_step"] = step
            d.head, d.body, d.tail = cells
            move = "left" if turn < 0 else "right"
            if ordered not in ("stay", move):
                refused = "turning"
        elif ordered == "forward":
            head = f.step(d.head, d.facing)
            cells2 = dragon_cells(f, head, d.facing) if head else None
            if cells2 is None:
                move, refused = "stay", "dragon_off_field"
            else:
                d.head, d.body, d.tail = cells2
        elif ordered in ("left", "right"):
            q = -1 if ordered == "left" else 1
            first = turn_cells(f, d.tail, d.facing, q, 1)
            last = turn_cells(f, d.tail, d.facing, q, 3)
            if first is None or last is None:
                move, refused = "stay", "dragon_off_field"
            else:
                d.marks["turn"], d.marks["turn_step"] = q, 1
                d.head, d.body, d.tail = first
        step_h = o.height_step if o else 0
        if step_h and not d.marks.get("asleep"):
            new_h = d.height + step_h
            if t.rules.min_height <= new_h <= t.rules.max_height:
                d.height = new_h
        t.emit(
            1,
            Kind.DRAGON_MOVE,
            {
                "side": d.side,
                "move": move,
                "height_step": step_h,
                "head": d.head,
                "facing": d.facing.name,
                "height": d.height,
                "cells": list(cells_of(d)),
                "ordered": ordered,
                "refused": refused,
            },
        )
        if move in ("left", "right"):
            _turn_zone(t, d, before, old_head)


def _turn_zone(t: Tick, d: WDragon, before: set[int], old_head: int) -> None:
    f = field_of(t)
    now = set(cells_of(d))
    zone = before - now
    (r1, c1), (r2, c2) = f.coord(old_head), f.coord(d.head)
    if r1 != r2 and c1 != c2:  # the head cut a corner: both corner cells swept
        for corner in (f.cell_at(r1, c2), f.cell_at(r2, c1)):
            if corner is not None and corner not in now:
                zone.add(corner)
    cells = sorted(zone)
    t.emit(1, Kind.TURN_ZONE, {"side": d.side, "cells": cells})
    for p in active(t):
        if p.cell in zone and in_reach(t, d, p.height):
            fall(t, 1, p, "dragon_turn")


def sq_balls_fly(t: Tick) -> None:
    f = field_of(t)
    east_named = var_or(t, "ball_move_east", "none") == "named"
    for b in t.w.balls:
        if b.status != "free" or b.cell is None or b.thrown_in:
            continue  # a penalty's ball sits at the centre its first tick (classic §10)
        start = b.cell
        if b.pass_to is not None:
            # 001: an unenchanted throw keeps the course it was given for one tick
            b.cell, b.height = b.pass_to
            t.emit(
                2,
                Kind.PASS_LANDS,
                {
                    "ball": b.name,
                    "side": b.passer.side if b.passer else None,
                    "number": b.passer.number if b.passer else None,
                    "from_cell": start,
                    "cell": b.cell,
                    "height": b.height,
                },
            )
            b.pass_to = None
            b.passer = None
            b.catchable = True
            continue
        speed = 1 if b.spell is not None else t.rules.balls[b.name].speed
        for _ in range(speed):
            if b.direction is None:
                break
            nxt = f.step(b.cell, b.direction)
            if nxt is None:
                # the dome: an enchanted pass loses its spell (interpretation)
                b.spell = b.enchanted_by = None
                b.passer = None
                nxt = f.step(b.cell, bounce(t, 2, b, "dome"))
                if nxt is None:
                    break
            b.cell = nxt
        t.emit(
            2,
            Kind.BALL_MOVE,
            {
                "ball": b.name,
                "from_cell": start,
                "cell": b.cell,
                "height": b.height,
                "direction": _course(b, east_named),
                "visible": True,
            },
        )


def _course(b: WBall, east_named: bool) -> str | None:
    """The course a ``ball_move`` event records.  Versions 1-2 recorded none
    for east (``Direction.E`` is 0, and was taken for no course), and their
    rounds' digests keep it so (``variant.ball_move_east``)."""
    if b.direction is None or (b.direction == Direction.E and not east_named):
        return None
    return b.direction.name
