"""The greedy policy's dragon: it keeps its mouth shut while a ball carrier
could shoot into it, goes for the opponent it can hurt, breathes fire when
opponents are in reach of the flame, and rests with its mouth open (where it
swallows whoever comes too close) when nobody threatens it.

A dragon moves one cell forward or turns 60° about its body; turning back
and forth only to keep the mouth shut is what this avoids: a turn is taken
to face or reach someone, a move that brings it no nearer is worth nothing.
"""

from __future__ import annotations

from ..geometry import Direction, half_of
from ..orders import DragonMove, FireKind
from ..resolution.geo import DIST, danger_cells, fire_cells
from ..state import PlayerState
from .common import Team, dragon_moves

__all__ = ["plan_dragon"]


def plan_dragon(team: Team, tick: int, last: DragonMove | None) -> DragonMove:
    """Order ``team``'s dragon for ``tick``; returns the move, for the next tick."""
    d = team.dragon
    rules = team.rules
    steps = team.dragon_height_steps()
    opponents = [o for o in team.opponents if o.cell is not None and o.height is not None]
    carriers = [o for o in opponents if o.balls]
    # A carrier within his shot's reach of the head could score into an open mouth.
    threat = any(
        DIST[o.cell or 0][d.head] <= max(rules.pass_range(b) for b in o.balls) + 1 for o in carriers
    )
    # An open mouth swallows a ball set free beside it — one a team-mate drops or
    # loses there: points for the other side (§7).  Then it does not rest either.
    # (A ball in free flight never flies into an open mouth's reach, §5.)
    loose = any(p.held and p.cell is not None and DIST[p.cell][d.head] <= 2 for p in team.plans)
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
    target = _target(team, carriers or opponents)
    best = options[0]
    best_key: tuple[float, ...] | None = None
    for m in options:
        move, head, facing, step = m
        rests = move == "stay" and step == 0
        if rests and (threat or loose):
            continue  # the mouth would be open with a shot coming, or a ball near
        cone = set(fire_cells(head, facing, rules.fire.short_cells_depth))
        aims = carriers if threat else opponents
        hits = sum(1 for o in aims if o.cell in cone and _in_reach(team, o, d.height + step))
        fire_now = hits if d.can_fire and (d.short_left or d.volleys_left) else 0
        swallow = sum(1 for o in opponents if o.cell in danger_cells(head, facing)) if rests else 0
        near = DIST[head][target] if target else 0
        back = 1 if {last, move} == {"left", "right"} else 0
        idle = rests and not opponents_in_half(team)
        kind = "rest" if rests else "hover" if move == "stay" else move
        key = (
            -fire_now,
            -swallow,
            near,
            back,
            0 if idle else 1,
            ("forward", "rest", "hover", "left", "right").index(kind),
            abs(d.height + step - 2),
        )
        if best_key is None or key < best_key:
            best, best_key = m, key
    move, head, facing, h_step = best
    height = d.height + h_step
    fire: FireKind | None = None
    # Fire opens the mouth for a tick or two: with a shot coming, only at the carrier.
    burnable = [o for o in (carriers if threat else opponents) if _in_reach(team, o, height)]
    if d.can_fire and burnable:
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
        if d.volleys_left > 0 and not volley & mates and sum(c in volley for c in targets) >= 3:
            fire = "volley"
        elif d.short_left > 0 and not short & mates and sum(c in short for c in targets) >= 1:
            fire = "short"
    team.dragon_order(tick, move, head, facing, h_step, fire)
    return move


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
