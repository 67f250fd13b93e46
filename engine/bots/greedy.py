"""The greedy policy: chase the free balls, carry them to the enemy dragon,
shoot into its mouth when in range, pass forward to a team-mate, steal from
carriers nearby; the dragon keeps moving (mouth shut) and breathes fire when
opponents are in its cone.

It plans tick by tick for the whole team so a passer can aim at where a
team-mate will be, and it only uses what the team may know: it never looks
at a vanished ball or at the other team's spells.
"""

from __future__ import annotations

from ..dice import Dice
from ..geometry import Direction, Side
from ..orders import Action, Catch, DragonMove, FireKind, Pass, RoundOrders, Steal
from ..resolution.geo import DIST, NEXT, danger_cells, fire_cells
from ..ruleset import Ruleset
from ..state import MatchState, effect_names
from .common import PlayerPlan, Team, cells_within, dragon_moves, flight_cells

__all__ = ["greedy_orders"]

CHASERS_PER_BALL = 2


def greedy_orders(state: MatchState, rules: Ruleset, side: Side, dice: Dice) -> RoundOrders:
    team = Team(state, rules, side, dice)
    if state.ended:
        return RoundOrders()
    g = _Greedy(team)
    for tick in team.ticks:
        g.plan_tick(tick)
    return team.result()


class _Greedy:
    def __init__(self, team: Team) -> None:
        self.team = team
        state = team.state
        self.rules = team.rules
        enemy = state.dragon(team.foe)
        self.enemy = enemy
        self.goal = enemy.head
        own = state.dragon(team.side)
        # Cells to keep out of: the enemy dragon and its mouth's reach; our own
        # dragon's body (a crash at the same height).
        self.hazard = danger_cells(enemy.head, enemy.facing) | _dragon_body(
            enemy.head, enemy.facing
        )
        self.own_body = _dragon_body(own.head, own.facing)
        self.own_height = own.height
        self.free_balls = [
            b for b in state.balls if b.status == "free" and b.cell is not None and b.height
        ]
        self.assign = self._assign_chasers()

    def _assign_chasers(self) -> dict[int, tuple[int, int]]:
        """player number → (cell, height) of the free ball he chases."""
        pairs = []
        for plan in self.team.plans:
            if plan.cell is None or not self.team.can_take_more(plan) or plan.held:
                continue
            for b in self.free_balls:
                assert b.cell is not None
                pairs.append((DIST[plan.cell][b.cell], plan.player.number, b.name))
        pairs.sort()
        chasers: dict[str, int] = {}
        out: dict[int, tuple[int, int]] = {}
        balls = {b.name: b for b in self.free_balls}
        for _, number, name in pairs:
            if number in out or chasers.get(name, 0) >= CHASERS_PER_BALL:
                continue
            chasers[name] = chasers.get(name, 0) + 1
            b = balls[name]
            assert b.cell is not None and b.height is not None
            out[number] = (b.cell, b.height)
        return out

    # -- one tick ------------------------------------------------------------
    def plan_tick(self, tick: int) -> None:
        taken: set[tuple[int, int]] = set()
        moves: dict[int, tuple[int, int, str]] = {}
        for plan in self.team.plans:
            move = self._move(plan, tick, taken)
            if move is not None:
                moves[plan.player.number] = move
                taken.add((move[0], move[1]))
        actions: dict[int, tuple[Action | None, str]] = {}
        for plan in self.team.plans:
            if plan.player.number in moves:
                cell, height, key = moves[plan.player.number]
                actions[plan.player.number] = self._action(plan, tick, cell, height, moves, key)
        for plan in self.team.plans:
            number = plan.player.number
            if number in moves:
                cell, height, _ = moves[number]
                action, key = actions[number]
                self.team.order(plan, tick, cell, height, action, self.team.phrase(key))
        self._dragon(tick)

    def _move(
        self, plan: PlayerPlan, tick: int, taken: set[tuple[int, int]]
    ) -> tuple[int, int, str] | None:
        rules = self.rules
        if plan.launching_at is not None:
            if tick != plan.launching_at:
                return None
            plan.launching_at = None
            target = self._target(plan)
            # The re-entry cell nearest the target, where no team-mate goes.
            cell, height = min(
                ((c, h) for c in rules.reentry(plan.player.side) for h in rules.heights),
                key=lambda ch: ((ch in taken), DIST[ch[0]][target[0]], abs(ch[1] - 2), ch),
            )
            return cell, height, "launch"
        if plan.cell is None or plan.height is None:
            return None
        target_cell, target_height = self._target(plan)
        heights = self.team.heights_from(plan.height)
        # The height nearest his wish within reach this tick.
        height = max(heights[0], min(heights[-1], target_height))
        # The cell nearest the target, at that height if he can, out of harm's
        # way and not where a team-mate is going (a collision).
        row = DIST[target_cell]
        hazard, own_body, own_height = self.hazard, self.own_body, self.own_height
        options = [(h, abs(h - height), h == own_height) for h in heights]
        best = (plan.cell, plan.height)
        best_key = (9, 0, 0)
        for c in flight_cells(plan.cell):
            near = row[c]
            unsafe = c in hazard
            body = c in own_body
            for h, off, low in options:
                penalty = 1 if unsafe or (low and body) else 0
                if (c, h) in taken:
                    penalty += 2
                key = (penalty, near, off)
                if key < best_key:
                    best, best_key = (c, h), key
        kind = "up" if best[1] > plan.height else "down" if best[1] < plan.height else "fly"
        if best[0] == plan.cell and best[1] == plan.height:
            kind = "stay"
        return best[0], best[1], kind

    def _target(self, plan: PlayerPlan) -> tuple[int, int]:
        """Where he heads: the enemy dragon with a ball, a free ball, or an
        opponent carrying one; otherwise a spot in front of the enemy."""
        enemy_height = self.enemy.height
        if plan.held:
            return self.goal, enemy_height
        chase = self.assign.get(plan.player.number)
        if chase is not None:
            return chase
        carriers = [o for o in self.team.opponents if o.balls and o.cell and o.height]
        if carriers and plan.cell is not None:
            here = plan.cell
            o = min(carriers, key=lambda o: (DIST[here][o.cell or 0], o.number))
            assert o.cell is not None and o.height is not None
            return o.cell, o.height
        return self.goal, 2

    def _action(
        self,
        plan: PlayerPlan,
        tick: int,
        cell: int,
        height: int,
        moves: dict[int, tuple[int, int, str]],
        key: str,
    ) -> tuple[Action | None, str]:
        team = self.team
        rules = self.rules
        if plan.held:
            ball = max(plan.held, key=lambda b: (rules.balls[b].value, b))
            reach = rules.pass_range(ball)
            dist = DIST[cell][self.goal]
            if rules.pass_min_distance <= dist <= reach:
                return self._shot(ball, cell), "shot"
            mate = self._forward_mate(plan, cell, ball, moves)
            if mate is not None:
                return Pass(ball, mate[0], mate[1]), "pass"
        if not team.can_take_more(plan):
            return None, key
        targets = team.steal_targets(plan, cell, tick)
        near_ball = any(b.cell is not None and DIST[cell][b.cell] <= 1 for b in self.free_balls)
        if targets and not near_ball:
            victim = min(targets, key=lambda o: (DIST[cell][o.cell or 0], o.number))
            return Steal(victim.number), "steal"
        return Catch(), "catch"

    def _shot(self, ball: str, cell: int) -> Pass:
        """At the head when the mouth is sure to be open, else at the mouth
        cell nearest to the shooter (a ball there may still be swallowed)."""
        e = self.enemy
        if "sneeze" in effect_names(e.effect) or e.open_ticks > 0:
            return Pass(ball, e.head, e.height)
        rules = self.rules
        reach = rules.pass_range(ball)
        mouth = [
            c
            for c in danger_cells(e.head, e.facing)
            if c != e.head and rules.pass_min_distance <= DIST[cell][c] <= reach
        ]
        if not mouth:
            return Pass(ball, e.head, e.height)
        target = min(mouth, key=lambda c: (DIST[cell][c], c))
        return Pass(ball, target, e.height)

    def _forward_mate(
        self, plan: PlayerPlan, cell: int, ball: str, moves: dict[int, tuple[int, int, str]]
    ) -> tuple[int, int] | None:
        """A team-mate's cell this tick, in pass range and clearly nearer the goal."""
        rules = self.rules
        reach = rules.pass_range(ball)
        mine = DIST[cell][self.goal]
        best: tuple[int, int] | None = None
        best_dist = mine - 2
        in_range = set(cells_within(cell, rules.pass_min_distance, reach))
        for other in self.team.plans:
            number = other.player.number
            if other is plan or number not in moves or not self.team.can_take_more(other):
                continue
            c, h, _ = moves[number]
            if c in in_range and DIST[c][self.goal] < best_dist:
                best, best_dist = (c, h), DIST[c][self.goal]
        return best

    # -- the dragon ------------------------------------------------------------
    def _dragon(self, tick: int) -> None:
        team = self.team
        d = team.dragon
        rules = self.rules
        options: list[tuple[DragonMove, int, Direction]]
        if d.paralysed:
            options = [("stay", d.head, d.facing)]
        else:
            # Keep moving so the mouth stays shut; face the nearest threat.
            options = [m for m in dragon_moves(team.side, d.head, d.facing) if m[0] != "stay"]
            options = options or [("stay", d.head, d.facing)]
        threats = [o.cell for o in team.opponents if o.cell is not None]
        best = options[0]
        best_key: tuple[int, int] | None = None
        for m in options:
            cone = fire_cells(m[1], m[2], rules.fire.short_cells_depth)
            hits = sum(1 for c in threats if c in cone)
            near = min((DIST[m[1]][c] for c in threats), default=0)
            key = (-hits, near)
            if best_key is None or key < best_key:
                best, best_key = m, key
        move, head, facing = best
        steps = team.dragon_height_steps()
        h_step = min(steps, key=lambda s: (abs(d.height + s - 2), s))
        fire: FireKind | None = None
        if d.can_fire:
            reach = rules.fire.height_reach
            height = d.height + h_step
            targets = [
                o.cell
                for o in team.opponents
                if o.cell is not None and o.height is not None and abs(o.height - height) <= reach
            ]
            volley = fire_cells(head, facing, rules.fire.volley_cells_depth)
            short = fire_cells(head, facing, rules.fire.short_cells_depth)
            if d.volleys_left > 0 and sum(1 for c in targets if c in volley) >= 3:
                fire = "volley"
            elif d.short_left > 0 and sum(1 for c in targets if c in short) >= 1:
                fire = "short"
        team.dragon_order(tick, move, head, facing, h_step, fire)


def _dragon_body(head: int, facing: Direction) -> frozenset[int]:
    back = facing.opposite
    body = NEXT[head][back]
    tail = NEXT[body][back] if body else 0
    return frozenset(c for c in (head, body, tail) if c)
