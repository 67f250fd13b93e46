"""Players with players and balls: collisions (step 3), catching passes
(step 4), steals (step 5) and catching balls in free flight (step 6), §4, §5."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..events import Kind
from ..orders import Catch, Pass, Steal
from ..ruleset import Ruleset
from ..state import other_side
from .context import Tick, player_label
from .geo import DIST
from .work import WBall, WPlayer

__all__ = [
    "catch_free_balls",
    "catch_passes",
    "catch_reach",
    "catch_roll",
    "collisions",
    "hold_on",
    "steals",
]


def collisions(t: Tick) -> None:
    """§4: two on one cell and height: one falls, the other with a chance or
    holds on; three or more: all fall."""
    groups: dict[tuple[int, int], list[WPlayer]] = {}
    for p in t.w.players:
        if p.status == "active" and p.cell is not None and p.height is not None:
            groups.setdefault((p.cell, p.height), []).append(p)
    for (cell, height), group in groups.items():
        if len(group) < 2:
            continue
        t.emit(
            3,
            Kind.COLLISION,
            {"cell": cell, "height": height, "players": [p.ref.to_json() for p in group]},
        )
        if len(group) > 2:
            for p in group:
                t.fall(3, p, "collision")
            continue
        roll, first = t.pick(
            3,
            Kind.COLLISION_PICK,
            {"cell": cell, "height": height},
            group,
            [player_label(p.side, p.number) for p in group],
        )
        second = group[1] if first is group[0] else group[0]
        t.emit(
            3,
            Kind.COLLISION_PICK,
            {"cell": cell, "height": height, "side": first.side, "number": first.number},
            0.5,
            roll,
        )
        t.fall(3, first, "collision")
        data = {"side": second.side, "number": second.number}
        if t.chance(3, Kind.COLLISION_SECOND, data, t.rules.collision_second_falls):
            t.fall(3, second, "collision")
            continue
        hold_on(t, second, data)


def hold_on(t: Tick, p: WPlayer, data: Mapping[str, Any]) -> None:
    """§4, §9.3: he keeps his balls but loses every action chosen for the
    tick: a catch or steal, and a pass when passes are thrown at step 4."""
    if p.held_on:
        return
    p.held_on = True
    t.emit(3, Kind.HELD_ON, dict(data))
    if _has_action(t, p):
        _lost(t, 3, p, "held_on")


def _has_action(t: Tick, p: WPlayer) -> bool:
    o = p.order
    if o is None or o.action is None:
        return False
    return not isinstance(o.action, Pass) or t.rules.passes_next_tick


def _lost(t: Tick, step: int, p: WPlayer, reason: str) -> None:
    assert p.order is not None
    a = p.order.action
    action = "catch" if isinstance(a, Catch) else "pass" if isinstance(a, Pass) else "steal"
    t.emit(
        step,
        Kind.ACTION_LOST,
        {"side": p.side, "number": p.number, "action": action, "reason": reason},
    )


def catch_reach(rules: Ruleset, p: WPlayer, b: WBall) -> tuple[float, str, bool] | None:
    """(chance, where, second ball) of ``p`` catching ``b``, or None (§4)."""
    c = rules.catch
    held = len(p.balls)
    if held >= c.max_balls_held or p.cell is None or b.cell is None:
        return None
    second = held > 0
    assert p.height is not None and b.height is not None
    if p.cell == b.cell:
        if p.height == b.height:
            prob = c.second_same_cell_same_height if second else c.first_same_cell_same_height
            return prob, "same_cell_same_height", second
        prob = c.second_same_cell_other_height if second else c.first_same_cell_other_height
        return prob, "same_cell_other_height", second
    if DIST[p.cell][b.cell] == 1 and abs(p.height - b.height) <= c.adjacent_max_height_diff:
        return (c.second_adjacent if second else c.first_adjacent), "adjacent", second
    return None


def catch_roll(
    t: Tick, step: int, p: WPlayer, b: WBall, prob: float, where: str, second: bool
) -> bool:
    """Any edition: ``p``'s roll to catch ``b`` with his chance ``prob``."""
    data = {"side": p.side, "number": p.number, "ball": b.name, "where": where, "second": second}
    return t.chance(step, Kind.CATCH_ROLL, data, prob)


def _catchers(t: Tick) -> list[WPlayer]:
    return [
        p
        for p in t.w.players
        if p.status == "active"
        and not p.held_on
        and p.order is not None
        and isinstance(p.order.action, Catch)
    ]


def catch_passes(t: Tick) -> None:
    """Step 4.  Each catch order aims at one ball: the one it names, or the
    one in reach with the best chance (ties: higher value, then ball order).
    Passes are claimed now; balls in free flight at step 6."""
    rules = t.rules
    for p in t.w.players:
        # (a player who held on already lost his action at step 3)
        if p.out_this_tick and not p.held_on and _has_action(t, p):
            _lost(t, 4, p, "fell" if p.status == "hospital" else p.status)
    passes = [b for b in t.w.balls if b.passed and b.status == "free"]
    free = [b for b in t.w.balls if b.catchable and b.status == "free"]
    candidates = passes + free
    claims: dict[str, list[WPlayer]] = {}
    for p in _catchers(t):
        assert p.order is not None and isinstance(p.order.action, Catch)
        named = p.order.action.ball
        best: WBall | None = None
        best_key = (-1.0, 0, 0)
        for b in candidates:
            if named is not None and b.name != named:
                continue
            r = catch_reach(rules, p, b)
            if r is None:
                continue
            key = (r[0], b.value, -b.rank)
            if key > best_key:
                best, best_key = b, key
        p.catch_target = best
        if best is None:
            p.catch_step = 0
            p.catch_note = _nothing_reason(rules, p, named, candidates, t)
        elif best.passed:
            p.catch_step = 4
            claims.setdefault(best.name, []).append(p)
        else:
            p.catch_step = 6
    for b in passes:
        if b.name in claims:
            _claim(t, 4, b, claims[b.name], from_pass=True)
        if b.status == "free":
            # An uncaught pass flies on freely, keeping its direction (§5),
            # and may be swallowed at step 7.
            b.passed = False
            b.released = True
            t.emit(
                4,
                Kind.PASS_MISSED,
                {
                    "ball": b.name,
                    "cell": b.cell,
                    "height": b.height,
                    "direction": b.direction.name if b.direction is not None else None,
                },
            )


def _nothing_reason(
    rules: Ruleset, p: WPlayer, named: str | None, candidates: list[WBall], t: Tick
) -> str:
    if len(p.balls) >= rules.catch.max_balls_held:
        return "hands_full"
    if named is None:
        return "none_in_reach"
    ball = t.w.by_name.get(named)
    if ball is None:
        return "ball_unknown"
    if ball not in candidates:
        return "not_catchable"
    return "out_of_reach"


def catch_free_balls(t: Tick) -> None:
    """Step 6: balls that were in free flight at the start of the tick (§9.6)."""
    rules = t.rules
    claims: dict[str, list[WPlayer]] = {}
    for p in _catchers(t):
        if p.catch_step == 4:
            continue
        b = p.catch_target
        if p.catch_step == 6 and b is not None and b.status == "free" and b.catchable:
            if catch_reach(rules, p, b) is not None:
                claims.setdefault(b.name, []).append(p)
                continue
            p.catch_note = "hands_full"
        assert p.order is not None and isinstance(p.order.action, Catch)
        t.emit(
            6,
            Kind.CATCH_NOTHING,
            {
                "side": p.side,
                "number": p.number,
                "ball": p.order.action.ball,
                "reason": p.catch_note or "not_catchable",
            },
        )
    for b in t.w.balls:
        if b.name in claims:
            _claim(t, 6, b, claims[b.name], from_pass=False)


def _claim(t: Tick, step: int, b: WBall, claimants: list[WPlayer], *, from_pass: bool) -> None:
    """§4 several claimants: each rolls his chance; one of those who made it is
    picked at random.  §5: an enchanted ball gives itself only to the right
    counter-spell and otherwise knocks the picked player down."""
    rules = t.rules
    made: list[WPlayer] = []
    for p in claimants:
        r = catch_reach(rules, p, b)
        if r is None:
            continue
        if catch_roll(t, step, p, b, *r):
            made.append(p)
    if not made:
        return
    winner = made[0]
    if len(made) > 1:
        roll, winner = t.pick(
            step,
            Kind.CATCH_PICK,
            {"ball": b.name},
            made,
            [player_label(p.side, p.number) for p in made],
        )
        t.emit(
            step,
            Kind.CATCH_PICK,
            {
                "ball": b.name,
                "side": winner.side,
                "number": winner.number,
                "candidates": [p.ref.to_json() for p in made],
            },
            1 / len(made),
            roll,
        )
    if b.spell is not None:
        assert winner.order is not None and isinstance(winner.order.action, Catch)
        counter = winner.order.action.counter
        data = {"side": winner.side, "number": winner.number, "ball": b.name, "spell": b.spell}
        if counter is None or counter != rules.counter_for(b.spell):
            # The bludger: it knocks him down and flies on, still enchanted.
            t.emit(step, Kind.BLUDGER, data)
            b.catchable = False
            b.released = True
            t.fall(step, winner, "bludger")
            return
        t.emit(step, Kind.DISENCHANT, {**data, "counter": counter})
        b.spell = None
        b.enchanted_by = None
    b.status = "held"
    b.holder = winner
    winner.balls.append(b)
    b.cell, b.height = winner.cell, winner.height
    b.direction = None
    b.pass_ticks_left = 0
    b.passed = b.released = b.catchable = False
    t.emit(
        step,
        Kind.CATCH,
        {"side": winner.side, "number": winner.number, "ball": b.name, "from_pass": from_pass},
    )


def steals(t: Tick) -> None:
    """Step 5 (§4).  Chances are read from the position at the start of the
    step, so the order in which steals are resolved gives no one an edge;
    a ball caught in this step cannot be stolen in it."""
    rules = t.rules
    st = rules.steal
    max_held = rules.catch.max_balls_held
    stealers = [
        p
        for p in t.w.players
        if p.status == "active"
        and not p.held_on
        and p.order is not None
        and isinstance(p.order.action, Steal)
    ]
    if not stealers:
        return
    for p in t.w.players:
        p.start_balls = tuple(p.balls)
    draw = st.contested == "draw"
    # holder -> the team-mates who have robbed him so far this step (all who
    # succeeded, with a ball or not): a late one draws against them (v3).
    robbers: dict[tuple[str, int], int] = {}
    for p in stealers:
        assert p.order is not None and isinstance(p.order.action, Steal)
        number = p.order.action.target
        data = {"side": p.side, "number": p.number, "target": number}
        target = t.w.by_key.get((other_side(p.side), number))
        reason: str | None = None
        where = ""
        if len(p.start_balls) >= max_held:
            reason = "hands_full"
        elif target is None or target.status != "active" or target.cell is None:
            reason = "target_out"
        elif not target.start_balls:
            reason = "no_ball"
        else:
            assert p.cell is not None and p.height is not None and target.height is not None
            if p.cell == target.cell:
                where = "same_cell"
            elif (
                DIST[p.cell][target.cell] == 1
                and abs(p.height - target.height) <= st.adjacent_max_height_diff
            ):
                where = "adjacent"
            else:
                reason = "out_of_reach"
        if reason is not None or target is None:
            t.emit(5, Kind.STEAL_NOTHING, {**data, "reason": reason})
            continue
        two = len(target.start_balls) >= 2
        holding = bool(p.start_balls)
        if where == "same_cell":
            if two:
                prob = st.two_same_cell_holding if holding else st.two_same_cell_free_hands
            else:
                prob = st.one_same_cell_holding if holding else st.one_same_cell_free_hands
        elif two:
            prob = st.two_adjacent_holding if holding else st.two_adjacent_free_hands
        else:
            prob = st.one_adjacent_holding if holding else st.one_adjacent_free_hands
        if not t.chance(5, Kind.STEAL_ROLL, {**data, "where": where}, prob):
            continue
        takeable = [b for b in target.balls if b in target.start_balls]
        key = (target.side, target.number)
        robbers[key] = robbers.get(key, 0) + 1
        if not takeable and draw and len(p.balls) < max_held:
            _contest(t, p, target, robbers[key], data)
            continue
        if not takeable or len(p.balls) >= max_held:
            t.emit(5, Kind.STEAL_NOTHING, {**data, "reason": "taken"})
            continue
        p_pick: float | None = None
        roll: float | None = None
        ball = takeable[0]
        if len(takeable) > 1:
            roll, ball = t.pick(5, Kind.STEAL, data, takeable, [b.name for b in takeable])
            p_pick = 1 / len(takeable)
        target.balls.remove(ball)
        p.balls.append(ball)
        ball.holder = p
        t.emit(5, Kind.STEAL, {**data, "ball": ball.name}, p_pick, roll)


def _contest(t: Tick, p: WPlayer, target: WPlayer, claimants: int, data: dict[str, Any]) -> None:
    """Step 5, version 3: ``p`` robbed ``target`` too, but team-mates of his
    have already taken every ball he held this step.  Of the ``claimants``
    who succeeded, each ends with a ball alike, as a fair draw among them
    would give (as for catching, §4): drawn claimant by claimant — a late one
    wins with the number of balls over the number of claimants and takes the
    ball of one holder — so the dice are those of version 2 whenever nobody
    contests."""
    won = [
        b
        for b in target.start_balls
        if b.holder is not None and b.holder is not target and b.holder.side == p.side
    ]
    rivals = sorted({b.holder.number for b in won if b.holder is not None})
    info: dict[str, Any] = {**data, "rivals": rivals}
    if len(won) == 1:
        info["ball"] = won[0].name
    if not won or not t.chance(5, Kind.STEAL_PICK, info, len(won) / claimants):
        return
    ball = won[0]
    if len(won) > 1:
        roll, ball = t.pick(5, Kind.STEAL_PICK, info, won, [b.name for b in won])
    loser = ball.holder
    assert loser is not None
    if len(won) > 1:  # which of the two holders gives his up
        t.emit(
            5,
            Kind.STEAL_PICK,
            {**info, "ball": ball.name, "from": loser.number},
            1 / len(won),
            roll,
        )
    loser.balls.remove(ball)
    p.balls.append(ball)
    ball.holder = p
