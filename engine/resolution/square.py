"""The second edition's steps (seed 001, ruleset ``variant-001``).

A square field, dragons turning in four directions with the tail in place,
tail and wing strikes, the dragons' fight, the flame jet and the fire wall,
passes at one cell a tick carrying a spell, steals from the next cell and
the race of a spell and a steal, collisions that knock the survivor back,
the safety spell.  Every number and zone comes from the ruleset's tables
(``[variant]`` for what the classic tables have not); every reading of a
point the text leaves open is an *Interpretation of 001* in docs/rules.md.
The steps register themselves by name (:mod:`engine.resolution.pipeline`)
and the ruleset lists them in order.

Steps are numbered for the events' ``step`` field in the order they run:
0 start, 1 flights of players and dragons, 2 balls, 3 dragons meet players,
4 dragon actions, 5 collisions, 6 passes caught, 7 throws, 8 steals, 9 free
balls caught, 10 balls on the head, 11 end.
"""

from __future__ import annotations

from typing import Any

from ..events import Kind
from ..field import SQUARE_STEP, SquareField
from ..geometry import Direction
from ..orders import Catch, DragonOrder, Pass, PlayerOrder, Steal
from ..square_dragon import dragon_cells, turn_cells
from ..state import other_side
from .contact import catch_roll
from .context import Tick, player_label
from .dragons import score_goal, swallow_player
from .finish import close_tick
from .pipeline import register
from .work import WBall, WDragon, WPlayer

__all__: list[str] = []


def _f(t: Tick) -> SquareField:
    field = t.rules.field
    assert isinstance(field, SquareField)
    return field


def _v(t: Tick, key: str) -> Any:
    extra = t.rules.extra
    assert isinstance(extra, dict), "a ruleset playing the 001 steps needs its [variant] table"
    return extra[key]


def _abs_tick(t: Tick) -> int:
    return (t.round - 1) * t.rules.ticks_per_round + t.tick


def _active(t: Tick) -> list[WPlayer]:
    return [p for p in t.w.players if p.status == "active" and p.cell is not None]


def _cells(d: WDragon) -> tuple[int, int, int]:
    return d.head, d.body, d.tail


def _order(t: Tick, p: WPlayer) -> PlayerOrder | None:
    return t.orders.players.get((p.side, p.number, t.tick))


def _dorder(t: Tick, d: WDragon) -> DragonOrder | None:
    return t.orders.dragons.get((d.side, t.tick))


def _reach(t: Tick, d: WDragon, height: int | None) -> bool:
    return height is not None and abs(height - d.height) <= int(_v(t, "zone_height_reach"))


def _frame(
    field: SquareField, origin: int, facing: Direction, ahead: int, right: int
) -> int | None:
    """The cell ``ahead`` cells forward and ``right`` to the right of ``origin``
    in a dragon's frame."""
    cell: int | None = origin
    fwd = facing if ahead >= 0 else field.opposite(facing)
    side = field.turned(facing, 1) if right >= 0 else field.turned(facing, -1)
    for _ in range(abs(ahead)):
        cell = field.step(cell, fwd) if cell is not None else None
    for _ in range(abs(right)):
        cell = field.step(cell, side) if cell is not None else None
    return cell


# ---------------------------------------------------------------- falls


def _release(t: Tick, step: int, b: WBall, p: WPlayer, reason: str) -> None:
    """He lets go of ``b`` where he is: free, on a random one of the eight
    lines (001: «В свободном состоянии мячи движутся только по диагонали и
    прямым»), not to be caught this tick."""
    t.release(step, b, p, reason, lambda cell: _on_field(t, cell))


def _on_field(t: Tick, cell: int) -> tuple[Direction, ...]:
    f = _f(t)
    return tuple(d for d in f.directions if f.step(cell, d) is not None)


def _bounce(t: Tick, step: int, b: WBall, reason: str) -> Direction:
    """``b`` takes a random course among those that stay on the field."""
    assert b.cell is not None
    choices = _on_field(t, b.cell)
    data = {"ball": b.name, "cell": b.cell}
    roll, new = t.pick(step, Kind.BALL_BOUNCE, data, choices, [c.name for c in choices])
    t.emit(
        step,
        Kind.BALL_BOUNCE,
        data | {"direction": new.name, "reason": reason},
        1 / len(choices),
        roll,
    )
    b.direction = new
    return new


def _fall(t: Tick, step: int, p: WPlayer, cause: str, *, final: bool = False) -> None:
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
            _burn(t, step, b, None)
        else:
            _release(t, step, b, p, "fall")
    p.cell = p.height = None
    p.out_this_tick = True
    if saved and cell is not None and height is not None:
        p.status = "hospital"
        p.return_round = back
        p.marks.update(
            return_tick=(t.tick - 1 + int(_v(t, "fall_ticks"))) % t.rules.ticks_per_round + 1,
            return_cell=cell,
            return_height=height,
        )
    else:
        p.status = "out"
        p.return_round = None
        t.emit(step, Kind.PLAYER_OUT, {"side": p.side, "number": p.number, "reason": cause})


def _burn(t: Tick, step: int, b: WBall, d: WDragon | None) -> None:
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


def _throw_aside(
    t: Tick, step: int, p: WPlayer, direction: Direction, count: int, cause: str
) -> None:
    """Thrown ``count`` cells along ``direction``; into the dome he falls and
    is out of the game (001: «Если при этом он врезается в защитный купол, то
    падает»; «При ударе о защитный купол игрок падает и выбывает из игры»)."""
    f = _f(t)
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
        _fall(t, step, p, "dome", final=True)
    else:
        p.cell = cell


def _away(f: SquareField, d: WDragon, cell: int) -> Direction:
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


# ---------------------------------------------------------------- goals


def _goal(t: Tick, step: int, d: WDragon, b: WBall) -> None:
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
            float(_v(t, "spit_return")),
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


def _swallow(t: Tick, step: int, d: WDragon, p: WPlayer) -> None:
    """001: «Дракон проглатывает игрока, который оказался на одной из клеток
    дракона … Если в этот момент у игрока был мяч - засчитывается гол»."""
    swallow_player(t, step, d, p, _goal)


# ---------------------------------------------------------------- 0. start


def sq_start(t: Tick) -> None:
    w = t.w
    if t.tick == 1:
        t.emit(0, Kind.ROUND_START, {})
        for d in w.dragons:
            if d.marks.get("daze_round", t.round) < t.round:
                del d.marks["daze_round"]  # 001: «до конца раунда»
    for p in w.players:
        p.prev = (p.cell, p.height)
        if (
            p.status == "hospital"
            and p.return_round == t.round
            and p.marks.get("return_tick") == t.tick
        ):
            p.status = "active"
            p.cell = p.marks.pop("return_cell")
            p.height = p.marks.pop("return_height")
            p.marks.pop("return_tick")
            p.return_round = None
            p.prev = (p.cell, p.height)
            t.emit(
                0,
                Kind.PLAYER_LAUNCH,
                {
                    "side": p.side,
                    "number": p.number,
                    "cell": p.cell,
                    "height": p.height,
                    "ordered": False,
                },
            )


# ---------------------------------------------------------------- 1. flights


def sq_players_fly(t: Tick) -> None:
    f = _f(t)
    heights = t.rules.heights
    for p in _active(t):
        o = _order(t, p)
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
                _release(t, 1, b, p, "no_order")
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
    f = _f(t)
    for d in t.w.dragons:
        o = _dorder(t, d)
        ordered = o.move if o else "stay"
        before = set(_cells(d))
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
            if step >= int(_v(t, "turn_ticks")):
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
                "cells": list(_cells(d)),
                "ordered": ordered,
                "refused": refused,
            },
        )
        if move in ("left", "right"):
            _turn_zone(t, d, before, old_head)


def _turn_zone(t: Tick, d: WDragon, before: set[int], old_head: int) -> None:
    f = _f(t)
    now = set(_cells(d))
    zone = before - now
    (r1, c1), (r2, c2) = f.coord(old_head), f.coord(d.head)
    if r1 != r2 and c1 != c2:  # the head cut a corner: both corner cells swept
        for corner in (f.cell_at(r1, c2), f.cell_at(r2, c1)):
            if corner is not None and corner not in now:
                zone.add(corner)
    cells = sorted(zone)
    t.emit(1, Kind.TURN_ZONE, {"side": d.side, "cells": cells})
    for p in _active(t):
        if p.cell in zone and _reach(t, d, p.height):
            _fall(t, 1, p, "dragon_turn")


# ---------------------------------------------------------------- 2. balls


def sq_balls_fly(t: Tick) -> None:
    f = _f(t)
    for b in t.w.balls:
        if b.status != "free" or b.cell is None:
            continue
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
                nxt = f.step(b.cell, _bounce(t, 2, b, "dome"))
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
                "direction": b.direction.name if b.direction else None,
                "visible": True,
            },
        )


# ---------------------------------------------------------------- 3. dragons meet players


def sq_dragons_meet(t: Tick) -> None:
    for d in t.w.dragons:
        mine = set(_cells(d))
        for p in _active(t):
            if p.cell in mine and p.height == d.height:
                _swallow(t, 3, d, p)
    _fight(t)


def _fight(t: Tick) -> None:
    """001: dragons within one cell fight; the cells next to them throw
    players 3 cells away, a player beside both falls; the dragons go back to
    their starting places, the players stay."""
    f = _f(t)
    left, right = t.w.dragons
    reach = int(_v(t, "fight_distance"))
    if min(f.distance(a, b) for a in _cells(left) for b in _cells(right)) > reach:
        return
    t.emit(3, Kind.DRAGON_FIGHT, {"cells": sorted(set(_cells(left)) | set(_cells(right)))})
    near: dict[str, set[int]] = {}
    for d in (left, right):
        own = set(_cells(d))
        near[d.side] = {n for c in own for n in f.neighbours(c)} - own
    for p in _active(t):
        hit = [d for d in (left, right) if p.cell in near[d.side] and _reach(t, d, p.height)]
        if len(hit) == 2:
            _fall(t, 3, p, "dragon_fight")
        elif hit:
            assert p.cell is not None
            _throw_aside(t, 3, p, _away(f, hit[0], p.cell), int(_v(t, "fight_throw")), "fight")
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


# ---------------------------------------------------------------- 4. dragon actions


def sq_dragon_actions(t: Tick) -> None:
    f = _f(t)
    for d in t.w.dragons:
        o = _dorder(t, d)
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
        if d.marks.get("daze_round") == t.round:
            _daze_zone(t, f, d)


def _strike(t: Tick, d: WDragon, kind: str) -> None:
    f = _f(t)
    origin, offsets = (
        (d.tail, _v(t, "tail_zone")) if kind == "tail" else (d.body, _v(t, "wings_zone"))
    )
    zone = {c for a, r in offsets if (c := _frame(f, origin, d.facing, a, r)) is not None}
    zone -= set(_cells(d))
    t.emit(4, Kind.STRIKE, {"side": d.side, "strike": kind, "cells": sorted(zone)})
    for p in _active(t):
        if p.cell in zone and _reach(t, d, p.height):
            _throw_aside(t, 4, p, _away(f, d, p.cell), int(_v(t, "strike_throw")), kind)


def _fire(t: Tick, d: WDragon, o: DragonOrder) -> None:
    f = _f(t)
    now = _abs_tick(t)
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
        zone = {target} - set(_cells(d)) if target is not None else set()
        d.marks["jet_ready"] = now + int(_v(t, "jet_every_ticks"))
    else:
        zone = {
            c for a, r in _v(t, "wall_zone") if (c := _frame(f, d.head, d.facing, a, r)) is not None
        }
        d.marks["wall_round"] = t.round
        # 001: the deep breath: no flame to the end of this round and the next
        d.marks["breath_round"] = t.round + int(_v(t, "breath_rounds"))
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
    for p in _active(t):
        if p.cell in zone and _reach(t, d, p.height):
            _fall(t, 4, p, "fire", final=True)
    for b in t.w.balls:
        if b.status == "free" and b.cell in zone and _reach(t, d, b.height):
            _burn(t, 4, b, d)


def _daze_zone(t: Tick, f: SquareField, d: WDragon) -> None:
    """001, the black ball: to the end of the round the cells round the
    dragon throw players 3 cells (at the tail and wings) or swallow them (at
    the head), at the dragon's own height."""
    own = set(_cells(d))
    head_near = set(f.neighbours(d.head)) - own
    near = {n for c in own for n in f.neighbours(c)} - own
    for p in _active(t):
        if p.cell not in near or p.height != d.height:
            continue
        if p.cell in head_near:
            _swallow(t, 4, d, p)
        else:
            _throw_aside(t, 4, p, _away(f, d, p.cell), int(_v(t, "strike_throw")), "daze")


# ---------------------------------------------------------------- 5. collisions


def sq_collisions(t: Tick) -> None:
    """001: players on one cell (classic: and height) each fall with 50%
    (d6 < 4); a survivor is knocked back a cell, to where he came from."""
    groups: dict[tuple[int, int], list[WPlayer]] = {}
    for p in _active(t):
        assert p.cell is not None and p.height is not None
        groups.setdefault((p.cell, p.height), []).append(p)
    for (cell, height), crowd in sorted(groups.items()):
        if len(crowd) < 2:
            continue
        t.emit(
            5,
            Kind.COLLISION,
            {
                "cell": cell,
                "height": height,
                "players": [{"side": p.side, "number": p.number} for p in crowd],
            },
        )
        for p in crowd:
            falls = t.chance(
                5,
                Kind.COLLISION_SECOND,
                {"side": p.side, "number": p.number},
                float(_v(t, "collision_falls")),
            )
            if falls:
                _fall(t, 5, p, "collision")
            else:
                back_cell, back_height = p.prev
                if back_cell is not None and back_cell != p.cell:
                    p.cell, p.height = back_cell, back_height
                t.emit(5, Kind.HELD_ON, {"side": p.side, "number": p.number, "cell": p.cell})


# ---------------------------------------------------------------- 6. passes caught


def sq_passes_caught(t: Tick) -> None:
    """001: a pass is caught within one cell of the ball by the right
    counter-spell; anyone on its line may intercept it so.  A wrong
    counter-spell: he falls and the ball flies on — the receiver's at its
    natural speed (the spell is broken), an interceptor's as before."""
    f = _f(t)
    reach = int(_v(t, "pass_catch_reach"))
    for b in t.w.balls:
        if b.status != "free" or b.spell is None or b.cell is None or b.passed:
            continue
        takers = []
        for p in _active(t):
            o = p.order
            if o is None or not isinstance(o.action, Catch) or o.action.counter is None:
                continue
            if o.action.ball not in (None, b.name) or p.out_this_tick:
                continue
            assert p.cell is not None and p.height is not None and b.height is not None
            if f.distance(p.cell, b.cell) > reach:
                continue
            if abs(p.height - b.height) > t.rules.catch.adjacent_max_height_diff:
                continue
            takers.append((f.distance(p.cell, b.cell), player_label(p.side, p.number), p))
        for _, _, p in sorted(takers, key=lambda x: (x[0], x[1])):
            o = p.order
            assert o is not None and isinstance(o.action, Catch)
            counter = o.action.counter
            own = p.side == b.enchanted_by
            if counter == t.rules.counter_for(b.spell):
                if len(p.balls) >= t.rules.catch.max_balls_held:
                    continue
                t.emit(
                    6,
                    Kind.DISENCHANT,
                    {
                        "side": p.side,
                        "number": p.number,
                        "ball": b.name,
                        "spell": b.spell,
                        "counter": counter,
                    },
                )
                _take(t, 6, p, b, from_pass=True)
                break
            t.emit(
                6,
                Kind.BLUDGER,
                {"side": p.side, "number": p.number, "ball": b.name, "spell": b.spell},
            )
            _fall(t, 6, p, "counter")
            if own:
                b.spell = b.enchanted_by = None  # free again, at its own speed
                break


def _take(t: Tick, step: int, p: WPlayer, b: WBall, *, from_pass: bool) -> None:
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


# ---------------------------------------------------------------- 7. throws


def sq_throws(t: Tick) -> None:
    f = _f(t)
    for p in _active(t):
        o = p.order
        if o is None or not isinstance(o.action, Pass) or p.out_this_tick:
            continue
        a = o.action
        b = t.w.by_name.get(a.ball)
        if b is None or b.holder is not p:
            t.emit(
                7,
                Kind.ACTION_LOST,
                {"side": p.side, "number": p.number, "action": "pass", "reason": "no_ball"},
            )
            continue
        assert p.cell is not None and p.height is not None
        head_of = next((d for d in t.w.dragons if d.head == a.cell), None)
        if head_of is not None and f.distance(p.cell, head_of.head) == 1:
            _shot(t, p, b, head_of)
            continue
        direction = f.line_direction(p.cell, a.cell)
        if direction is None or not f.is_cell(a.cell) or a.height not in t.rules.heights:
            t.emit(
                7,
                Kind.ACTION_LOST,
                {"side": p.side, "number": p.number, "action": "pass", "reason": "cell_invalid"},
            )
            continue
        if a.spell is not None:
            if t.rules.counter_for(a.spell) is None:
                t.emit(
                    7,
                    Kind.ACTION_LOST,
                    {
                        "side": p.side,
                        "number": p.number,
                        "action": "pass",
                        "reason": "spell_unknown",
                    },
                )
                continue
            if _race_lost(t, p, b):
                continue
        elif f.distance(p.cell, a.cell) > int(_v(t, "throw_max_distance")):
            t.emit(
                7,
                Kind.ACTION_LOST,
                {"side": p.side, "number": p.number, "action": "pass", "reason": "range"},
            )
            continue
        p.balls.remove(b)
        b.holder = None
        b.status = "free"
        b.cell, b.height = p.cell, p.height
        b.direction = direction
        b.passer = p.ref
        b.passed = True
        b.catchable = False
        if a.spell is not None:
            b.spell, b.enchanted_by = a.spell, p.side
        else:
            b.pass_to = (a.cell, a.height)
        t.emit(
            7,
            Kind.PASS,
            {
                "ball": b.name,
                "side": p.side,
                "number": p.number,
                "from_cell": p.cell,
                "cell": a.cell,
                "height": a.height,
                "spell": a.spell,
            },
        )


def _shot(t: Tick, p: WPlayer, b: WBall, d: WDragon) -> None:
    """001: a throw at the head from the next cell; a miss bounces by the die
    as far as the ball's natural speed."""
    f = _f(t)
    assert p.cell is not None
    p_goal = float(
        _v(t, "gape_goal_probability") if d.marks.get("gape") else _v(t, "goal_probability")
    )
    if not _reach(t, d, p.height):
        p_goal = 0.0
    ok = t.chance(
        7, Kind.SHOT, {"side": p.side, "number": p.number, "ball": b.name, "dragon": d.side}, p_goal
    )
    if ok:
        _goal(t, 7, d, b)
        return
    p.balls.remove(b)
    b.holder = None
    b.status = "free"
    b.cell, b.height = p.cell, p.height
    b.catchable = False
    b.passed = True
    new = _bounce(t, 7, b, "dragon")
    for _ in range(t.rules.balls[b.name].speed):
        nxt = f.step(b.cell, new)
        if nxt is None:
            break
        b.cell = nxt


def _race_lost(t: Tick, p: WPlayer, b: WBall) -> bool:
    """001: a spell and a steal of the same ball in one tick: who was first
    wins.  The spell first: the stealer is knocked down.  The steal first:
    d6 > 3 and the ball is his.  True when the pass does not go."""
    f = _f(t)
    for q in _active(t):
        o = q.order
        if q.side == p.side or o is None or not isinstance(o.action, Steal):
            continue
        if o.action.target != p.number or not _steal_reach(t, f, q, p):
            continue
        q.catch_note = "race"
        data = {"side": q.side, "number": q.number, "target": p.number, "ball": b.name}
        if not t.chance(7, Kind.RACE, data, float(_v(t, "race_steal_first"))):
            _fall(t, 7, q, "race")
            continue
        if t.chance(
            7, Kind.STEAL_ROLL, data | {"where": "adjacent"}, float(_v(t, "race_steal_wins"))
        ):
            p.balls.remove(b)
            b.holder = q
            q.balls.append(b)
            t.emit(
                7,
                Kind.STEAL,
                {"side": q.side, "number": q.number, "target": p.number, "ball": b.name},
            )
            return True
    return False


# ---------------------------------------------------------------- 8. steals


def _steal_reach(t: Tick, f: SquareField, q: WPlayer, p: WPlayer) -> bool:
    if q.cell is None or p.cell is None or q.height is None or p.height is None:
        return False
    return (
        f.distance(q.cell, p.cell) <= 1
        and abs(q.height - p.height) <= t.rules.steal.adjacent_max_height_diff
    )


def sq_steals(t: Tick) -> None:
    f = _f(t)
    for q in _active(t):
        o = q.order
        if (
            o is None
            or not isinstance(o.action, Steal)
            or q.catch_note == "race"
            or q.out_this_tick
        ):
            continue
        target = t.w.by_key.get((other_side(q.side), o.action.target))
        data = {"side": q.side, "number": q.number, "target": o.action.target}
        reason = None
        if target is None or target.status != "active":
            reason = "target_out"
        elif not target.balls:
            reason = "no_ball"
        elif len(q.balls) >= t.rules.catch.max_balls_held:
            reason = "hands_full"
        elif not _steal_reach(t, f, q, target):
            reason = "out_of_reach"
        if reason is not None or target is None:
            t.emit(8, Kind.STEAL_NOTHING, data | {"reason": reason})
            continue
        two = len(target.balls) > 1
        p = float(_v(t, "steal_two_balls") if two else _v(t, "steal_one_ball"))
        if not t.chance(8, Kind.STEAL_ROLL, data | {"where": "adjacent"}, p):
            continue
        roll, ball = t.pick(8, Kind.STEAL, data, list(target.balls), [b.name for b in target.balls])
        target.balls.remove(ball)
        ball.holder = q
        q.balls.append(ball)
        t.emit(
            8,
            Kind.STEAL,
            data | {"ball": ball.name},
            1 / (len(target.balls) + 1) if two else None,
            roll if two else None,
        )


# ---------------------------------------------------------------- 9. free balls caught


def sq_catch_free(t: Tick) -> None:
    """Classic §4 chances (001: «Если просто мяч бросить, то можно и просто
    поймать»); an enchanted pass needs its counter-spell (step 6)."""
    f = _f(t)
    c = t.rules.catch
    for p in sorted(_active(t), key=lambda x: player_label(x.side, x.number)):
        o = p.order
        if o is None or not isinstance(o.action, Catch) or p.out_this_tick:
            continue
        if len(p.balls) >= c.max_balls_held:
            continue
        assert p.cell is not None and p.height is not None
        best: tuple[float, str, WBall] | None = None
        second = bool(p.balls)
        for b in t.w.balls:
            if b.status != "free" or b.spell is not None or not b.catchable or b.cell is None:
                continue
            if o.action.ball not in (None, b.name) or b.height is None:
                continue
            dist = f.distance(p.cell, b.cell)
            if dist == 0 and b.height == p.height:
                prob = c.second_same_cell_same_height if second else c.first_same_cell_same_height
                where = "same_cell_same_height"
            elif dist == 0 and abs(b.height - p.height) <= p.height:
                prob = c.second_same_cell_other_height if second else c.first_same_cell_other_height
                where = "same_cell_other_height"
            elif dist == 1 and abs(b.height - p.height) <= c.adjacent_max_height_diff:
                prob = c.second_adjacent if second else c.first_adjacent
                where = "adjacent"
            else:
                continue
            if best is None or prob > best[0]:
                best = (prob, where, b)
        if best is None:
            continue
        prob, where, b = best
        if catch_roll(t, 9, p, b, prob, where, second):
            _take(t, 9, p, b, from_pass=False)


# ---------------------------------------------------------------- 10. «самый обидный гол»


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
                if t.chance(10, Kind.BALL_SWALLOW_ROLL, data, float(_v(t, "free_ball_swallow"))):
                    _goal(t, 10, d, b)
                break


# ---------------------------------------------------------------- 11. end


def sq_end(t: Tick) -> None:
    """001's end: 1. the yellow ball scored; 2. every player out of the game;
    3. every ball scored or burnt — and the classic last round."""
    close_tick(t, 11, _end_reason(t))


def _end_reason(t: Tick) -> str | None:
    w = t.w
    if any(d.marks.get("asleep") for d in w.dragons):
        return "asleep"
    if all(b.status in ("swallowed", "burnt") for b in w.balls):
        return "all_balls"
    if w.players and all(p.status in ("out", "swallowed", "reserve") for p in w.players):
        return "all_players_out"
    return None


for _name, _step in (
    ("sq_start", sq_start),
    ("sq_players_fly", sq_players_fly),
    ("sq_dragons_move", sq_dragons_move),
    ("sq_balls_fly", sq_balls_fly),
    ("sq_dragons_meet", sq_dragons_meet),
    ("sq_dragon_actions", sq_dragon_actions),
    ("sq_collisions", sq_collisions),
    ("sq_passes_caught", sq_passes_caught),
    ("sq_throws", sq_throws),
    ("sq_steals", sq_steals),
    ("sq_catch_free", sq_catch_free),
    ("sq_head_balls", sq_head_balls),
    ("sq_end", sq_end),
):
    register(_name, _step)
