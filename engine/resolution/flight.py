"""Step 1 for players and balls: launches, flights, drops, free flight, passes.

(The dragons' part of step 1 is in :mod:`.dragons`.)
"""

from __future__ import annotations

from ..events import Kind
from ..geometry import Direction, direction_between
from ..orders import Pass, PlayerOrder
from ..ruleset import Ruleset
from .context import Tick
from .geo import DIST, NEXT, danger_cells, on_field_directions
from .work import WBall, WPlayer

__all__ = ["balls_fly", "land_passes", "move_problem", "players_fly", "throw_passes"]


def move_problem(rules: Ruleset, cell: int, height: int, o: PlayerOrder) -> str | None:
    """Why a player at (cell, height) cannot fly as ``o`` says (§2), or None."""
    if not 1 <= o.cell < len(DIST):
        return "cell_invalid"
    if not rules.min_height <= o.height <= rules.max_height:
        return "height_invalid"
    if DIST[cell][o.cell] > rules.player_speed:
        return "too_far"
    if abs(o.height - height) > rules.player_height_step:
        return "height_step"
    return None


def players_fly(t: Tick) -> None:
    rules = t.rules
    w = t.w
    tick = t.tick
    orders = t.orders.players
    speed, step, heights = rules.player_speed, rules.player_height_step, rules.heights
    cells_end = len(DIST)
    launching = tick == rules.hospital_return_tick
    occupied = {p.cell for p in w.players if p.status == "active"} if launching else set()
    for p in w.players:
        status = p.status
        if status == "hospital":
            if launching and (p.return_round is None or p.return_round <= t.round):
                _launch(t, p, orders.get((p.side, p.number, tick)), occupied)
            continue
        cell = p.cell
        height = p.height
        if status != "active" or cell is None or height is None:
            continue
        o = orders.get((p.side, p.number, tick))
        if o is None:
            reason: str | None = "none"
        elif (
            0 < o.cell < cells_end
            and DIST[cell][o.cell] <= speed
            and abs(o.height - height) <= step
            and o.height in heights
        ):
            reason = None  # the usual case, checked without a call
        else:
            reason = move_problem(rules, cell, height, o)
        if o is not None and reason is None:
            p.cell, p.height, p.order = o.cell, o.height, o
        else:
            # §4: a player without a (valid) order stays and drops every ball.
            t.emit(1, Kind.NO_ORDER, {"side": p.side, "number": p.number, "reason": reason})
        t.emit(
            1,
            Kind.PLAYER_MOVE,
            {
                "side": p.side,
                "number": p.number,
                "from_cell": cell,
                "from_height": height,
                "cell": p.cell,
                "height": p.height,
            },
        )
        if p.order is None:
            for b in tuple(p.balls):
                t.release(1, b, p, "no_order")


def _launch(t: Tick, p: WPlayer, o: PlayerOrder | None, occupied: set[int | None]) -> None:
    """§2: back from the hospital on a re-entry cell of his half."""
    rules = t.rules
    reentry = rules.reentry(p.side)
    if o is not None and o.cell in reentry and rules.min_height <= o.height <= rules.max_height:
        cell, height, ordered = o.cell, o.height, True
        p.order = o
    else:
        # Interpretation: the first listed re-entry cell nobody occupies, height 1.
        cell = next((c for c in reentry if c not in occupied), reentry[0])
        height, ordered = rules.min_height, False
    occupied.add(cell)
    p.status = "active"
    p.cell = cell
    p.height = height
    p.return_round = None
    t.emit(
        1,
        Kind.PLAYER_LAUNCH,
        {"side": p.side, "number": p.number, "cell": cell, "height": height, "ordered": ordered},
    )


def balls_fly(t: Tick) -> None:
    """§3: the yellow ball vanishes or reappears, then free balls fly."""
    rules = t.rules
    balls = t.w.balls
    for b in balls:
        if b.released or b.pass_to is not None or (b.status != "free" and b.status != "vanished"):
            continue
        p = rules.balls[b.name].vanish_probability
        if p <= 0:
            continue
        data = {"ball": b.name, "cell": b.cell}
        if b.status == "free":
            if t.chance(1, Kind.YELLOW_VANISH, data, p):
                b.status = "vanished"
                b.catchable = False
        elif t.chance(1, Kind.YELLOW_APPEAR, data, p):
            b.status = "free"
            b.catchable = False  # §9.6: not on the tick it reappears
    danger: frozenset[int] = frozenset()
    for d in t.w.dragons:
        if d.mouth_open:
            danger = danger | danger_cells(d.head, d.facing)
    for b in balls:
        if b.released or b.pass_to is not None or (b.status != "free" and b.status != "vanished"):
            continue
        speed = rules.balls[b.name].speed
        if speed > 0:
            _fly(t, b, speed, danger)


def _fly(t: Tick, b: WBall, speed: int, danger: frozenset[int]) -> None:
    cell = b.cell
    assert cell is not None
    start = cell
    d: Direction = (
        b.direction
        if b.direction is not None
        else t.random_direction(1, b, on_field_directions(cell))
    )
    for _ in range(speed):
        nxt = NEXT[cell][d]
        if not nxt or nxt in danger:
            # §3 the dome, §5 "unless a dragon prevents it": a new random course
            # among those that stay on the field and out of an open mouth's reach.
            allowed = [x for x in on_field_directions(cell) if NEXT[cell][x] not in danger]
            if not allowed:
                break
            roll, d = t.pick(
                1,
                Kind.BALL_BOUNCE,
                {"ball": b.name, "cell": cell, "reason": "dome" if not nxt else "dragon"},
                allowed,
                [x.name for x in allowed],
            )
            t.emit(
                1,
                Kind.BALL_BOUNCE,
                {
                    "ball": b.name,
                    "cell": cell,
                    "direction": d.name,
                    "reason": "dome" if not nxt else "dragon",
                },
                1 / len(allowed),
                roll,
            )
            b.pass_ticks_left = 0
            nxt = NEXT[cell][d]
        cell = nxt
    b.cell = cell
    b.direction = d
    t.emit(
        1,
        Kind.BALL_MOVE,
        {
            "ball": b.name,
            "from_cell": start,
            "cell": cell,
            "height": b.height,
            "direction": d.name,
            "visible": b.status == "free",
        },
    )
    # The course of the next flight: a pass's direction while it is kept
    # (§5), otherwise a new random one (§3).
    if b.pass_ticks_left > 0:
        b.pass_ticks_left -= 1
    if b.pass_ticks_left == 0:
        b.direction = t.random_direction(1, b, on_field_directions(cell))


def pass_problem(t: Tick, p: WPlayer, a: Pass) -> str | None:
    """Why a pass cannot be thrown now (it should have been refused at save)."""
    rules = t.rules
    ball = t.w.by_name.get(a.ball)
    if ball is None:
        return "ball_unknown"
    if ball.holder is not p:
        return "no_ball"
    if not 1 <= a.cell < len(DIST):
        return "cell_invalid"
    if not rules.min_height <= a.height <= rules.max_height:
        return "height_invalid"
    assert p.cell is not None
    dist = DIST[p.cell][a.cell]
    if not rules.pass_min_distance <= dist <= rules.pass_range(a.ball):
        return "range"
    if a.spell is not None:
        if rules.counter_for(a.spell) is None:
            return "spell_unknown"
        if t.w.teams[p.side].enchanted_left <= 0:
            return "enchant_quota"
    return None


def throw_passes(t: Tick, step: int = 1) -> None:
    """§5: this tick's passes.

    At step 4 (``passes.flight = "next_tick"``, §9 read as a whole): the ball
    leaves the passer's hands and is in the air beside him until step 1 of
    the next tick, when it lands (:func:`land_passes`); at step 7 an open
    mouth next to the passer may swallow it (§9.7).  At step 1 (version 1)
    it is thrown and lands at once.
    """
    next_tick = step != 1
    for p in t.w.players:
        o = p.order
        if o is None or not isinstance(o.action, Pass) or p.status != "active" or p.held_on:
            # (a player who fell, was swallowed or held on lost it at step 3/4)
            continue
        a = o.action
        problem = pass_problem(t, p, a)
        if problem is not None:
            t.emit(
                step,
                Kind.ACTION_LOST,
                {"side": p.side, "number": p.number, "action": "pass", "reason": problem},
            )
            continue
        b = t.w.by_name[a.ball]
        from_cell = p.cell
        assert from_cell is not None
        p.balls.remove(b)
        b.holder = None
        b.status = "free"
        b.direction = direction_between(from_cell, a.cell) or Direction.E
        b.catchable = False
        if next_tick:
            b.cell, b.height = from_cell, p.height
            b.pass_to = (a.cell, a.height)
            b.passer = p.ref
            b.pass_ticks_left = 0
            b.released = True  # §9: out of the hands this tick, judged at step 7
        else:
            b.cell = a.cell
            b.height = a.height
            b.pass_ticks_left = t.rules.keep_direction_ticks
            b.passed = True
        if a.spell is not None:
            b.spell = a.spell
            b.enchanted_by = p.side
            t.w.teams[p.side].enchanted_left -= 1
        t.emit(
            step,
            Kind.PASS,
            {
                "ball": b.name,
                "side": p.side,
                "number": p.number,
                "from_cell": from_cell,
                "cell": a.cell,
                "height": a.height,
                "spell": a.spell,
            },
        )


def land_passes(t: Tick) -> None:
    """Step 1: the passes thrown last tick land where they were aimed (§9.1
    "перелеты мячей — тех, которые … пасованы"); step 2 judges those that
    land in an open mouth's reach, step 4 their catchers."""
    keep = t.rules.keep_direction_ticks
    for b in t.w.balls:
        target = b.pass_to
        if target is None or b.status != "free":
            continue
        from_cell = b.cell
        passer = b.passer
        b.cell, b.height = target
        b.pass_to = None
        b.passer = None
        b.pass_ticks_left = keep
        b.passed = True
        b.catchable = False
        t.emit(
            1,
            Kind.PASS_LANDS,
            {
                "ball": b.name,
                "side": passer.side if passer else None,
                "number": passer.number if passer else None,
                "from_cell": from_cell,
                "cell": b.cell,
                "height": b.height,
            },
        )
