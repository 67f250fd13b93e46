"""001 steps 6 and 7: enchanted passes caught, then this tick's throws,
shots at a head and the race of a spell and a steal."""

from __future__ import annotations

from ...events import Kind
from ...orders import Catch, Pass, Steal
from ..context import Tick, player_label
from ..work import WBall, WDragon, WPlayer
from .base import active, bounce, field_of, in_reach, steal_reach, var, var_or
from .outcomes import fall, goal, take

__all__ = ["sq_passes_caught", "sq_throws"]


def sq_passes_caught(t: Tick) -> None:
    """001: a pass is caught within one cell of the ball by the right
    counter-spell; anyone on its line may intercept it so.  A wrong
    counter-spell: he falls and the ball flies on — the receiver's at its
    natural speed (the spell is broken), an interceptor's as before."""
    f = field_of(t)
    reach = int(var(t, "pass_catch_reach"))
    for b in t.w.balls:
        if b.status != "free" or b.spell is None or b.cell is None or b.passed:
            continue
        takers = []
        for p in active(t):
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
                take(t, 6, p, b, from_pass=True)
                break
            t.emit(
                6,
                Kind.BLUDGER,
                {"side": p.side, "number": p.number, "ball": b.name, "spell": b.spell},
            )
            fall(t, 6, p, "counter")
            if own:
                b.spell = b.enchanted_by = None  # free again, at its own speed
                break


def sq_throws(t: Tick) -> None:
    f = field_of(t)
    for p in active(t):
        o = p.order
        if o is None or not isinstance(o.action, Pass) or p.out_this_tick:
            continue
        a = o.action
        b = t.w.by_name.get(a.ball)
        if b is None or b.holder is not p:
            _pass_lost(t, p, "no_ball")
            continue
        assert p.cell is not None and p.height is not None
        head_of = next((d for d in t.w.dragons if d.head == a.cell), None)
        if head_of is not None and f.distance(p.cell, head_of.head) == 1:
            _shot(t, p, b, head_of)
            continue
        direction = f.line_direction(p.cell, a.cell)
        reason = None
        if direction is None or not f.is_cell(a.cell) or a.height not in t.rules.heights:
            reason = "cell_invalid"
        elif a.spell is not None and t.rules.counter_for(a.spell) is None:
            reason = "spell_unknown"
        elif a.spell is None and f.distance(p.cell, a.cell) > int(var(t, "throw_max_distance")):
            reason = "range"
        if reason is not None:
            _pass_lost(t, p, reason)
            continue
        if a.spell is not None and _race_lost(t, p, b):
            continue
        assert direction is not None
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


def _pass_lost(t: Tick, p: WPlayer, reason: str) -> None:
    data = {"side": p.side, "number": p.number, "action": "pass", "reason": reason}
    t.emit(7, Kind.ACTION_LOST, data)


def _shot(t: Tick, p: WPlayer, b: WBall, d: WDragon) -> None:
    """001: a throw at the head from the next cell; a miss bounces by the die
    as far as the ball's natural speed."""
    f = field_of(t)
    assert p.cell is not None
    p_goal = float(
        var(t, "gape_goal_probability") if d.marks.get("gape") else var(t, "goal_probability")
    )
    if not in_reach(t, d, p.height):
        p_goal = 0.0
    ok = t.chance(
        7, Kind.SHOT, {"side": p.side, "number": p.number, "ball": b.name, "dragon": d.side}, p_goal
    )
    if ok:
        goal(t, 7, d, b)
        return
    p.balls.remove(b)
    b.holder = None
    b.status = "free"
    b.cell, b.height = p.cell, p.height
    b.catchable = False
    b.passed = True
    new = bounce(t, 7, b, "dragon")
    for _ in range(t.rules.balls[b.name].speed):
        nxt = f.step(b.cell, new)
        if nxt is None:
            break
        b.cell = nxt


def _race_lost(t: Tick, p: WPlayer, b: WBall) -> bool:
    """001: a spell and a steal of the same ball in one tick: who was first
    wins.  The spell first: the stealer is knocked down.  The steal first:
    d6 > 3 and the ball is his.  True when the pass does not go."""
    f = field_of(t)
    for q in active(t):
        o = q.order
        if q.side == p.side or o is None or not isinstance(o.action, Steal):
            continue
        if o.action.target != p.number or not steal_reach(t, f, q, p):
            continue
        q.catch_note = "race"
        data = {"side": q.side, "number": q.number, "target": p.number, "ball": b.name}
        if not t.chance(7, Kind.RACE, data, float(var(t, "race_steal_first"))):
            fall(t, 7, q, "race")
            continue
        if t.chance(7, Kind.STEAL_ROLL, data | {"where": "adjacent"}, _race_steal_wins(t, p)):
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


def _race_steal_wins(t: Tick, p: WPlayer) -> float:
    """The steal came first: 001 «если на кубике выпадет число больше 3 -
    мячик отобран» is the die of a holder of exactly one ball (1.3).  A
    holder of two still held both when the robber reached him, and «Если у
    игрока более одного мяча, то вероятность отобрать 1 из мячей - 100%»:
    the robber wins the race's ball for certain (version 4,
    ``variant.race_two_balls``; versions 1-3 threw the one-ball die)."""
    if len(p.balls) > 1 and var_or(t, "race_two_balls", "die") == "certain":
        return float(var(t, "steal_two_balls"))
    return float(var(t, "race_steal_wins"))
