"""The greedy policy's dragon: it keeps its mouth shut while a ball carrier
could shoot into it, goes for the opponent it can hurt, breathes fire when
opponents are in reach of the flame, and rests with its mouth open (where it
swallows whoever comes too close) when nobody threatens it.

A dragon moves one cell forward or turns 60° about its body; turning back
and forth only to keep the mouth shut is what this avoids: a turn is taken
to face or reach someone, a move that brings it no nearer is worth nothing.
"""

from __future__ import annotations

from functools import cache

from ..geometry import Direction, half_of
from ..orders import DragonMove, FireKind, Pass
from ..resolution.geo import DIST, danger_cells, fire_cells
from ..state import PlayerState, effect_names
from .common import Team, dragon_body, dragon_moves

__all__ = ["mouth_forced_open", "plan_dragon"]


def plan_dragon(team: Team, tick: int, last: DragonMove | None, guess: bool = False) -> DragonMove:
    """Order ``team``'s dragon for ``tick``; returns the move, for the next tick.
    ``guess``: read by the other side (:mod:`.foresight`), who cannot know
    where this team's carriers fly: it may rest beside them."""
    d = team.dragon
    rules = team.rules
    steps = team.dragon_height_steps()
    opponents = [o for o in team.opponents if o.cell is not None and o.height is not None]
    carriers = [o for o in opponents if o.balls]
    risk = _Risk(team, carriers)
    # An open mouth swallows a ball set free beside it — one a team-mate drops or
    # loses there: points for the other side (§7).  Then it does not rest either.
    # (A ball in free flight never flies into an open mouth's reach, §5.)
    # So does a pass a team-mate throws from beside it this tick (§9.7).
    loose_cells = [
        p.cell
        for p in team.plans
        if p.cell is not None
        and (p.held or (tick in p.orders and isinstance(p.orders[tick].action, Pass)))
    ]
    height = _height(steps, d.height)
    options: list[tuple[DragonMove, int, Direction, int]] = []
    moves: tuple[tuple[DragonMove, int, Direction], ...] = (
        (("stay", d.head, d.facing),) if d.paralysed else dragon_moves(team.side, d.head, d.facing)
    )
    for move, head, facing in moves:
        if move != "stay":
            options.append((move, head, facing, height - d.height))
            continue
        options.append((move, head, facing, 0))  # rests: the mouth opens (§9.1)
        if rules.dragon.height_step_is_a_move and not d.paralysed:
            # Hovering up or down is a move: the mouth stays shut without a turn.
            options.extend((move, head, facing, s) for s in steps if s)
    # Sneezing or catching its breath, its mouth is open whatever it does:
    # then it keeps away from the carriers (swallowed, their balls score, §6)
    # and goes for the others.
    forced = mouth_forced_open(team, tick)
    empty = [o for o in opponents if not o.balls]
    target = _target(team, empty) if forced else _target(team, carriers or opponents)
    might_rest: frozenset[int] = frozenset()
    can_fire = d.can_fire and bool(d.short_left or d.volleys_left)
    # Team-mates where they fly this tick (planned before the dragon): its
    # cells at its height knock them down, and dazed it treats them as
    # opponents at any height, its open mouth included (§1, §6).
    dazed = "daze" in effect_names(d.effect)
    flying = [(p.cell, p.height) for p in team.plans if p.cell is not None and p.height is not None]
    previous = d.orders[-1] if d.orders else None
    last_step = previous.height_step if previous is not None and previous.move == "stay" else 0
    best = options[0]
    best_key: tuple[float, ...] | None = None
    for m in options:
        move, head, facing, step = m
        rests = move == "stay" and step == 0
        # A turn or a height step undone the next tick only keeps the mouth
        # shut: taken only to spare a team-mate or keep a shot out.
        undone = {last, move} == {"left", "right"} or (
            move == "stay" and step != 0 and step == -last_step
        )
        zone = dragon_body(head, facing)
        if dazed and (rests or forced):
            zone = zone | danger_cells(head, facing)
        # At its height a team-mate falls for sure; dazed, at another with 50%.
        knocks = sum(
            2 if h == d.height + step else 1
            for c, h in flying
            if c in zone and (dazed or h == d.height + step)
        )
        threat = risk.value(head, tick)
        loose = any(DIST[c][head] <= 1 for c in loose_cells)
        open_ = rests or forced
        swallow = sum(1 for o in empty if o.cell in danger_cells(head, facing)) if open_ else 0
        exposure = threat if forced else 0
        # Read by the other side, a team-mate beside the head may well fly off:
        # the dragon may rest after all (a hazard to keep clear of).
        if rests and (
            (loose and not guess) or not risk.allows(threat, REST_RISK if swallow else 0)
        ):
            # The mouth would be open with a shot coming (worth it only to swallow
            # someone, and only for a small ball), or a ball near.
            continue
        if rests and swallow:
            might_rest = danger_cells(head, facing)
        fire_now = 0
        if can_fire and not loose and risk.allows(risk.value(head, tick, tick + 1), FIRE_RISK):
            cone = set(fire_cells(head, facing, rules.fire.short_cells_depth))
            aims = carriers if threat else opponents
            fire_now = sum(
                1 for o in aims if o.cell in cone and _in_reach(team, o, d.height + step)
            )
        # Nearer the one it goes for, and facing him (its flame reaches him).
        near = DIST[head][target] + (target not in facing_cells(head, facing)) if target else 0
        idle = rests and not opponents_in_half(team)
        kind = "rest" if rests else "hover" if move == "stay" else move
        key = (
            exposure,
            knocks,
            undone,
            -fire_now,
            -swallow,
            near,
            0 if idle else 1,
            ("forward", "rest", "hover", "left", "right").index(kind),
            abs(d.height + step - 2),
        )
        if best_key is None or key < best_key:
            best, best_key = m, key
    move, head, facing, h_step = best
    height = d.height + h_step
    fire: FireKind | None = None
    # Fire opens the mouth for a tick or two (§6): only when few shots could
    # come in meanwhile, and with a shot coming only at the carriers.
    threat = risk.value(head, tick)
    burnable = [o for o in (carriers if threat else opponents) if _in_reach(team, o, height)]
    if d.can_fire and burnable and not any(DIST[c][head] <= 1 for c in loose_cells):
        targets = [o.cell for o in burnable]
        # The flame burns everyone in it (§6): never where a team-mate will be.
        mates = {
            p.cell
            for p in team.plans
            if p.cell is not None
            and p.height is not None
            and abs(p.height - height) <= rules.fire.height_reach
        }
        volley = set(fire_cells(head, facing, rules.fire.volley_cells_depth))
        short = set(fire_cells(head, facing, rules.fire.short_cells_depth))
        if (
            d.volleys_left > 0
            and not volley & mates
            and sum(c in volley for c in targets) >= 3
            and risk.allows(risk.value(head, tick, tick + rules.fire.open_after_volley), FIRE_RISK)
        ):
            fire = "volley"
        elif (
            d.short_left > 0
            and not short & mates
            and sum(c in short for c in targets) >= 1
            and risk.allows(risk.value(head, tick, tick + rules.fire.open_after_short), FIRE_RISK)
        ):
            fire = "short"
    d.might_rest = might_rest if not (move == "stay" and h_step == 0) else frozenset()
    team.dragon_order(tick, move, head, facing, h_step, fire)
    return move


# The points a dragon risks when it opens its mouth: a shot may come in if at
# most this much could be thrown into it (resting, firing) — when its team is
# level or ahead; behind, none.
REST_RISK = 5
FIRE_RISK = 5


class _Risk:
    """What could be shot into an open mouth at a tick: a ball lands the tick
    after it is thrown (§9), from within its pass range of the mouth's cells,
    by a carrier who has flown one cell a tick since the round began; at the
    round's first tick only the passes already in the air can land."""

    def __init__(self, team: Team, carriers: list[PlayerState]) -> None:
        rules = team.rules
        self.first = team.first_tick
        self.carriers = [
            (
                o.cell or 0,
                max(rules.pass_range(b) for b in o.balls),
                max(rules.balls[b].value for b in o.balls),
            )
            for o in carriers
        ]
        self.in_air = [
            (b.pass_to[0], rules.balls[b.name].value)
            for b in team.state.balls
            if b.pass_to is not None and b.status == "free"
        ]
        # Balls an opponent may win during the round — robbed from one of us or
        # caught free — and shoot a tick later: (where, the tick he may have it
        # by, its range, its value).  A flame planned at the round's start must
        # not leave the mouth open for them.
        opponents = [o.cell for o in team.opponents if o.cell is not None]
        loose: list[tuple[int, int, int]] = [
            (p.cell, rules.pass_range(b), rules.balls[b].value)
            for p in team.plans
            if p.cell is not None
            for b in p.player.balls
        ]
        loose.extend(
            (b.cell, rules.pass_range(b.name), rules.balls[b.name].value)
            for b in team.state.balls
            if b.status == "free" and b.cell is not None and b.pass_to is None
        )
        self.loose = [
            (c, self.first + max(0, min(DIST[c][o] for o in opponents) - 1), reach, v)
            for c, reach, v in loose
            if opponents
        ]

        # A goal that would leave the other side a lead larger than what is
        # still in play ends the match (§1): never risked, however small.
        state = team.state
        in_play = sum(
            rules.balls[b.name].value
            for b in state.balls
            if b.status != "swallowed" and b.status != "burnt"
        )
        self.in_play = in_play
        self.lead = state.team(team.foe).score - state.team(team.side).score

    def allows(self, value: int, limit: int) -> bool:
        if self.lead > 0:
            limit = 0  # behind, it risks no goal at all: each one makes it worse
        return value <= limit and (not value or self.lead + 2 * value <= self.in_play)

    def value(self, head: int, tick: int, last: int | None = None) -> int:
        """The most points that could land in a mouth open at ``head`` from
        ``tick`` to ``last``."""
        row = DIST[head]
        worst = 0
        for t in range(tick, (last or tick) + 1):
            flown = t - self.first  # cells a carrier flies before he throws
            if flown == 0:
                total = sum(v for c, v in self.in_air if row[c] <= 1)
                if self.lead > 0:
                    # Behind, not even a carrier who might fly into its reach
                    # (swallowed, his balls score, §6).
                    total += sum(v for c, _, v in self.carriers if row[c] <= 2)
            else:
                total = sum(v for c, reach, v in self.carriers if row[c] - 1 - flown <= reach)
                # Won at tick ``won``, thrown a tick later at the soonest.
                total += sum(
                    v
                    for c, won, reach, v in self.loose
                    if t - won >= 2 and row[c] - 1 - (t - 1 - won) <= reach
                )
            worst = max(worst, total)
        return worst


def mouth_forced_open(team: Team, tick: int) -> bool:
    """Is ``team``'s dragon's mouth open at ``tick`` whatever it is ordered:
    catching its breath after a flame, sneezing, paralysed (§6, §9.1)?  Its
    orders before ``tick`` are those already planned."""
    d = team.dragon
    rules = team.rules
    if d.paralysed or "sneeze" in effect_names(d.effect):
        return True
    if team.state.dragon(team.side).open_ticks > tick - team.first_tick:
        return True
    for o in d.orders:
        if o.fire is not None and o.tick < tick:
            after = (
                rules.fire.open_after_short if o.fire == "short" else rules.fire.open_after_volley
            )
            if tick - o.tick <= after:
                return True
    return False


@cache
def facing_cells(head: int, facing: Direction) -> frozenset[int]:
    """The cells ahead of a head, as far as a volley burns."""
    return frozenset(fire_cells(head, facing, 3))


def opponents_in_half(team: Team) -> bool:
    """Is any opponent on the field in this dragon's half (where it can reach)?"""
    return any(o.cell is not None and half_of(o.cell) == team.side for o in team.opponents)


def _target(team: Team, players: list[PlayerState]) -> int:
    """The cell it goes for: the nearest of ``players`` to its head (carriers
    first), none (0) when nobody is in its half."""
    d = team.dragon
    if not players or not opponents_in_half(team):
        return 0
    o = min(players, key=lambda o: (DIST[d.head][o.cell or 0], o.number))
    return o.cell or 0


def _in_reach(team: Team, o: PlayerState, height: int) -> bool:
    return o.height is not None and abs(o.height - height) <= team.rules.fire.height_reach


def _height(steps: list[int], height: int) -> int:
    """Height 2 when it can get there: its flame reaches all three heights."""
    return height + min(steps, key=lambda s: (abs(height + s - 2), abs(s)))
