"""Dragons: their flight, mouth and fire (step 1), swallowing balls (steps 2
and 7), meeting players (step 3), goals and the balls' magic (§6, §7)."""

from __future__ import annotations

from collections.abc import Callable

from ..events import Kind
from ..problems import Code
from ..ruleset import EFFECTS
from ..state import effect_names, other_side
from .contact import hold_on
from .context import Tick
from .geo import NEXT, dragon_after, dragon_cells_problem, fire_cells, mouth_of, on_field_directions
from .work import WBall, WDragon, WPlayer

__all__ = [
    "burn_balls",
    "danger_check",
    "dragons_fly",
    "dragons_meet_players",
    "score_goal",
    "swallow_ball",
    "swallow_freed_balls",
    "swallow_landed_passes",
    "swallow_player",
]


def dragons_fly(t: Tick) -> None:
    for d in t.w.dragons:
        _fly(t, d)


def _fly(t: Tick, d: WDragon) -> None:
    rules = t.rules
    o = t.orders.dragons.get((d.side, t.tick))
    move = o.move if o is not None else "stay"
    h_step = o.height_step if o is not None else 0
    refused: str | None = None
    if d.paralysed and (move != "stay" or h_step):
        refused, move, h_step = Code.DRAGON_PARALYSED.value, "stay", 0
    if move != "stay":
        after = dragon_after(d.head, d.facing, move)
        code = (
            Code.DRAGON_OFF_FIELD
            if after is None
            else dragon_cells_problem(d.side, (after[0], after[2], after[3]))
        )
        if code is not None or after is None:
            # §2: an impossible move (it should have been refused when saved):
            # the dragon stays instead.
            refused, move = (code or Code.DRAGON_OFF_FIELD).value, "stay"
        else:
            d.head, d.facing, d.body, d.tail = after
    if h_step:
        height = d.height + h_step
        if abs(h_step) > rules.dragon_height_step or not (
            rules.min_height <= height <= rules.max_height
        ):
            refused, h_step = refused or Code.DRAGON_HEIGHT.value, 0
        else:
            d.height = height
    t.emit(
        1,
        Kind.DRAGON_MOVE,
        {
            "side": d.side,
            "move": move,
            "height_step": h_step,
            "head": d.head,
            "facing": d.facing.name,
            "height": d.height,
            "cells": [d.head, d.body, d.tail],
            "ordered": o is not None,
            "refused": refused,
        },
    )
    skipped = move == "stay" and (h_step == 0 or not rules.dragon.height_step_is_a_move)
    _fire(t, d, o.fire if o is not None else None)
    # §6, §9.1: when the mouth is open this tick.
    breath = d.open_ticks > 0
    if breath:
        d.open_ticks -= 1
    if d.fire is not None:
        after_fire = (
            rules.fire.open_after_short if d.fire == "short" else rules.fire.open_after_volley
        )
        d.open_ticks = max(d.open_ticks, after_fire)
    if d.effect is not None and "sneeze" in effect_names(d.effect):
        is_open, reason = True, "sneeze"
    elif d.fire is not None:
        is_open, reason = True, "fire"
    elif breath:
        is_open, reason = True, "breath"
    elif (
        skipped
        and rules.dragon.stay_opens_mouth
        and (not d.paralysed or rules.dragon.paralysed_stay_opens_mouth)
    ):
        is_open, reason = True, "stay"
    else:
        is_open, reason = False, "paralysed" if d.paralysed else "moved"
    d.mouth_open = is_open
    d.mouth = mouth_of(d.head, d.facing)
    t.emit(1, Kind.DRAGON_MOUTH, {"side": d.side, "open": is_open, "reason": reason})


def _dazed(d: WDragon) -> bool:
    return d.effect is not None and "daze" in effect_names(d.effect)


def _fire(t: Tick, d: WDragon, ordered: str | None) -> None:
    fire = t.rules.fire
    kind: str | None = None
    if ordered is not None:
        if d.extinguished:
            reason: str | None = "extinguished"
        elif _dazed(d):
            reason = "dazed"
        elif (d.short_left if ordered == "short" else d.volleys_left) <= 0:
            reason = "budget"
        else:
            reason = None
        if reason is not None:
            t.emit(1, Kind.FIRE_REFUSED, {"side": d.side, "fire": ordered, "reason": reason})
        else:
            kind = ordered
            if ordered == "short":
                d.short_left -= 1
            else:
                d.volleys_left -= 1
    random = False
    # §6: a dazed or paralysed dragon spits short flames at random.
    if (
        kind is None
        and (_dazed(d) or d.paralysed)
        and not d.extinguished
        and t.chance(1, Kind.RANDOM_FIRE_ROLL, {"side": d.side}, fire.random_fire_probability)
    ):
        kind, random = "short", True
    if kind is None:
        return
    depth = fire.short_cells_depth if kind == "short" else fire.volley_cells_depth
    cells = fire_cells(d.head, d.facing, depth)
    d.fire = kind
    d.fire_set = frozenset(cells)
    t.emit(
        1,
        Kind.FIRE,
        {
            "side": d.side,
            "fire": kind,
            "cells": list(cells),
            "random": random,
            "short_left": d.short_left,
            "volleys_left": d.volleys_left,
        },
    )


# ---------------------------------------------------------------- goals


def swallow_ball(t: Tick, step: int, d: WDragon, b: WBall) -> None:
    """A goal: the ball scores for the team that does not own ``d`` (§1) and
    its magic takes hold next tick; pepper spits the swallowed players at once."""
    score = score_goal(t, step, d, b)
    effect = t.rules.balls[b.name].effect
    if d.pending and d.pending_step == step and t.rules.dragon.simultaneous_swallows == "together":
        # §1: a ball swallowed at the same moment is not "the next ball": the
        # balls of one moment take effect together, whatever their order.
        group = (*effect_names(d.pending[-1]), effect)
        d.pending[-1] = "+".join(sorted(group, key=EFFECTS.index))
    else:
        d.pending.append(effect)
    d.pending_step = step
    t.emit(step, Kind.EFFECT_PENDING, {"dragon": d.side, "effect": effect})
    if effect == "pepper":
        _spit(t, step, d)
    t.emit(step, Kind.SCORE, dict(score))


def score_goal(t: Tick, step: int, d: WDragon, b: WBall) -> dict[str, int]:
    """Any edition's goal: ``d`` swallows ``b``, which scores for the other
    team; returns the new score (the edition applies the ball's magic)."""
    holder = b.holder
    if holder is not None:
        holder.balls.remove(b)
        b.holder = None
    b.status = "swallowed"
    b.swallowed_by = d.side
    b.cell = d.head
    b.height = d.height
    b.direction = None
    b.pass_ticks_left = 0
    b.spell = None
    b.enchanted_by = None
    b.pass_to = None
    b.passer = None
    b.passed = b.released = b.catchable = False
    d.swallowed_balls.append(b.name)
    teams = t.w.teams
    scorer = other_side(d.side)
    teams[scorer].score += b.value
    score = {"left": teams["left"].score, "right": teams["right"].score}
    t.emit(
        step,
        Kind.GOAL,
        {
            "ball": b.name,
            "dragon": d.side,
            "scorer_side": scorer,
            "points": b.value,
            "score": score,
        },
    )
    return score


def swallow_player(
    t: Tick, step: int, d: WDragon, p: WPlayer, goal: Callable[[Tick, int, WDragon, WBall], None]
) -> None:
    """Any edition: ``d`` swallows ``p``; the balls he holds go down with him
    and score, each through the edition's ``goal``."""
    balls = tuple(p.balls)
    t.emit(
        step,
        Kind.PLAYER_SWALLOWED,
        {
            "dragon": d.side,
            "side": p.side,
            "number": p.number,
            "balls": [b.name for b in balls],
        },
    )
    p.status = "swallowed"
    p.swallowed_by = d.side
    p.cell = p.height = None
    p.out_this_tick = True
    d.swallowed_players.append(p.ref)
    for b in balls:
        goal(t, step, d, b)


def _spit(t: Tick, step: int, d: WDragon) -> None:
    """§8: the pepper ball makes the dragon spit out every swallowed player;
    they launch on the return tick of the next round."""
    if not d.swallowed_players:
        return
    back = t.round + 1
    for ref in d.swallowed_players:
        p = t.w.by_key.get((ref.side, ref.number))
        if p is not None and p.status == "swallowed":
            p.status = "hospital"
            p.swallowed_by = None
            p.return_round = back
    t.emit(
        step,
        Kind.PLAYERS_SPAT,
        {
            "dragon": d.side,
            "players": [r.to_json() for r in d.swallowed_players],
            "return_round": back,
        },
    )
    d.swallowed_players = []


def danger_check(t: Tick, step: int, b: WBall) -> None:
    """§7: a ball landed by a pass (step 2) or freed this tick (step 7) near a
    head: swallowed by an open mouth with its chance, or bounced off a closed one.
    A pass still in the air beside its passer (§9.7 "мячей, пасованных с тех
    клеток…") is judged where he threw it, by open mouths only."""
    dr = t.rules.dragon
    cell = b.cell
    in_air = b.pass_to is not None
    for d in t.w.dragons:
        at_head = cell == d.head
        if not at_head and cell not in d.mouth:
            continue
        b.danger_checked = True
        if d.mouth_open:
            assert b.height is not None
            if at_head:
                same = b.height == d.height
                p = dr.ball_swallow_same_height if same else dr.ball_swallow_other_height
                where = "head_same_height" if same else "head_other_height"
            elif abs(b.height - d.height) <= dr.adjacent_max_height_diff:
                p, where = dr.ball_swallow_adjacent, "adjacent"
            else:
                continue
            data = {
                "ball": b.name,
                "dragon": d.side,
                "cell": cell,
                "height": b.height,
                "where": where,
            }
            if t.chance(step, Kind.BALL_SWALLOW_ROLL, data, p):
                swallow_ball(t, step, d, b)
                return
        elif at_head and not in_air:
            _bounce_off_head(t, step, d, b)
            return


def _bounce_off_head(t: Tick, step: int, d: WDragon, b: WBall) -> None:
    """§7: a closed mouth: the ball bounces off the head in a random direction
    (one cell away, off the dragon) and is free, uncatchable this tick."""
    choices = [x for x in on_field_directions(d.head) if NEXT[d.head][x] != d.body]
    roll, direction = t.pick(
        step,
        Kind.BALL_BOUNCE,
        {"ball": b.name, "cell": d.head, "reason": "closed_mouth"},
        choices,
        [c.name for c in choices],
    )
    cell = NEXT[d.head][direction]
    b.cell = cell
    b.direction = direction
    b.pass_ticks_left = 0
    b.passed = False
    b.catchable = False
    b.released = True
    t.emit(
        step,
        Kind.BALL_BOUNCE,
        {"ball": b.name, "cell": cell, "direction": direction.name, "reason": "closed_mouth"},
        1 / len(choices),
        roll,
    )


def swallow_landed_passes(t: Tick) -> None:
    """Step 2."""
    for b in t.w.balls:
        if b.passed and b.status == "free":
            danger_check(t, 2, b)


def swallow_freed_balls(t: Tick) -> None:
    """Step 7.  A ball already judged near a head at step 2 this tick is not
    judged again: one chance a tick, or an uncaught shot would get two."""
    for b in t.w.balls:
        if b.released and b.status == "free" and not b.danger_checked:
            danger_check(t, 7, b)


# ---------------------------------------------------------------- players


def dragons_meet_players(t: Tick) -> None:
    """Step 3, after the players' collisions: body and tail, the head with the
    mouth closed or open, and the fire (§6, §9.3)."""
    dr = t.rules.dragon
    reach = t.rules.fire.height_reach
    for d in t.w.dragons:
        zone = d.fire_set | d.mouth | {d.head, d.body, d.tail}
        dazed = _dazed(d)
        for p in t.w.players:
            cell = p.cell
            if p.status != "active" or cell not in zone:
                continue
            height = p.height
            assert cell is not None and height is not None
            foe = dazed or p.side != d.side
            same = height == d.height
            # Out of the flame's height reach, a mouth cell in the cone is
            # still a mouth cell: the open-mouth rules below apply (§6).
            if cell in d.fire_set and abs(height - d.height) <= reach:
                t.fall(3, p, "fire")
            elif cell == d.body or cell == d.tail:
                part = "body" if cell == d.body else "tail"
                if same:
                    if dr.body_same_height_falls:
                        t.fall(3, p, "dragon_" + part)
                elif foe and _knock(t, d, p, part, dr.body_knock_probability):
                    t.fall(3, p, "dragon_" + part)
            elif cell == d.head:
                if not d.mouth_open:
                    if same or (foe and _knock(t, d, p, "head", dr.head_closed_knock_probability)):
                        t.fall(3, p, "dragon_head")
                elif same:
                    _swallow_roll(t, d, p, "head_same_height", dr.swallow_same_cell_same_height)
                elif foe:
                    _swallow_roll(t, d, p, "head_other_height", dr.swallow_same_cell_other_height)
            elif (
                cell in d.mouth
                and d.mouth_open
                and foe
                and abs(height - d.height) <= dr.adjacent_max_height_diff
            ):
                _swallow_roll(t, d, p, "adjacent", dr.swallow_adjacent)


def _knock(t: Tick, d: WDragon, p: WPlayer, part: str, prob: float) -> bool:
    data = {"dragon": d.side, "side": p.side, "number": p.number, "part": part}
    if t.chance(3, Kind.DRAGON_KNOCK_ROLL, data, prob):
        return True
    if t.rules.dragon.knock_survivor_loses_actions:
        # §9.3а: a knock is "a collision with the consequences of a collision
        # with a player": he holds on and loses this tick's actions (on the
        # body and tail whatever the mouth, docs/rules.md §6).
        hold_on(t, p, {"side": p.side, "number": p.number, "dragon": d.side, "part": part})
    return False


def _swallow_roll(t: Tick, d: WDragon, p: WPlayer, where: str, prob: float) -> None:
    data = {"dragon": d.side, "side": p.side, "number": p.number, "where": where}
    if t.chance(3, Kind.SWALLOW_ROLL, data, prob):
        # His balls go down with him and score (§9.3б); pepper spits him out again.
        swallow_player(t, 3, d, p, swallow_ball)


def burn_balls(t: Tick) -> None:
    """Interpretation (``fire.burns_free_balls``): fire destroys free balls."""
    if not t.rules.fire.burns_free_balls:
        return
    reach = t.rules.fire.height_reach
    for d in t.w.dragons:
        if not d.fire_set:
            continue
        for b in t.w.balls:
            if (
                (b.status == "free" or b.status == "vanished")
                and b.cell in d.fire_set
                and b.height is not None
                and abs(b.height - d.height) <= reach
            ):
                b.status = "burnt"
                b.direction = None
                b.passed = b.released = b.catchable = False
                t.emit(3, Kind.BALL_BURNT, {"ball": b.name, "dragon": d.side, "cell": b.cell})
