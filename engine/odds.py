"""The odds of orders, from public information only: no dice are rolled.

A player planning his round wants to know, before he commits, how likely
each thing he orders is to work: a catch, a steal, a shot into an open
mouth, and what threatens him on the cells he flies through.  Everything
here is computed from the position everybody sees, the ruleset's tables and
the orders of the player's *own* team — never the other team's orders, a
ball's secret enchantment or where the vanished yellow ball is.

Where a figure depends on something hidden (the other dragon's move, whether
its mouth will be open, whether it fires), the :class:`Chance` says so
(``known=False``: the figure holds *if* the condition does, or, with
``probability=None``, it may happen but nobody can say how likely).  The
other side's pieces are taken where they stand now.  Free balls fly as the
rules say: the course of the next flight is public, later courses are drawn
at random, so their places are a distribution enumerated exactly.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from .geometry import Direction, Side
from .legality import player_path
from .orders import Catch, DragonOrder, Pass, PlayerOrder, RoundOrders, Steal
from .resolution.geo import (
    DIST,
    NEXT,
    dragon_after,
    dragon_cells_problem,
    fire_cells,
    mouth_of,
    on_field_directions,
)
from .ruleset import Ruleset
from .state import BallState, DragonState, MatchState, other_side

__all__ = [
    "Chance",
    "DragonView",
    "OrderOdds",
    "ball_places",
    "catch_chance",
    "catch_share",
    "dangers",
    "dragon_views",
    "order_odds",
    "shot_chance",
    "steal_chance",
    "steal_share",
]

Place = tuple[int, int]  # (cell, height)
Mouth = bool | None  # None: nobody can know yet (the other dragon's move is secret)


@dataclass(frozen=True, slots=True)
class Chance:
    """One figure: ``what`` happens with ``probability`` (None: possible, not
    computable from public information).  ``known`` is False when the figure
    holds only if a hidden condition holds (an open mouth).  ``params`` name
    the ball, dragon, target or cell the text speaks of."""

    what: str  # catch | steal | shot | fire | dragon_body | dragon_head | swallow
    probability: float | None
    known: bool = True
    params: Mapping[str, str | int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class OrderOdds:
    order: PlayerOrder
    chances: tuple[Chance, ...]


@dataclass(frozen=True, slots=True)
class DragonView:
    """A dragon as a player can foresee it on one tick."""

    side: Side
    head: int
    facing: Direction
    height: int
    mouth_open: Mouth
    fire: frozenset[int]  # cells its flame covers this tick, if it surely fires
    may_fire: frozenset[int]  # cells it could cover if it fires (hidden orders)
    fire_probability: float | None  # of the ``may_fire`` cells: None unknown
    dazed: bool

    @property
    def body_tail(self) -> tuple[int, int]:
        after = dragon_after(self.head, self.facing, "stay")
        return (after[2], after[3]) if after is not None else (0, 0)

    @property
    def mouth(self) -> frozenset[int]:
        return mouth_of(self.head, self.facing)


# ---------------------------------------------------------------- tables


def catch_chance(rules: Ruleset, at: Place, held: int, ball: Place) -> tuple[float, str] | None:
    """§4: (chance, where) of a player at ``at`` holding ``held`` balls
    catching a ball at ``ball``, or None out of reach."""
    c = rules.catch
    if held >= c.max_balls_held:
        return None
    second = held > 0
    (cell, height), (b_cell, b_height) = at, ball
    if cell == b_cell:
        if height == b_height:
            same = c.second_same_cell_same_height if second else c.first_same_cell_same_height
            return same, "same_cell_same_height"
        other = c.second_same_cell_other_height if second else c.first_same_cell_other_height
        return other, "same_cell_other_height"
    if DIST[cell][b_cell] == 1 and abs(height - b_height) <= c.adjacent_max_height_diff:
        return (c.second_adjacent if second else c.first_adjacent), "adjacent"
    return None


def catch_share(mine: float, others: Sequence[float]) -> float:
    """§4 several claimants: each rolls his chance, one of those who made it is
    picked at random.  The chance that *this* claimant ends with the ball."""
    return mine * sum(q / (k + 1) for k, q in enumerate(_made(others)))


def _made(others: Sequence[float]) -> list[float]:
    """How many of the others make their rolls: ``[P(0), P(1), …]``, built
    one claimant at a time."""
    made = [1.0]
    for p in others:
        nxt = [0.0] * (len(made) + 1)
        for k, q in enumerate(made):
            nxt[k] += q * (1 - p)
            nxt[k + 1] += q * p
        made = nxt
    return made


def steal_share(mine: float, others: Sequence[float], balls: int, draw: bool = True) -> float:
    """§4 team-mates robbing one holder in the same tick, more of them than he
    has ``balls``: those who made it draw for the balls (``steal.contested =
    "draw"``), or the first in shirt order take them (``draw`` False: pass
    only the team-mates before him).  The chance that *this* one ends with a ball."""
    made = _made(others)
    if not draw:
        return mine * sum(made[:balls])  # fewer than ``balls`` came first
    return mine * sum(q * min(1.0, balls / (k + 1)) for k, q in enumerate(made))


def steal_chance(
    rules: Ruleset, at: Place, held: int, target: Place, target_held: int
) -> tuple[float, str] | None:
    """§4 steal table: [holder's balls][stealer empty-handed or holding]."""
    st = rules.steal
    if held >= rules.catch.max_balls_held or target_held == 0:
        return None
    two, holding = target_held >= 2, held > 0
    if at[0] == target[0]:
        if two:
            return (
                st.two_same_cell_holding if holding else st.two_same_cell_free_hands
            ), "same_cell"
        return (st.one_same_cell_holding if holding else st.one_same_cell_free_hands), "same_cell"
    if DIST[at[0]][target[0]] == 1 and abs(at[1] - target[1]) <= st.adjacent_max_height_diff:
        if two:
            return (st.two_adjacent_holding if holding else st.two_adjacent_free_hands), "adjacent"
        return (st.one_adjacent_holding if holding else st.one_adjacent_free_hands), "adjacent"
    return None


def shot_chance(rules: Ruleset, target: Place, d: DragonView) -> Chance | None:
    """§7: a ball landing on ``target`` near the head of an open-mouthed dragon
    is swallowed with the table's chance (it scores for the thrower's team)."""
    dr = rules.dragon
    cell, height = target
    params: dict[str, str | int] = {"dragon": d.side}
    if cell == d.head:
        same = height == d.height
        p = dr.ball_swallow_same_height if same else dr.ball_swallow_other_height
    elif cell in d.mouth and abs(height - d.height) <= dr.adjacent_max_height_diff:
        p = dr.ball_swallow_adjacent
    else:
        return None
    if d.mouth_open is False:
        return Chance("shot", 0.0, True, params)
    return Chance("shot", p, d.mouth_open is True, params)


def dangers(rules: Ruleset, side: Side, at: Place, views: Iterable[DragonView]) -> list[Chance]:
    """What the dragons may do to a player of ``side`` at ``at`` (§6, §9.3),
    in the order the resolver judges it: fire, body and tail, head, mouth."""
    dr = rules.dragon
    reach = rules.fire.height_reach
    cell, height = at
    out: list[Chance] = []
    for d in views:
        foe = d.dazed or d.side != side
        same = height == d.height
        params: dict[str, str | int] = {"dragon": d.side, "cell": cell}
        in_reach = abs(height - d.height) <= reach
        if in_reach and cell in d.fire:
            out.append(Chance("fire", 1.0, True, params))
            continue
        if in_reach and cell in d.may_fire:
            out.append(Chance("fire", d.fire_probability, d.fire_probability is not None, params))
        body, tail = d.body_tail
        if cell in (body, tail):
            if same and dr.body_same_height_falls:
                out.append(Chance("dragon_body", 1.0, True, params))
            elif not same and foe:
                out.append(Chance("dragon_body", dr.body_knock_probability, True, params))
        elif cell == d.head:
            if d.mouth_open is not True and (same or foe):
                knock = 1.0 if same else dr.head_closed_knock_probability
                out.append(Chance("dragon_head", knock, d.mouth_open is False, params))
            if d.mouth_open is not False and (same or foe):
                p = dr.swallow_same_cell_same_height if same else dr.swallow_same_cell_other_height
                out.append(Chance("swallow", p, d.mouth_open is True, params))
        elif (
            cell in d.mouth
            and d.mouth_open is not False
            and foe
            and abs(height - d.height) <= dr.adjacent_max_height_diff
        ):
            out.append(Chance("swallow", dr.swallow_adjacent, d.mouth_open is True, params))
    return out


# ---------------------------------------------------------------- foreseeing


def dragon_views(
    state: MatchState, rules: Ruleset, orders: RoundOrders, side: Side
) -> dict[int, tuple[DragonView, ...]]:
    """tick → both dragons as ``side`` can foresee them: its own by its orders,
    the other where it stands now, mouth and fire as far as public."""
    out: dict[int, list[DragonView]] = {}
    for d in state.dragons:
        if d.side == side:
            views = _own_dragon(state, rules, orders, d)
        else:
            views = _other_dragon(state, rules, d)
        for tick, view in views.items():
            out.setdefault(tick, []).append(view)
    return {tick: tuple(v) for tick, v in out.items()}


def _ticks(state: MatchState, rules: Ruleset) -> range:
    return range(state.tick + 1, rules.ticks_per_round + 1)


def _random_fire(rules: Ruleset, d: DragonState, head: int, facing: Direction) -> frozenset[int]:
    if d.extinguished or not (d.dazed or d.paralysed):
        return frozenset()
    return frozenset(fire_cells(head, facing, rules.fire.short_cells_depth))


def _own_dragon(
    state: MatchState, rules: Ruleset, orders: RoundOrders, d: DragonState
) -> dict[int, DragonView]:
    """The resolver's own steps (dragons._fly), with the team's orders: the
    team knows where its dragon goes and when it fires."""
    head, facing, height = d.head, d.facing, d.height
    short, volleys, breath = d.short_left, d.volleys_left, d.open_ticks
    sneezing = d.sneezing
    out: dict[int, DragonView] = {}
    for tick in _ticks(state, rules):
        o = orders.dragon_order(d.side, tick) or DragonOrder(d.side, tick)
        move, step = (o.move, o.height_step) if not d.paralysed else ("stay", 0)
        if move != "stay":
            after = dragon_after(head, facing, move)
            if after is None or dragon_cells_problem(d.side, (after[0], after[2], after[3])):
                move = "stay"
            else:
                head, facing = after[0], after[1]
        if step and rules.min_height <= height + step <= rules.max_height:
            height += step
        skipped = move == "stay" and (step == 0 or not rules.dragon.height_step_is_a_move)
        fire: frozenset[int] = frozenset()
        fired = None
        if o.fire is not None and not d.extinguished and not d.dazed:
            if o.fire == "short" and short > 0:
                short, fired = short - 1, "short"
            elif o.fire == "volley" and volleys > 0:
                volleys, fired = volleys - 1, "volley"
        if fired is not None:
            depth = (
                rules.fire.short_cells_depth if fired == "short" else rules.fire.volley_cells_depth
            )
            fire = frozenset(fire_cells(head, facing, depth))
        had_breath = breath > 0
        breath = max(breath - 1, 0)
        if fired is not None:
            after_fire = (
                rules.fire.open_after_short if fired == "short" else rules.fire.open_after_volley
            )
            breath = max(breath, after_fire)
        mouth = (
            sneezing
            or fired is not None
            or had_breath
            or (
                skipped
                and rules.dragon.stay_opens_mouth
                and (not d.paralysed or rules.dragon.paralysed_stay_opens_mouth)
            )
        )
        random = _random_fire(rules, d, head, facing) if fired is None else frozenset()
        out[tick] = DragonView(
            d.side, head, facing, height, mouth, fire, random,
            rules.fire.random_fire_probability if random else None, d.dazed,
        )  # fmt: skip
    return out


def _other_dragon(state: MatchState, rules: Ruleset, d: DragonState) -> dict[int, DragonView]:
    """Where it stands now; its mouth is surely open only while it sneezes,
    catches its breath after a flame or cannot move; otherwise its move decides."""
    out: dict[int, DragonView] = {}
    for i, tick in enumerate(_ticks(state, rules)):
        mouth: Mouth = None
        if (
            d.sneezing
            or d.open_ticks > i
            or (d.paralysed and rules.dragon.paralysed_stay_opens_mouth)
        ):
            mouth = True
        may_fire: frozenset[int] = frozenset()
        probability: float | None = None
        if not d.extinguished:
            if d.dazed or d.paralysed:
                may_fire = _random_fire(rules, d, d.head, d.facing)
                probability = rules.fire.random_fire_probability
            elif d.short_left > 0 or d.volleys_left > 0:
                depth = (
                    rules.fire.volley_cells_depth
                    if d.volleys_left
                    else rules.fire.short_cells_depth
                )
                may_fire = frozenset(fire_cells(d.head, d.facing, depth))
        out[tick] = DragonView(
            d.side, d.head, d.facing, d.height, mouth, frozenset(), may_fire, probability,
            d.dazed,
        )  # fmt: skip
    return out


def ball_places(rules: Ruleset, ball: BallState, flights: int) -> dict[Place, float]:
    """Where a free ball is after ``flights`` more flights (§3), each place with
    its probability: the next course is the one on record, later ones random
    among the directions that stay on the field; a ball that would leave the
    field bounces off the dome into a random such direction."""
    if ball.cell is None or ball.height is None:
        return {}
    speed = rules.balls[ball.name].speed
    places: dict[tuple[int, Direction | None], float] = {(ball.cell, ball.direction): 1.0}
    for _ in range(flights):
        nxt: dict[tuple[int, Direction | None], float] = {}
        for (cell, course), p in places.items():
            for end, q in _flight(cell, course, speed).items():
                # After a flight the next course is drawn at random (a pass's
                # kept course is ignored here: a small, documented shortcut).
                nxt[(end, None)] = nxt.get((end, None), 0.0) + p * q
        places = nxt
    out: dict[Place, float] = {}
    for (cell, _), p in places.items():
        out[(cell, ball.height)] = out.get((cell, ball.height), 0.0) + p
    return out


def _flight(cell: int, course: Direction | None, speed: int) -> dict[int, float]:
    if speed <= 0:
        return {cell: 1.0}
    courses = [course] if course is not None else list(on_field_directions(cell))
    out: dict[int, float] = {}
    for c in courses:
        share = 1.0 / len(courses)
        for end, q in _steps(cell, c, speed).items():
            out[end] = out.get(end, 0.0) + share * q
    return out


def _steps(cell: int, course: Direction, left: int) -> dict[int, float]:
    if left == 0:
        return {cell: 1.0}
    nxt = NEXT[cell][course]
    if nxt:
        return _steps(nxt, course, left - 1)
    allowed = on_field_directions(cell)
    out: dict[int, float] = {}
    for c in allowed:
        for end, q in _steps(NEXT[cell][c], c, left - 1).items():
            out[end] = out.get(end, 0.0) + q / len(allowed)
    return out


# ---------------------------------------------------------------- a team's orders

_NEAR: Final = 1e-12


def order_odds(
    state: MatchState, rules: Ruleset, orders: RoundOrders, side: Side
) -> list[OrderOdds]:
    """The odds of every player order of ``side`` in ``orders``, tick by tick."""
    mine = orders.for_side(side)
    paths = {o.number: player_path(state, mine, rules, side, o.number) for o in mine.players}
    views = dragon_views(state, rules, mine, side)
    out: list[OrderOdds] = []
    for o in sorted(mine.players, key=lambda o: (o.tick, o.number)):
        at = paths[o.number].get(o.tick)
        if at is None:
            out.append(OrderOdds(o, ()))
            continue
        chances: list[Chance] = []
        chances += _action_odds(state, rules, mine, paths, views.get(o.tick, ()), o, at)
        chances += dangers(rules, side, at, views.get(o.tick, ()))
        out.append(OrderOdds(o, tuple(chances)))
    return out


def _held_at(state: MatchState, mine: RoundOrders, o: PlayerOrder) -> int:
    """Balls he holds at the tick: those he starts with, less those his own
    orders pass before it (gains by catches and steals are uncertain, so not
    counted)."""
    player = state.find_player(o.side, o.number)
    if player is None:
        return 0
    held = list(player.balls)
    for earlier in mine.players:
        a = earlier.action
        if (
            earlier.number == o.number
            and earlier.side == o.side
            and earlier.tick < o.tick
            and isinstance(a, Pass)
            and a.ball in held
        ):
            held.remove(a.ball)
    return len(held)


def _action_odds(
    state: MatchState,
    rules: Ruleset,
    mine: RoundOrders,
    paths: Mapping[int, Mapping[int, Place]],
    views: Sequence[DragonView],
    o: PlayerOrder,
    at: Place,
) -> list[Chance]:
    a = o.action
    held = _held_at(state, mine, o)
    if isinstance(a, Catch):
        return _catch_odds(state, rules, mine, paths, o, at, held, a)
    if isinstance(a, Steal):
        target = state.find_player(other_side(o.side), a.target)
        if target is None or target.cell is None or target.height is None:
            return []
        place = (target.cell, target.height)
        r = steal_chance(rules, at, held, place, len(target.balls))
        params: dict[str, str | int] = {"target": a.target, "side": target.side}
        if r is None:
            return [Chance("steal", 0.0, True, params)]
        rivals = _steal_rivals(state, rules, mine, paths, o, place, len(target.balls))
        draw = rules.steal.contested == "draw"
        share = steal_share(r[0], rivals, len(target.balls), draw)
        # He flies too (his orders are secret): the figure holds if he stays put.
        return [Chance("steal", share, False, params)]
    if isinstance(a, Pass):
        out = []
        landing = o.tick + 1 if rules.passes_next_tick else o.tick
        later = {v.side: v for v in _views_on(state, rules, mine, o.side, landing)} or {
            v.side: v for v in views
        }
        enemy = later.get(other_side(o.side))
        if enemy is not None:
            shot = shot_chance(rules, (a.cell, a.height), enemy)
            if shot is not None:
                out.append(
                    Chance("shot", shot.probability, shot.known, {"ball": a.ball, **shot.params})
                )
        return out
    return []


def _steal_rivals(
    state: MatchState,
    rules: Ruleset,
    mine: RoundOrders,
    paths: Mapping[int, Mapping[int, Place]],
    o: PlayerOrder,
    target: Place,
    balls: int,
) -> list[float]:
    """The chances of the team-mates who rob the same holder on the same tick
    and draw with him for his balls (§4; visible: our orders) — under the
    version-2 rule only those before him in shirt order, who come first."""
    out = []
    for other in mine.players:
        a = other.action
        if other.tick != o.tick or other.number == o.number or not isinstance(a, Steal):
            continue
        if not isinstance(o.action, Steal) or a.target != o.action.target:
            continue
        if rules.steal.contested != "draw" and other.number > o.number:
            continue
        there = paths.get(other.number, {}).get(o.tick)
        if there is None:
            continue
        r = steal_chance(rules, there, _held_at(state, mine, other), target, balls)
        if r is not None:
            out.append(r[0])
    return out


def _views_on(
    state: MatchState, rules: Ruleset, mine: RoundOrders, side: Side, tick: int
) -> tuple[DragonView, ...]:
    if tick > rules.ticks_per_round:
        return ()
    return dragon_views(state, rules, mine, side).get(tick, ())


def _catch_odds(
    state: MatchState,
    rules: Ruleset,
    mine: RoundOrders,
    paths: Mapping[int, Mapping[int, Place]],
    o: PlayerOrder,
    at: Place,
    held: int,
    a: Catch,
) -> list[Chance]:
    best: Chance | None = None
    for ball in state.balls:
        if a.ball is not None and ball.name != a.ball:
            continue
        places = _ball_at(state, rules, mine, ball, o.tick)
        if not places:
            continue
        total = 0.0
        for place, p in places.items():
            r = catch_chance(rules, at, held, place)
            if r is None:
                continue
            # Team-mates who claim the same ball on the same tick (visible: our orders).
            rivals = []
            for other in mine.players:
                if other.tick != o.tick or other.number == o.number:
                    continue
                if not isinstance(other.action, Catch) or other.action.ball not in (
                    None,
                    ball.name,
                ):
                    continue
                there = paths.get(other.number, {}).get(o.tick)
                if there is None:
                    continue
                rr = catch_chance(rules, there, _held_at(state, mine, other), place)
                if rr is not None:
                    rivals.append(rr[0])
            total += p * catch_share(r[0], rivals)
        params: dict[str, str | int] = {"ball": ball.name, "second": int(held > 0)}
        chance = Chance("catch", total, True, params)
        if a.ball is not None:
            return [chance]
        if total > _NEAR and (best is None or (best.probability or 0.0) < total):
            best = chance
    if best is not None or a.ball is not None:  # a named ball out of sight: no figure
        return [best] if best is not None else []
    # No ball in sight he could catch: said so, or the line would read as a safe catch.
    return [Chance("catch", 0.0, True, {"second": int(held > 0)})]


def _ball_at(
    state: MatchState, rules: Ruleset, mine: RoundOrders, ball: BallState, tick: int
) -> dict[Place, float]:
    """Where ``ball`` can be caught at ``tick`` (step 4), as far as public."""
    # A pass of ours thrown the tick before lands where it was aimed (§9).
    for o in mine.players:
        if isinstance(o.action, Pass) and o.action.ball == ball.name:
            lands = o.tick + 1 if rules.passes_next_tick else o.tick
            if lands == tick:
                return {(o.action.cell, o.action.height): 1.0}
    if ball.status != "free":  # held, swallowed, burnt, or vanished (not shown)
        return {}
    if ball.pass_to is not None:
        if tick == state.tick + 1:
            return {ball.pass_to: 1.0}
        return {}
    return ball_places(rules, ball, tick - state.tick)
