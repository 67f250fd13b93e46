"""001 steps 5, 8 and 9: collisions, steals and balls in free flight caught."""

from __future__ import annotations

from ...events import Kind
from ...orders import Catch, Steal
from ...state import other_side
from ..contact import catch_roll
from ..context import Tick, player_label
from ..work import WBall, WPlayer
from .base import active, field_of, steal_reach, var, var_or
from .outcomes import fall, swallow_if_on_dragon, take

__all__ = ["sq_catch_free", "sq_collisions", "sq_steals"]


def sq_collisions(t: Tick) -> None:
    """001: players on one cell (classic: and height) each fall with 50%
    (d6 < 4); a survivor is knocked back a cell, to where he came from: the
    cell he flew from, or one cell back along a throw aside this tick
    (version 4, ``variant.knockback_way``: :func:`.outcomes.throw_aside`
    sets ``prev``; versions 1-3 sent a thrown player back as far as he was
    thrown, to where the throw found him)."""
    groups: dict[tuple[int, int], list[WPlayer]] = {}
    for p in active(t):
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
                float(var(t, "collision_falls")),
            )
            if falls:
                fall(t, 5, p, "collision")
            else:
                back_cell, back_height = p.prev
                if back_cell is not None and back_cell != p.cell:
                    p.cell, p.height = back_cell, back_height
                t.emit(5, Kind.HELD_ON, {"side": p.side, "number": p.number, "cell": p.cell})
                # back onto a cell a dragon has since moved onto (version 3)
                swallow_if_on_dragon(t, 5, p)


def sq_steals(t: Tick) -> None:
    f = field_of(t)
    for q in active(t):
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
        elif not steal_reach(t, f, q, target):
            reason = "out_of_reach"
        if reason is not None or target is None:
            t.emit(8, Kind.STEAL_NOTHING, data | {"reason": reason})
            continue
        two = len(target.balls) > 1
        p = float(var(t, "steal_two_balls") if two else var(t, "steal_one_ball"))
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


def sq_catch_free(t: Tick) -> None:
    """Classic §4 chances (001: «Если просто мяч бросить, то можно и просто
    поймать»); an enchanted pass needs its counter-spell (step 6)."""
    f = field_of(t)
    c = t.rules.catch
    # Version 1 let a player catch on his cell only within his own height of
    # the ball (a slip: at height 1 not a ball at 3, at 3 one at 1).
    any_height = var_or(t, "own_cell_catch", "within_own_height") == "any_height"
    for p in sorted(active(t), key=lambda x: player_label(x.side, x.number)):
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
            elif dist == 0 and (any_height or abs(b.height - p.height) <= p.height):
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
            take(t, 9, p, b, from_pass=False)
