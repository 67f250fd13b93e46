"""The built-in captains on the second edition's square field (seed 001).

Players chase free balls (catching them plainly), rob a carrier from the
next cell, carry a ball to the cell beside the other dragon's head and
throw at the head from there; a team-mate's enchanted pass in flight is
met within one cell with the right counter-spell.  Everyone says the safety
spell every tick (it costs nothing) and keeps off the dragons' cells.  The
dragon breathes a jet at an opponent beside its head when it may, strikes
with the tail or wings at opponents there, and otherwise walks towards the
nearest opponent carrier, turning as it must, keeping out of the other
dragon's reach (a fight puts both back at the start).

``careful=False`` (the random captain) picks its moves among the legal ones
at random, fires and strikes at random and shoots from wherever it may.
"""

from __future__ import annotations

from ..dice import Dice
from ..field import SquareField
from ..geometry import Direction, Side
from ..orders import Catch, DragonMove, DragonOrder, Pass, PlayerOrder, RoundOrders, Steal
from ..ruleset import Ruleset
from ..square_dragon import dragon_cells, turn_cells
from ..state import DragonState, MatchState, PlayerState, other_side

__all__ = ["square_orders"]


def _cells(field: SquareField, d: DragonState) -> tuple[int, int, int]:
    cells = dragon_cells(field, d.head, d.facing, d.mark("turn") or 0, d.mark("turn_step") or 0)
    return cells if cells else (d.head, d.head, d.head)


def square_orders(
    state: MatchState, rules: Ruleset, side: Side, dice: Dice, *, careful: bool = True
) -> RoundOrders:
    field = rules.field
    assert isinstance(field, SquareField)
    ticks = range(state.tick + 1, rules.ticks_per_round + 1)
    foe = other_side(side)
    target = state.dragon(foe)
    own = state.dragon(side)
    blocked = set(_cells(field, target)) | set(_cells(field, own))
    head_ring = [c for c in field.neighbours(target.head) if c not in blocked]
    free_balls = [
        b for b in state.balls if b.status == "free" and b.cell is not None and not b.spell
    ]
    orders: list[PlayerOrder] = []
    claimed: set[str] = set()
    for p in state.team_players(side):
        start_tick = ticks.start
        if (
            p.status == "hospital"
            and p.return_round == state.round
            and (p.mark("return_tick") or 0) >= start_tick
        ):
            # back this round from the cell of his fall (001): orders from then on
            cell, height = p.mark("return_cell") or 1, p.mark("return_height") or 1
            start_tick = p.mark("return_tick") or start_tick
        elif p.status != "active" or p.cell is None or p.height is None:
            continue
        else:
            cell, height = p.cell, p.height
        chase = None
        if not p.balls:
            options = [b for b in free_balls if b.name not in claimed] or free_balls
            if options:
                assert options[0].cell is not None
                chase = min(options, key=lambda b: (field.distance(cell, b.cell or 1), b.name))
                claimed.add(chase.name)
        for tick in range(start_tick, ticks.stop):
            action: Pass | Catch | Steal | None = None
            goal_height = height
            if p.balls:
                ball = p.balls[0]
                if (
                    field.distance(cell, target.head) == 1 and abs(height - target.height) <= 1
                ) or (
                    not careful and dice.chance(0.2)[1] and field.distance(cell, target.head) == 1
                ):
                    action = Pass(ball, target.head, target.height)
                    dest = cell
                else:
                    goal = min(head_ring, key=lambda c: (field.distance(cell, c), c), default=cell)
                    dest = _step_to(field, cell, goal, blocked, dice, careful)
                    goal_height = target.height
            else:
                carrier = _carrier_near(state, field, foe, cell, height)
                if carrier is not None:
                    action = Steal(carrier.number)
                    dest = cell
                else:
                    aim = chase.cell if chase is not None and chase.cell else field.centre_cell
                    if chase is not None and chase.height is not None:
                        goal_height = chase.height
                    dest = _step_to(field, cell, aim, blocked, dice, careful)
                    action = Catch(chase.name if chase is not None else None)
                    flying = _our_pass(state, field, side, dest)
                    if flying is not None:
                        action = Catch(flying[0], flying[1])
            new_height = height + (goal_height > height) - (goal_height < height)
            if dest in blocked and new_height in (own.height, target.height):
                new_height = max(rules.min_height, min(rules.max_height, new_height + 1))
                if new_height in (own.height, target.height):
                    dest = cell
            orders.append(PlayerOrder(side, p.number, tick, dest, new_height, action, safety=True))
            cell, height = dest, new_height
    dragons = _dragon_orders(state, rules, field, side, ticks, dice, careful)
    return RoundOrders(players=tuple(orders), dragons=tuple(dragons))


def _step_to(
    field: SquareField, cell: int, goal: int, blocked: set[int], dice: Dice, careful: bool
) -> int:
    options = [cell, *field.neighbours(cell)]
    if not careful and dice.chance(0.3)[1]:
        return dice.pick(options)[1]
    options.sort(key=lambda c: (c in blocked, field.distance(c, goal), c))
    return options[0]


def _carrier_near(
    state: MatchState, field: SquareField, foe: Side, cell: int, height: int
) -> PlayerState | None:
    for q in state.team_players(foe):
        if (
            q.status == "active"
            and q.balls
            and q.cell is not None
            and q.height is not None
            and field.distance(cell, q.cell) <= 1
            and abs(q.height - height) <= 1
        ):
            return q
    return None


def _our_pass(
    state: MatchState, field: SquareField, side: Side, cell: int
) -> tuple[str, str] | None:
    """A team-mate's enchanted pass within a cell of ``cell``: (ball, counter)."""
    for b in state.balls:
        if (
            b.status == "free"
            and b.spell
            and b.enchanted_by == side
            and b.cell is not None
            and field.distance(cell, b.cell) <= 2
        ):
            for pair in _spells(state):
                if pair[0] == b.spell:
                    return b.name, pair[1]
    return None


def _spells(state: MatchState) -> tuple[tuple[str, str], ...]:
    from ..ruleset import load_ruleset

    rules = load_ruleset(state.ruleset)
    return tuple((s.spell, s.counter) for s in rules.spells)


def _dragon_orders(
    state: MatchState,
    rules: Ruleset,
    field: SquareField,
    side: Side,
    ticks: range,
    dice: Dice,
    careful: bool,
) -> list[DragonOrder]:
    d = state.dragon(side)
    other = state.dragon(other_side(side))
    out: list[DragonOrder] = []
    if d.mark("asleep"):
        return out
    foes = [
        q
        for q in state.team_players(other_side(side))
        if q.status == "active" and q.cell is not None and q.height is not None
    ]
    per_round = rules.ticks_per_round
    now = (state.round - 1) * per_round
    jet_ready = d.mark("jet_ready") or 0
    breath = (d.mark("breath_round") or 0) >= state.round or d.extinguished
    turning = bool(d.mark("turn"))
    head, facing = d.head, d.facing
    tail_cell = _cells(field, d)[2]
    turn_q, turn_step = d.mark("turn") or 0, d.mark("turn_step") or 0
    for tick in ticks:
        fire = None
        fire_dir: Direction | None = None
        strike = None
        move: DragonMove = "stay"
        if turning:
            move = "left" if turn_q < 0 else "right"
            turn_step += 1
            cells = turn_cells(field, tail_cell, facing, turn_q, turn_step)
            if cells is not None:
                head = cells[0]
            if turn_step >= 3:
                facing = field.turned(facing, turn_q)
                turning = False
        else:
            aim = _aim(state, field, side, foes, head)
            ahead = field.step(head, facing)
            far = ahead is not None and all(
                field.distance(c, o) > 2
                for c in (dragon_cells(field, ahead, facing) or (ahead,))
                for o in _cells(field, other)
            )
            want = field.towards(head, aim) if aim else None
            if (
                ahead is not None
                and dragon_cells(field, ahead, facing)
                and far
                and (want is None or want == facing or (not careful and dice.chance(0.5)[1]))
            ):
                move = "forward"
                head = ahead
                tail_cell = field.step(head, field.opposite(facing), 2) or tail_cell
            elif (want is not None and want != facing and careful) or (
                not careful and dice.chance(0.2)[1]
            ):
                q = 1 if want == field.turned(facing, 1) else -1
                last = turn_cells(field, tail_cell, facing, q, 3)
                first = turn_cells(field, tail_cell, facing, q, 1)
                safe = last is not None and all(
                    field.distance(c, o) > 2 for c in last for o in _cells(field, other)
                )
                if last is not None and first is not None and safe:
                    move = "left" if q < 0 else "right"
                    turning, turn_q, turn_step = True, q, 1
                    head = first[0]
        abs_tick = now + tick
        if not breath and jet_ready <= abs_tick:
            for foe in foes:
                assert foe.cell is not None and foe.height is not None
                if field.distance(foe.cell, head) == 1 and abs(foe.height - d.height) <= 1:
                    fire, fire_dir = "jet", field.towards(head, foe.cell)
                    jet_ready = abs_tick + 3
                    break
        if fire is None and not careful and dice.chance(0.1)[1]:
            strike = "tail" if dice.chance(0.5)[1] else "wings"
        out.append(
            DragonOrder(
                side,
                tick,
                move,
                0,
                fire,  # type: ignore[arg-type]
                fire_dir,
                strike,  # type: ignore[arg-type]
            )
        )
    return out


def _aim(
    state: MatchState, field: SquareField, side: Side, foes: list[PlayerState], head: int
) -> int | None:
    carriers = [q for q in foes if q.balls and q.cell is not None]
    pool = carriers or foes
    if not pool:
        return None
    best = min(pool, key=lambda q: (field.distance(head, q.cell or 1), q.number))
    return best.cell
