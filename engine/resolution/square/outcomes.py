"""What befalls players and balls in the 001 steps: falls, throws aside,
burns, goals, swallows and catches."""

from __future__ import annotations

from typing import Any

from ...events import Kind
from ...field import SQUARE_STEP, SquareField
from ...geometry import Direction
from ..context import Tick
from ..dragons import score_goal, swallow_player
from ..work import WBall, WDragon, WPlayer
from .base import field_of, on_field, var, var_or

__all__ = [
    "away",
    "burn",
    "fall",
    "goal",
    "release",
    "swallow",
    "swallow_if_on_dragon",
    "take",
    "throw_aside",
]


def release(t: Tick, step: int, b: WBall, p: WPlayer, reason: str) -> None:
    """He lets go of ``b`` where he is: free, on a random one of the eight
    lines (001: «В свободном состоянии мячи движутся только по диагонали и
    прямым»), not to be caught this tick."""
    t.release(step, b, p, reason, lambda cell: on_field(t, cell))


def fall(t: Tick, step: int, p: WPlayer, cause: str, *, final: bool = False) -> None:
    """001: the player falls.  With the safety spell said this tick he comes
    back in the next round from the cell of his fall (the fall lasts two full
    ticks: he launches at the same tick of the next round); without it — or
    into the dome or the flame, ``final`` — he is out of the game."""
    order = p.order
    saved = not final and order is not None and order.safety
    cell, height = p.cell, p.height
    back = t.round + 1 if saved else None
    t.emit(
        step,
        Kind.FALL,
        {
            "side": p.side,
            "number": p.number,
            "cell": cell,
            "height": height,
            "cause": cause,
            "return_round": back,
            "safety": saved,
        },
    )
    for b in tuple(p.balls):
        if cause == "fire":
            burn(t, step, b, None)
        else:
            release(t, step, b, p, "fall")
    p.cell = p.height = None
    p.out_this_tick = True
    if saved and cell is not None and height is not None:
        p.status = "hospital"
        p.return_round = back
        p.marks.update(
            return_tick=(t.tick - 1 + int(var(t, "fall_ticks"))) % t.rules.ticks_per_round + 1,
            return_cell=cell,
            return_height=height,
        )
    else:
        p.status = "out"
        p.return_round = None
        t.emit(step, Kind.PLAYER_OUT, {"side": p.side, "number": p.number, "reason": cause})


def burn(t: Tick, step: int, b: WBall, d: WDragon | None) -> None:
    if b.holder is not None:
        b.holder.balls.remove(b)
        b.holder = None
    t.emit(step, Kind.BALL_BURNT, {"ball": b.name, "dragon": d.side if d else None, "cell": b.cell})
    b.status = "burnt"
    b.direction = None
    b.spell = b.enchanted_by = None
    b.pass_to = None
    b.passer = None
    b.catchable = False


def throw_aside(
    t: Tick, step: int, p: WPlayer, direction: Direction, count: int, cause: str
) -> None:
    """Thrown ``count`` cells along ``direction``; into the dome he falls and
    is out of the game (001: «Если при этом он врезается в защитный купол, то
    падает»; «При ударе о защитный купол игрок падает и выбывает из игры»);
    onto a dragon's cell he may be swallowed (:func:`swallow_if_on_dragon`)."""
    f = field_of(t)
    assert p.cell is not None
    start = p.cell
    cell: int | None = start
    for _ in range(count):
        cell = f.step(cell, direction) if cell is not None else None
    t.emit(
        step,
        Kind.THROWN,
        {
            "side": p.side,
            "number": p.number,
            "from_cell": start,
            "cell": cell,
            "direction": direction.name,
            "cause": cause,
        },
    )
    if cell is None:
        fall(t, step, p, "dome", final=True)
        return
    p.cell = cell
    if var_or(t, "knockback_way", "tick_start") == "way_in":
        # 001 «отлетает на 1 клетку назад»: a collision now sends him back
        # along his throw, not to where the throw found him (version 4)
        back: int | None = cell
        for _ in range(min(int(var(t, "knockback")), count)):
            back = f.step(back, f.opposite(direction)) if back is not None else None
        p.prev = (back, p.height)
    swallow_if_on_dragon(t, step, p)


def swallow_if_on_dragon(t: Tick, step: int, p: WPlayer) -> None:
    """001: «Дракон проглатывает игрока, который оказался на одной из клеток
    дракона»: one thrown (or knocked back) onto a dragon's cell at its height
    is swallowed in that step, as step 3 swallows (version 3,
    ``variant.thrown_onto_dragon``); versions 1-2 (``next_tick``) left him
    there, active, to the next tick's step 3."""
    if var_or(t, "thrown_onto_dragon", "next_tick") != "swallowed":
        return
    for d in t.w.dragons:
        if p.cell in (d.head, d.body, d.tail) and p.height == d.height:
            swallow(t, step, d, p)
            return


def away(f: SquareField, d: WDragon, cell: int) -> Direction:
    """001 «строго вбок от дракона»: perpendicular to the dragon, on the
    player's side of its axis; straight back for a cell on the axis behind
    the tail, straight ahead before the head (interpretation)."""
    hr, hc = f.coord(d.head)
    tr, tc = f.coord(d.tail)
    r, c = f.coord(cell)
    facing = d.facing
    right = f.turned(facing, 1)
    # the side offset: positive to the dragon's right
    ar, ac = SQUARE_STEP[right]
    side_offset = (r - tr) * ar + (c - tc) * ac
    if side_offset > 0:
        return right
    if side_offset < 0:
        return f.turned(facing, -1)
    dist_head = max(abs(r - hr), abs(c - hc))
    dist_tail = max(abs(r - tr), abs(c - tc))
    return facing if dist_head < dist_tail else f.opposite(facing)


def goal(t: Tick, step: int, d: WDragon, b: WBall) -> None:
    score = score_goal(t, step, d, b)
    effect = t.rules.balls[b.name].effect
    t.emit(step, Kind.EFFECT_START, {"dragon": d.side, "effect": effect})
    if effect == "extinguish":
        d.extinguished = True
    elif effect == "gape":
        d.marks["gape"] = 1
        d.mouth_open = True
    elif effect == "daze_zone":
        d.marks["daze_round"] = t.round
    elif effect == "sleep":
        d.paralysed = True
        d.marks["asleep"] = 1
        d.height = t.rules.min_height
    elif effect == "spit":
        _spit(t, step, d)
    t.emit(step, Kind.SCORE, dict(score))


def _spit(t: Tick, step: int, d: WDragon) -> None:
    """001: the green ball — the dragon sneezes out everyone it swallowed;
    each comes back with 50% (d6 > 3), at his team's re-entry cells at the
    next round's first tick (interpretation), or is out of the game."""
    back: list[dict[str, Any]] = []
    for ref in tuple(d.swallowed_players):
        p = t.w.by_key.get((ref.side, ref.number))
        if p is None:
            continue
        ok = t.chance(
            step,
            Kind.SPIT_ROLL,
            {"dragon": d.side, "side": p.side, "number": p.number},
            float(var(t, "spit_return")),
        )
        d.swallowed_players.remove(ref)
        p.swallowed_by = None
        if ok:
            cells = t.rules.reentry(p.side)
            cell = cells[(p.number - 1) % len(cells)]
            p.status = "hospital"
            p.return_round = t.round + 1
            p.marks.update(return_tick=1, return_cell=cell, return_height=t.rules.setup_height)
            back.append({"side": p.side, "number": p.number})
        else:
            p.status = "out"
            t.emit(step, Kind.PLAYER_OUT, {"side": p.side, "number": p.number, "reason": "spat"})
    if back:
        t.emit(
            step,
            Kind.PLAYERS_SPAT,
            {"dragon": d.side, "players": back, "return_round": t.round + 1},
        )


def swallow(t: Tick, step: int, d: WDragon, p: WPlayer) -> None:
    """001: «Дракон проглатывает игрока, который оказался на одной из клеток
    дракона … Если в этот момент у игрока был мяч - засчитывается гол»."""
    swallow_player(t, step, d, p, goal)


def take(t: Tick, step: int, p: WPlayer, b: WBall, *, from_pass: bool) -> None:
    b.status = "held"
    b.holder = p
    b.direction = None
    b.spell = b.enchanted_by = None
    b.pass_to = None
    b.passer = None
    b.pass_ticks_left = 0
    b.catchable = False
    p.balls.append(b)
    t.emit(
        step,
        Kind.CATCH,
        {"side": p.side, "number": p.number, "ball": b.name, "from_pass": from_pass},
    )
