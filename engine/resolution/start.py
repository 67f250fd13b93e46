"""Step 0: start of round (substitutions), ball effects, penalty throw-ins."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..events import Kind
from ..geometry import SIDES, Direction, Side
from ..state import effect_names
from .context import Tick
from .geo import on_field_directions
from .work import WBall, WPlayer, WTeam

__all__ = ["penalties", "start_of_tick", "substitution_problem", "warned"]

LASTING = ("daze", "sneeze")


def start_of_tick(t: Tick) -> None:
    if t.tick == 1:
        t.emit(0, Kind.ROUND_START, {})
        for s in t.orders.substitutions:
            _substitute(t, s.side, s.out_number, s.in_number)
    _effects(t)
    penalties(t)


def substitution_problem(out_p: WPlayer | None, in_p: WPlayer | None, round_: int) -> str | None:
    """Why a substitution cannot happen now (§8), or None."""
    if out_p is None or in_p is None:
        return "unknown"
    if out_p.status == "swallowed":
        return "swallowed"
    if out_p.status == "reserve" or in_p.status != "reserve":
        return "not_reserve"
    if in_p.return_round is not None and in_p.return_round > round_:
        return "injured"
    return None


def _substitute(t: Tick, side: Side, out_number: int, in_number: int) -> None:
    w = t.w
    out_p = w.by_key.get((side, out_number))
    in_p = w.by_key.get((side, in_number))
    data = {"side": side, "out": out_number, "in": in_number}
    problem = substitution_problem(out_p, in_p, t.round)
    if problem is not None or out_p is None or in_p is None:
        t.emit(0, Kind.SUBSTITUTION_REFUSED, {**data, "reason": problem})
        return
    # §8 (interpretation): the reserve takes the place of the player going off,
    # on the field (cell, height, balls) or in the hospital wing, where he
    # launches on this round's return tick.
    in_p.status = out_p.status
    in_p.cell, in_p.height = out_p.cell, out_p.height
    in_p.balls, out_p.balls = out_p.balls, []
    for b in in_p.balls:
        b.holder = in_p
    in_p.return_round = t.round if out_p.status == "hospital" else None
    out_p.status = "reserve"
    out_p.cell = out_p.height = None
    t.emit(0, Kind.SUBSTITUTION, data)


def _effects(t: Tick) -> None:
    """§9.3б: the magic of a ball swallowed last tick takes hold now."""
    rules = t.rules
    for d in t.w.dragons:
        if not d.pending:
            continue
        for entry in d.pending:
            # A new ball ends the lasting effect of the previous one (§1);
            # balls swallowed at the same moment are one entry and all last.
            names = effect_names(entry)
            d.effect = "+".join(e for e in names if e in LASTING) or None
            for effect in names:
                if effect == "extinguish":
                    d.extinguished = True
                elif effect == "paralyse":
                    d.paralysed = True
                    d.height = rules.dragon.paralysed_height
                data: dict[str, object] = {"dragon": d.side, "effect": effect}
                if len(names) > 1:
                    data["together"] = list(names)  # swallowed at the same moment
                t.emit(0, Kind.EFFECT_START, data)
        d.pending = []


def penalties(
    t: Tick, directions: Callable[[int], Sequence[Direction]] = on_field_directions
) -> None:
    """§10: the lowest-value ball the team holds is thrown in at the centre,
    one a tick: at the penalty's tick and, with ``penalty.every_held_ball``,
    at every later tick of the round while the team still holds a ball.
    ``directions``: the courses a thrown-in ball may take on the field (the
    second edition's square field passes its own)."""
    rules = t.rules
    if not rules.penalty_every_held_ball:
        done: dict[Side, int] = {}
        for pen in t.orders.penalties:
            if pen.tick != t.tick or done.get(pen.side, 0) >= rules.max_throw_ins_per_tick:
                continue
            done[pen.side] = done.get(pen.side, 0) + 1
            _throw_in(t, pen.side, directions, announce_nothing=True)
        return
    for side in SIDES:
        ticks = [pen.tick for pen in t.orders.penalties if pen.side == side]
        if not ticks or min(ticks) > t.tick:
            continue
        first = t.tick in ticks  # a penalty ordered for this very tick
        if rules.penalty_needs_warning and not warned(t.w.teams[side], t.round):
            if t.tick == min(ticks):
                t.emit(0, Kind.PENALTY_REFUSED, {"side": side, "reason": "no_warning"})
            continue
        for _ in range(rules.max_throw_ins_per_tick):
            if not _throw_in(t, side, directions, announce_nothing=first):
                break
            first = False


def warned(team: WTeam, round_: int) -> bool:
    """§10: a penalty needs a warning in the round before.  A position from
    before warnings were recorded by round has only their count."""
    if team.warned_round is None:
        return team.warnings > 0
    return team.warned_round == round_ - 1


def _throw_in(
    t: Tick,
    side: Side,
    directions: Callable[[int], Sequence[Direction]],
    *,
    announce_nothing: bool,
) -> bool:
    """Throw in the team's lowest-value held ball; False if it holds none."""
    rules = t.rules
    held = [b for p in t.w.players if p.side == side for b in p.balls]
    if not held:
        if announce_nothing:
            t.emit(0, Kind.PENALTY_NOTHING, {"side": side})
        return False
    ball = min(held, key=_value_rank)
    holder = ball.holder
    assert holder is not None
    holder.balls.remove(ball)
    ball.holder = None
    ball.status = "free"
    ball.cell = rules.throw_in_cell
    ball.catchable = False
    ball.released = True
    ball.thrown_in = True
    ball.pass_ticks_left = 0
    roll_h, height = t.pick(
        0,
        Kind.BALL_HEIGHT,
        {"ball": ball.name, "cell": ball.cell},
        rules.heights,
        [str(h) for h in rules.heights],
    )
    t.emit(
        0,
        Kind.BALL_HEIGHT,
        {"ball": ball.name, "cell": ball.cell, "height": height},
        1 / len(rules.heights),
        roll_h,
    )
    ball.height = height
    ball.direction = t.random_direction(0, ball, directions(ball.cell))
    t.emit(
        0,
        Kind.PENALTY_THROW_IN,
        {
            "side": side,
            "number": holder.number,
            "ball": ball.name,
            "cell": ball.cell,
            "height": height,
            "direction": ball.direction.name,
        },
    )
    return True


def _value_rank(b: WBall) -> tuple[int, int]:
    return b.value, b.rank
