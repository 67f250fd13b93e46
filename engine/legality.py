"""Legality of orders when they are saved (§7: "validity is checked when the
move is saved").

:func:`check_orders` returns every problem with its reason.  Orders for later
ticks of the round are checked against the position the player's (or
dragon's) own earlier orders lead to; an earlier order that is itself illegal
counts as no order (he stays and drops his balls), as the resolver will treat
it.  The opponents' later positions are unknown, so a steal is refused only
when the target cannot possibly be in reach by then.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .geometry import CELL_COUNT, Side
from .orders import Catch, DragonOrder, Pass, PlayerOrder, RoundOrders, Steal
from .problems import Code, Order, Problem
from .resolution.geo import DIST, dragon_after, dragon_cells_problem
from .ruleset import Ruleset
from .state import MatchState, PlayerState, after_pending, effect_names, other_side

__all__ = ["check_orders", "player_path"]

_MESSAGES: dict[Code, str] = {
    Code.MATCH_ENDED: "the match is over",
    Code.TICK_RANGE: "tick {tick} is not a tick of a round (1..{ticks})",
    Code.TICK_PAST: "tick {tick} is already resolved",
    Code.UNKNOWN_PLAYER: "there is no player {number} in the team",
    Code.OTHER_TEAM: "the order is for the other team",
    Code.NOT_ACTIVE: "player {number} cannot fly: {status}",
    Code.LAUNCH_TICK: "player {number} is in the hospital wing until tick {return_tick} of round {return_round}",
    Code.LAUNCH_CELL: "player {number} must launch from a re-entry cell of his half, not {cell}",
    Code.CELL_INVALID: "there is no cell {cell}",
    Code.HEIGHT_INVALID: "height {height} is not {min}..{max}",
    Code.TOO_FAR: "player {number} cannot fly from {from_cell} to {cell} ({distance} cells, at most {max})",
    Code.HEIGHT_STEP: "player {number} cannot change height from {from_height} to {height} in one tick",
    Code.PASS_NO_BALL: "player {number} does not hold the {ball} ball and cannot get it by then",
    Code.PASS_RANGE: "a pass from {from_cell} to {cell} is {distance} cells; it must be {min}..{max}",
    Code.PASS_YELLOW_RANGE: "the yellow ball can be passed at most {max} cells, not {distance}",
    Code.SPELL_UNKNOWN: "unknown spell {spell}",
    Code.COUNTER_UNKNOWN: "unknown counter-spell {counter}",
    Code.ENCHANT_QUOTA: "no enchanted passes left ({left} left, {ordered} ordered)",
    Code.BALL_UNKNOWN: "there is no {ball} ball",
    Code.BALL_OUT_OF_PLAY: "the {ball} ball is out of play ({status})",
    Code.HANDS_FULL: "player {number} already holds {max} balls",
    Code.STEAL_UNKNOWN: "there is no opponent {target}",
    Code.STEAL_TARGET_OUT: "opponent {target} is not on the field ({status})",
    Code.STEAL_OUT_OF_REACH: "opponent {target} cannot be in reach by then ({distance} cells away)",
    Code.DRAGON_OFF_HALF: "the dragon would leave its half or touch the centre line",
    Code.DRAGON_EDGE: "the dragon would enter an edge cell",
    Code.DRAGON_OFF_FIELD: "the dragon would leave the field",
    Code.DRAGON_HEIGHT: "dragon height {height} is not {min}..{max}",
    Code.DRAGON_HEIGHT_STEP: "a dragon changes height by at most {max} a tick, not {step}",
    Code.DRAGON_PARALYSED: "the paralysed dragon cannot move or change height",
    Code.FIRE_EXTINGUISHED: "the dragon's fire is extinguished",
    Code.FIRE_BUDGET: "no {fire} fire left ({left} left, {ordered} ordered)",
    Code.FIRE_DAZED: "a dazed dragon only spits fire at random",
    Code.FIRE_KIND: "no {fire} flame in these rules (the dragon has: {kinds})",
    Code.SUBST_SWALLOWED: "player {number} is swallowed and cannot be substituted",
    Code.SUBST_NOT_RESERVE: "player {number} cannot take part in this substitution",
    Code.SUBST_UNKNOWN: "there is no player {number} in the team",
    Code.SUBST_TICK: "substitutions are made only before the round's first tick",
    Code.SUBST_INJURED: "reserve {number} is in the hospital wing until round {return_round}",
    Code.PENALTY_TICK: "a penalty cannot be set for tick {tick}",
    Code.PENALTY_NO_WARNING: "the {side} team was not warned in round {round}: no penalty yet",
    Code.GM_ONLY: "only a game master may order a penalty",
    Code.PASS_NOT_A_LINE: "cell {cell} is not on a straight line or a diagonal from {from_cell}",
    Code.DRAGON_ONE_ACTION: "a dragon does one thing a tick: a strike or a flame",
    Code.FIRE_BREATH: "after a fire wall the dragon breathes in: no flame this round and the next",
    Code.DUPLICATE: "a second order for the same tick {tick}",
}


def _problem(code: Code, order: Order | None, at: int | None, /, **params: Any) -> Problem:
    try:
        message = _MESSAGES[code].format(**params)
    except (KeyError, IndexError):
        message = code.value
    return Problem(code, message, order, at, params)


@dataclass(slots=True)
class _Roster:
    """Players as they stand before the first unresolved tick (after any
    substitution of this round)."""

    players: dict[tuple[Side, int], PlayerState] = field(default_factory=dict)


def check_orders(
    state: MatchState, orders: RoundOrders, ruleset: Ruleset, *, side: Side | None = None
) -> list[Problem]:
    """Every problem of ``orders`` in ``state``; ``side`` given, orders for
    the other team are problems too (Code.OTHER_TEAM)."""
    out: list[Problem] = []
    if state.ended:
        for o in _all(orders):
            out.append(_problem(Code.MATCH_ENDED, o, getattr(o, "tick", None)))
        return out
    if ruleset.field.shape == "square":  # the second edition's field and mechanics
        from .legality_square import square_problems

        return square_problems(state, orders, ruleset, side, _problem)
    roster = _substitutions(state, orders, ruleset, side, out)
    mine = [o for o in orders.players if side is None or o.side == side]
    for o in orders.players:
        if side is not None and o.side != side:
            out.append(_problem(Code.OTHER_TEAM, o, o.tick, number=o.number))
    _players(state, mine, ruleset, roster, out)
    for d in orders.dragons:
        if side is not None and d.side != side:
            out.append(_problem(Code.OTHER_TEAM, d, d.tick, number=None))
    _dragons(state, [d for d in orders.dragons if side is None or d.side == side], ruleset, out)
    penalty_problems(state, orders, ruleset, side, out, _problem)
    return out


def penalty_problems(
    state: MatchState,
    orders: RoundOrders,
    ruleset: Ruleset,
    side: Side | None,
    out: list[Problem],
    problem: Any,
    *,
    checked: bool = True,
) -> None:
    """§10 for either edition: only a game master orders a penalty, for a tick
    still to come, after a warning in the round before (``checked`` False: the
    game master's penalties pass unchecked — 001 version 1 played none)."""
    for pen in orders.penalties:
        if side is not None:
            out.append(problem(Code.GM_ONLY, pen, pen.tick))
        elif not checked:
            continue
        elif not state.tick < pen.tick <= ruleset.ticks_per_round:
            out.append(problem(Code.PENALTY_TICK, pen, pen.tick, tick=pen.tick))
        elif ruleset.penalty_needs_warning and not _warned(state, pen.side):
            out.append(
                problem(
                    Code.PENALTY_NO_WARNING, pen, pen.tick, side=pen.side, round=state.round - 1
                )
            )


def _warned(state: MatchState, side: Side) -> bool:
    """§10: warned in the round before (the resolver's rule, start.warned)."""
    team = state.team(side)
    if team.warned_round is None:
        return team.warnings > 0
    return team.warned_round == state.round - 1


def _all(orders: RoundOrders) -> Iterable[Order]:
    yield from orders.players
    yield from orders.dragons
    yield from orders.substitutions
    yield from orders.penalties


def _substitutions(
    state: MatchState,
    orders: RoundOrders,
    ruleset: Ruleset,
    side: Side | None,
    out: list[Problem],
) -> _Roster:
    roster = _Roster({(p.side, p.number): p for p in state.players})
    used: set[tuple[Side, int]] = set()
    for s in orders.substitutions:
        if side is not None and s.side != side:
            out.append(_problem(Code.OTHER_TEAM, s, None, number=s.out_number))
            continue
        if state.tick > 0:
            out.append(_problem(Code.SUBST_TICK, s, None))
            continue
        out_p = roster.players.get((s.side, s.out_number))
        in_p = roster.players.get((s.side, s.in_number))
        if out_p is None or in_p is None:
            missing = s.out_number if out_p is None else s.in_number
            out.append(_problem(Code.SUBST_UNKNOWN, s, None, number=missing))
            continue
        if (s.side, s.out_number) in used or (s.side, s.in_number) in used:
            out.append(_problem(Code.DUPLICATE, s, None, number=s.out_number, tick=0))
            continue
        if out_p.status == "swallowed":
            out.append(_problem(Code.SUBST_SWALLOWED, s, None, number=s.out_number))
            continue
        if out_p.status == "reserve":
            out.append(_problem(Code.SUBST_NOT_RESERVE, s, None, number=s.out_number))
            continue
        if in_p.status != "reserve":
            out.append(_problem(Code.SUBST_NOT_RESERVE, s, None, number=s.in_number))
            continue
        if in_p.return_round is not None and in_p.return_round > state.round:
            out.append(
                _problem(
                    Code.SUBST_INJURED,
                    s,
                    None,
                    number=s.in_number,
                    return_round=in_p.return_round,
                )
            )
            continue
        used.update({(s.side, s.out_number), (s.side, s.in_number)})
        # As the resolver will do it (§8, interpretation).
        hospital = out_p.status == "hospital"
        roster.players[(s.side, s.in_number)] = PlayerState(
            s.side,
            s.in_number,
            in_p.name,
            out_p.status,
            out_p.cell,
            out_p.height,
            out_p.balls,
            state.round if hospital else None,
        )
        roster.players[(s.side, s.out_number)] = PlayerState(
            s.side, s.out_number, out_p.name, "reserve", None, None, (), out_p.return_round
        )
    return roster


def _by_player(
    orders: list[PlayerOrder], out: list[Problem]
) -> dict[tuple[Side, int], dict[int, PlayerOrder]]:
    grouped: dict[tuple[Side, int], dict[int, PlayerOrder]] = {}
    for o in orders:
        ticks = grouped.setdefault((o.side, o.number), {})
        if o.tick in ticks:
            out.append(_problem(Code.DUPLICATE, o, o.tick, number=o.number, tick=o.tick))
        else:
            ticks[o.tick] = o
    return grouped


def _tick_problem(state: MatchState, ruleset: Ruleset, tick: int) -> Code | None:
    if not 1 <= tick <= ruleset.ticks_per_round:
        return Code.TICK_RANGE
    if tick <= state.tick:
        return Code.TICK_PAST
    return None


def _players(
    state: MatchState,
    orders: list[PlayerOrder],
    ruleset: Ruleset,
    roster: _Roster,
    out: list[Problem],
) -> None:
    enchanted: dict[Side, list[PlayerOrder]] = {"left": [], "right": []}
    for (side, number), ticks in _by_player(orders, out).items():
        player = roster.players.get((side, number))
        for tick, o in sorted(ticks.items()):
            code = _tick_problem(state, ruleset, tick)
            if code is not None:
                out.append(_problem(code, o, tick, tick=tick, ticks=ruleset.ticks_per_round))
        if player is None:
            for o in ticks.values():
                out.append(_problem(Code.UNKNOWN_PLAYER, o, o.tick, number=number))
            continue
        _PlayerWalk(state, ruleset, roster, player, ticks, out, enchanted).run()
    for side, passes in enchanted.items():
        left = state.team(side).enchanted_left
        passes.sort(key=lambda o: (o.tick, o.number))
        for i, o in enumerate(passes):
            if i >= left:
                out.append(_problem(Code.ENCHANT_QUOTA, o, o.tick, left=left, ordered=i + 1))


class _PlayerWalk:
    """One player's own orders tick by tick, from the current position."""

    def __init__(
        self,
        state: MatchState,
        ruleset: Ruleset,
        roster: _Roster,
        player: PlayerState,
        ticks: dict[int, PlayerOrder],
        out: list[Problem],
        enchanted: dict[Side, list[PlayerOrder]],
    ) -> None:
        self.state = state
        self.rules = ruleset
        self.roster = roster
        self.player = player
        self.ticks = ticks
        self.out = out
        self.enchanted = enchanted
        self.status = player.status
        self.cell = player.cell
        self.height = player.height
        self.held = set(player.balls)
        self.may_get = False  # a catch or steal earlier in the round
        self.path: dict[int, tuple[int, int]] = {}

    def add(self, code: Code, o: PlayerOrder, **params: Any) -> None:
        self.out.append(_problem(code, o, o.tick, **params))

    def run(self) -> dict[int, tuple[int, int]]:
        rules = self.rules
        state = self.state
        p = self.player
        for tick in range(state.tick + 1, rules.ticks_per_round + 1):
            o = self.ticks.get(tick)
            if self.status == "hospital":
                self._hospital(tick, o)
            elif self.status == "active" and self.cell is None:
                # Launched where the judge put him: his position is unknown.
                if o is not None and 1 <= o.cell < len(DIST):
                    self.cell, self.height = o.cell, o.height
                    self._action(o)
            elif self.status != "active" or self.cell is None or self.height is None:
                if o is not None:
                    self.add(Code.NOT_ACTIVE, o, number=p.number, status=self.status)
            elif o is None:
                self.held.clear()  # §4: no order, he drops his balls
            elif self._flight(o):
                self._action(o)
            else:
                self.held.clear()
            if self.status == "active" and self.cell is not None and self.height is not None:
                self.path[tick] = (self.cell, self.height)
        return self.path

    def _hospital(self, tick: int, o: PlayerOrder | None) -> None:
        rules = self.rules
        p = self.player
        back = p.return_round if p.return_round is not None else self.state.round
        if tick != rules.hospital_return_tick or back > self.state.round:
            if o is not None:
                self.add(
                    Code.LAUNCH_TICK,
                    o,
                    number=p.number,
                    tick=tick,
                    return_round=back,
                    return_tick=rules.hospital_return_tick,
                )
            return
        self.status = "active"
        self.held.clear()
        if o is None:
            self.cell = self.height = None  # he launches where the judge puts him
            return
        ok = True
        if o.cell not in rules.reentry(p.side):
            self.add(Code.LAUNCH_CELL, o, number=p.number, cell=o.cell)
            ok = False
        if not rules.min_height <= o.height <= rules.max_height:
            self.add(
                Code.HEIGHT_INVALID, o, height=o.height, min=rules.min_height, max=rules.max_height
            )
            ok = False
        if ok:
            self.cell, self.height = o.cell, o.height
            self._action(o)
        else:
            self.cell = self.height = None

    def _flight(self, o: PlayerOrder) -> bool:
        rules = self.rules
        assert self.cell is not None and self.height is not None
        ok = True
        if not 1 <= o.cell < len(DIST):
            self.add(Code.CELL_INVALID, o, cell=o.cell, max=CELL_COUNT)
            ok = False
        elif DIST[self.cell][o.cell] > rules.player_speed:
            self.add(
                Code.TOO_FAR,
                o,
                number=o.number,
                from_cell=self.cell,
                cell=o.cell,
                distance=DIST[self.cell][o.cell],
                max=rules.player_speed,
            )
            ok = False
        if not rules.min_height <= o.height <= rules.max_height:
            self.add(
                Code.HEIGHT_INVALID, o, height=o.height, min=rules.min_height, max=rules.max_height
            )
            ok = False
        elif abs(o.height - self.height) > rules.player_height_step:
            self.add(
                Code.HEIGHT_STEP,
                o,
                number=o.number,
                from_height=self.height,
                height=o.height,
                max=rules.player_height_step,
            )
            ok = False
        if ok:
            self.cell, self.height = o.cell, o.height
        return ok

    def _action(self, o: PlayerOrder) -> None:
        a = o.action
        if isinstance(a, Pass):
            self._pass(o, a)
        elif isinstance(a, Steal):
            self._steal(o, a)
        elif isinstance(a, Catch):
            self._catch(o, a)

    def _ball_problem(self, o: PlayerOrder, ball: str) -> bool:
        if ball not in self.rules.balls:
            self.add(Code.BALL_UNKNOWN, o, ball=ball)
            return True
        try:
            status = self.state.ball(ball).status
        except ValueError:
            status = "free"
        if status in ("swallowed", "burnt", "out"):
            self.add(Code.BALL_OUT_OF_PLAY, o, ball=ball, status=status)
            return True
        return False

    def _hands_full(self, o: PlayerOrder) -> bool:
        limit = self.rules.catch.max_balls_held
        if len(self.held) >= limit:
            self.add(Code.HANDS_FULL, o, number=o.number, max=limit)
            return True
        return False

    def _pass(self, o: PlayerOrder, a: Pass) -> None:
        rules = self.rules
        if self._ball_problem(o, a.ball):
            return
        bad = False
        if a.ball not in self.held and not self.may_get:
            self.add(Code.PASS_NO_BALL, o, number=o.number, ball=a.ball)
            bad = True
        if not 1 <= a.cell < len(DIST):
            self.add(Code.CELL_INVALID, o, cell=a.cell, max=CELL_COUNT)
            bad = True
        elif self.cell is not None:
            dist = DIST[self.cell][a.cell]
            top = rules.pass_range(a.ball)
            if dist > top and top < rules.pass_max_distance and dist <= rules.pass_max_distance:
                self.add(
                    Code.PASS_YELLOW_RANGE,
                    o,
                    from_cell=self.cell,
                    cell=a.cell,
                    distance=dist,
                    max=top,
                )
                bad = True
            elif not rules.pass_min_distance <= dist <= top:
                self.add(
                    Code.PASS_RANGE,
                    o,
                    ball=a.ball,
                    from_cell=self.cell,
                    cell=a.cell,
                    distance=dist,
                    min=rules.pass_min_distance,
                    max=top,
                )
                bad = True
        if not rules.min_height <= a.height <= rules.max_height:
            self.add(
                Code.HEIGHT_INVALID, o, height=a.height, min=rules.min_height, max=rules.max_height
            )
            bad = True
        if a.spell is not None:
            if rules.counter_for(a.spell) is None:
                self.add(Code.SPELL_UNKNOWN, o, spell=a.spell)
                bad = True
            elif not bad:
                self.enchanted[o.side].append(o)
        self.held.discard(a.ball)

    def _steal(self, o: PlayerOrder, a: Steal) -> None:
        self._hands_full(o)
        self.may_get = True
        target = self.roster.players.get((other_side(o.side), a.target))
        if target is None:
            self.add(Code.STEAL_UNKNOWN, o, target=a.target)
            return
        rules = self.rules
        if target.status == "hospital":
            back = target.return_round if target.return_round is not None else self.state.round
            if back > self.state.round or o.tick < rules.hospital_return_tick:
                self.add(Code.STEAL_TARGET_OUT, o, target=a.target, status=target.status)
            return  # where he launches is unknown
        if target.status != "active" or target.cell is None:
            self.add(Code.STEAL_TARGET_OUT, o, target=a.target, status=target.status)
            return
        if self.cell is None:
            return
        dist = DIST[self.cell][target.cell]
        if dist > 1 + (o.tick - self.state.tick):
            self.add(Code.STEAL_OUT_OF_REACH, o, target=a.target, distance=dist)

    def _catch(self, o: PlayerOrder, a: Catch) -> None:
        self._hands_full(o)
        self.may_get = True
        if a.ball is not None:
            self._ball_problem(o, a.ball)
        if a.counter is not None and a.counter not in self.rules.counter_names:
            self.add(Code.COUNTER_UNKNOWN, o, counter=a.counter)


def player_path(
    state: MatchState, orders: RoundOrders, ruleset: Ruleset, side: Side, number: int
) -> dict[int, tuple[int, int]]:
    """Where a player's own orders take him: tick → (cell, height) for the
    ticks after ``state.tick`` on which his position is known (an illegal
    order leaves him where he was)."""
    roster = _substitutions(state, orders, ruleset, None, [])
    player = roster.players.get((side, number))
    if player is None:
        return {}
    ticks: dict[int, PlayerOrder] = {}
    for o in orders.players:
        if o.side == side and o.number == number:
            ticks.setdefault(o.tick, o)
    return _PlayerWalk(state, ruleset, roster, player, ticks, [], {"left": [], "right": []}).run()


# ---------------------------------------------------------------- dragons


def _dragons(
    state: MatchState, orders: list[DragonOrder], ruleset: Ruleset, out: list[Problem]
) -> None:
    grouped: dict[Side, dict[int, DragonOrder]] = {}
    for o in orders:
        ticks = grouped.setdefault(o.side, {})
        code = _tick_problem(state, ruleset, o.tick)
        if code is not None:
            out.append(_problem(code, o, o.tick, tick=o.tick, ticks=ruleset.ticks_per_round))
        elif o.tick in ticks:
            out.append(_problem(Code.DUPLICATE, o, o.tick, number=None, tick=o.tick))
        else:
            ticks[o.tick] = o
    for side, ticks in grouped.items():
        _dragon_walk(state, ruleset, side, ticks, out)


def _dragon_walk(
    state: MatchState,
    rules: Ruleset,
    side: Side,
    ticks: dict[int, DragonOrder],
    out: list[Problem],
) -> None:
    d = state.dragon(side)
    effect = d.effect
    paralysed, extinguished = d.paralysed, d.extinguished
    height = d.height
    effect, started = after_pending(effect, d.pending_effects)  # before the next tick
    paralysed = paralysed or "paralyse" in started
    extinguished = extinguished or "extinguish" in started
    if paralysed:
        height = rules.dragon.paralysed_height
    head, facing = d.head, d.facing
    budget = {"short": d.short_left, "volley": d.volleys_left}
    used = {"short": 0, "volley": 0}
    for tick in sorted(ticks):
        o = ticks[tick]
        if paralysed and (o.move != "stay" or o.height_step):
            out.append(_problem(Code.DRAGON_PARALYSED, o, tick, side=side))
        else:
            if o.move != "stay":
                after = dragon_after(head, facing, o.move)
                code = (
                    Code.DRAGON_OFF_FIELD
                    if after is None
                    else dragon_cells_problem(side, (after[0], after[2], after[3]))
                )
                if code is not None or after is None:
                    cells = [] if after is None else [after[0], after[2], after[3]]
                    out.append(
                        _problem(code or Code.DRAGON_OFF_FIELD, o, tick, side=side, cells=cells)
                    )
                else:
                    head, facing = after[0], after[1]
            if o.height_step:
                new = height + o.height_step
                if abs(o.height_step) > rules.dragon_height_step:
                    out.append(
                        _problem(
                            Code.DRAGON_HEIGHT_STEP,
                            o,
                            tick,
                            step=o.height_step,
                            max=rules.dragon_height_step,
                        )
                    )
                elif not rules.min_height <= new <= rules.max_height:
                    out.append(
                        _problem(
                            Code.DRAGON_HEIGHT,
                            o,
                            tick,
                            height=new,
                            min=rules.min_height,
                            max=rules.max_height,
                        )
                    )
                else:
                    height = new
        if o.fire is None:
            continue
        if extinguished:
            out.append(_problem(Code.FIRE_EXTINGUISHED, o, tick, side=side))
        elif "daze" in effect_names(effect):
            out.append(_problem(Code.FIRE_DAZED, o, tick, side=side))
        elif o.fire not in budget:  # the second edition's jet or wall, say
            out.append(_problem(Code.FIRE_KIND, o, tick, fire=o.fire, kinds=", ".join(budget)))
        else:
            used[o.fire] += 1
            if used[o.fire] > budget[o.fire]:
                out.append(
                    _problem(
                        Code.FIRE_BUDGET,
                        o,
                        tick,
                        fire=o.fire,
                        left=budget[o.fire],
                        ordered=used[o.fire],
                    )
                )
