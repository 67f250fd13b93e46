"""The greedy policy: chase the free balls, rob the other side's carriers,
carry the balls to the enemy dragon and shoot when its mouth will be open
where the ball lands (read from the position, :mod:`.foresight`), pass
forward to a team-mate; the dragon is :mod:`.greedy_dragon`.

It plans tick by tick for the whole team so a passer can aim at where a
team-mate will be, and it only uses what the team may know: it never looks
at a vanished ball or at the other team's spells or orders.
"""

from __future__ import annotations

from ..dice import Dice
from ..geometry import Direction, Side
from ..orders import Action, Catch, DragonMove, Pass, RoundOrders, Steal
from ..resolution.geo import DIST, NEXT, danger_cells
from ..ruleset import Ruleset
from ..state import BallState, MatchState, PlayerState, effect_names
from .common import PlayerPlan, Team, cells_within, dragon_body, flight_cells
from .foresight import foresee
from .greedy_dragon import mouth_forced_open, plan_dragon

__all__ = ["greedy_orders"]

CHASERS_PER_BALL = 2
# How far ahead a player reckons with the opponents' flights (cells).
REACH = 3
GUARDS_PER_CARRIER = 2
# Diving into the other dragon's open mouth with the ball (see _dive): only
# a team behind (or level in the last DIVE_LATE rounds) does it, for balls
# worth at least DIVE_VALUE, where he is swallowed with at least DIVE_CHANCE.
# A team level or ahead keeps its players: diving then decides matches early.
DIVE_VALUE = 2
DIVE_CHANCE = 0.5
DIVE_LATE = 6
# The height a player flies at when nothing calls for another: the two sides'
# differ, so players crossing the field do not crash into each other (§4).
_CRUISE: dict[str, int] = {"left": 1, "right": 3}
# The height a chaser takes when an opponent goes for a ball at its height:
# never the one the other side takes, or the two would meet there.
_OTHER_HEIGHT: dict[str, dict[int, int]] = {
    "left": {1: 2, 2: 1, 3: 1},
    "right": {1: 3, 2: 3, 3: 2},
}


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
        # What the other dragon will do, read from the position (.foresight):
        # where its head, open mouth and flame will be at each tick.
        self.forecast = foresee(state, team.rules, team.foe)
        self.own_height = own.height
        self.own_head = own.head
        self.free_balls = [
            b for b in state.balls if b.status == "free" and b.cell is not None and b.height
        ]
        # tick → where each free ball will be (flown, or landed from a pass).
        self.course = {
            b.name: ball_course(b, self.rules.balls[b.name].speed, team.ticks)
            for b in self.free_balls
        }
        self.assign = self._assign_chasers()
        self.guards = self._assign_guards()
        # tick → the (cell, height) an opponent may fly into by then at his
        # height: a collision there is likely (§4), another height is safe.
        self.opponent_spots = {
            tick: {
                (c, o.height)
                for o in team.opponents
                if o.cell is not None
                for c in cells_within(o.cell, 0, min(tick - team.first_tick + 1, REACH))
            }
            for tick in team.ticks
        }
        self.last_move: DragonMove | None = None
        # This tick's divers (they keep their balls), and whether to dive at all.
        self.diving: set[int] = set()
        mine, theirs = state.team(team.side).score, state.team(team.foe).score
        late = state.round > self.rules.max_rounds - DIVE_LATE
        self.dives = mine < theirs or (mine == theirs and late)

    def _assign_chasers(self) -> dict[int, tuple[str, int]]:
        """player number → (ball, height) of the free ball he chases."""
        pairs = []
        first = self.team.first_tick
        for plan in self.team.plans:
            if plan.cell is None or not self.team.can_take_more(plan) or plan.held:
                continue
            for b in self.free_balls:
                cell = self.course[b.name][first][0]
                pairs.append((DIST[plan.cell][cell], plan.player.number, b.name))
        pairs.sort()
        chasers: dict[str, int] = {}
        out: dict[int, tuple[str, int]] = {}
        rivals = [o for o in self.team.opponents if o.cell is not None and not o.balls]
        for _, number, name in pairs:
            if number in out or chasers.get(name, 0) >= CHASERS_PER_BALL:
                continue
            chasers[name] = chasers.get(name, 0) + 1
            cell, height = self.course[name][first]
            if any(DIST[o.cell or 0][cell] <= 2 and o.height == height for o in rivals):
                # An opponent goes for it at its height: catch from another one
                # (75% instead of 100%) rather than crash into him.
                height = _OTHER_HEIGHT[self.team.side][height]
            out[number] = (name, height)
        return out

    def _assign_guards(self) -> dict[int, PlayerState]:
        """player number → the opponent carrier he goes to rob: those nearest
        our dragon first (they are about to shoot), two guards each at most."""
        carriers = sorted(
            (o for o in self.team.opponents if o.balls and o.cell is not None),
            key=lambda o: (DIST[o.cell or 0][self.own_head], o.number),
        )
        out: dict[int, PlayerState] = {}
        free = [
            p
            for p in self.team.plans
            if p.cell is not None and not p.held and p.player.number not in self.assign
        ]
        for o in carriers:
            assert o.cell is not None
            free.sort(key=lambda p: (DIST[p.cell or 0][o.cell or 0], p.player.number))
            for p in free[:GUARDS_PER_CARRIER]:
                out[p.player.number] = o
            free = free[GUARDS_PER_CARRIER:]
        return out

    # -- one tick ------------------------------------------------------------
    def plan_tick(self, tick: int) -> None:
        taken: set[tuple[int, int]] = set()
        self.diving = set()
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
        self.last_move = plan_dragon(self.team, tick, self.last_move)

    def _move(
        self, plan: PlayerPlan, tick: int, taken: set[tuple[int, int]]
    ) -> tuple[int, int, str] | None:
        rules = self.rules
        if plan.launching_at is not None:
            if tick != plan.launching_at:
                return None
            plan.launching_at = None
            target = self._target(plan, tick)
            # The re-entry cell nearest the target, where no team-mate goes.
            cell, height = min(
                ((c, h) for c in rules.reentry(plan.player.side) for h in rules.heights),
                key=lambda ch: ((ch in taken), DIST[ch[0]][target[0]], abs(ch[1] - 2), ch),
            )
            return cell, height, "launch"
        if plan.cell is None or plan.height is None:
            return None
        dive = self._dive(plan, tick, taken)
        if dive is not None:
            self.diving.add(plan.player.number)
            return dive[0], dive[1], "fly"
        target_cell, target_height = self._target(plan, tick)
        heights = self.team.heights_from(plan.height)
        # The height nearest his wish within reach this tick.
        height = max(heights[0], min(heights[-1], target_height))
        # The cell nearest the target, at that height if he can, out of harm's
        # way and not where a team-mate is going (a collision).
        row = DIST[target_cell]
        hazard, fire, burns = self._hazards(tick)
        # Our own dragon where it is now (it moves after us each tick): its
        # cells at its height knock a team-mate down too (§6), and it may hover
        # a height up or down; dazed, it treats us as opponents at any height.
        mine = self.team.dragon
        own_body = dragon_body(mine.head, mine.facing)
        dazed = "daze" in effect_names(mine.effect)
        if dazed:
            own_body = own_body | danger_cells(mine.head, mine.facing)
        reach = 0 if mine.paralysed else self.rules.dragon_height_step
        spots = self.opponent_spots[tick]
        options = [
            (h, abs(h - height), dazed or abs(h - mine.height) <= reach, h in burns)
            for h in heights
        ]
        best = (plan.cell, plan.height)
        best_key = (9, 0, 0)
        for c in flight_cells(plan.cell):
            near = row[c]
            unsafe = c in hazard
            body = c in own_body
            hot = c in fire
            for h, off, low, hit in options:
                # The other dragon's mouth, body or flame first, then a team-mate's
                # cell (a sure collision), then where an opponent may fly.
                penalty = 3 if unsafe or (low and body) or (hot and hit) else 0
                if (c, h) in taken:
                    penalty += 2
                elif (c, h) in spots:
                    penalty += 1  # an opponent may fly there: a collision
                key = (penalty, near, off)
                if key < best_key:
                    best, best_key = (c, h), key
        kind = "up" if best[1] > plan.height else "down" if best[1] < plan.height else "fly"
        if best[0] == plan.cell and best[1] == plan.height:
            kind = "stay"
        return best[0], best[1], kind

    def _dive(
        self, plan: PlayerPlan, tick: int, taken: set[tuple[int, int]]
    ) -> tuple[int, int] | None:
        """A carrier beside the other dragon's open mouth flies into it when
        the balls are worth it: swallowed with him, they score (§6, §7) — a
        player lost for the points a shot could not bring (a pass lands the
        tick after it is thrown, when a wary dragon has shut its mouth again).
        The (cell, height) where he is swallowed surest, or None."""
        f = self.forecast.get(tick)
        if not self.dives or f is None or not f.mouth_open or f.fire or not plan.held:
            return None  # (a flame: its cells burn him before he is swallowed)
        assert plan.cell is not None and plan.height is not None
        if sum(self.rules.balls[b].value for b in plan.held) < DIVE_VALUE:
            return None
        dr = self.rules.dragon
        best: tuple[float, int, int, int] | None = None  # chance, -height change, cell, height
        mouth = danger_cells(f.head, f.facing)
        for c in flight_cells(plan.cell):
            if c not in mouth:
                continue
            for h in self.team.heights_from(plan.height):
                if (c, h) in taken:
                    continue
                if c != f.head:
                    p = dr.swallow_adjacent
                elif h == f.height:
                    p = dr.swallow_same_cell_same_height
                else:
                    p = dr.swallow_same_cell_other_height
                option = (p, -abs(h - plan.height), c, h)
                if best is None or option[:2] > best[:2]:
                    best = option
        if best is None or best[0] < DIVE_CHANCE:
            return None
        return best[2], best[3]

    def _hazards(self, tick: int) -> tuple[frozenset[int], frozenset[int], set[int]]:
        """Where the other dragon will be dangerous at ``tick``: its cells (a
        knock) and, if its mouth will be open, the cells it swallows from; its
        flame; the heights the flame reaches."""
        f = self.forecast.get(tick)
        if f is None:
            e = self.enemy
            return (
                danger_cells(e.head, e.facing) | dragon_body(e.head, e.facing),
                frozenset(),
                set(),
            )
        cells = dragon_body(f.head, f.facing) | f.might_rest
        if f.mouth_open:
            cells = cells | danger_cells(f.head, f.facing)
        reach = self.rules.fire.height_reach
        heights = {h for h in self.rules.heights if abs(h - f.height) <= reach}
        return cells, f.fire, heights

    def _target(self, plan: PlayerPlan, tick: int) -> tuple[int, int]:
        """Where he heads: the enemy dragon with a ball, a free ball, or an
        opponent carrying one; otherwise a spot in front of the enemy."""
        cruise = _CRUISE[self.team.side]
        if plan.held:
            # Far from the goal at his side's cruising height (clear of the other
            # side's), near it at the dragon's, where a shot is surest (§7).
            near = plan.cell is not None and DIST[plan.cell][self.goal] <= 5
            return self.goal, self.enemy.height if near else cruise
        receive = plan.receive
        if receive is not None and receive[0] == tick:
            return receive[1], receive[2]
        chase = self.assign.get(plan.player.number)
        if chase is not None:
            # Where the ball will be this tick (it flies before the catch, §9).
            return self.course[chase[0]][tick][0], chase[1]
        victim = self.guards.get(plan.player.number)
        if victim is not None and victim.cell is not None and victim.height is not None:
            # Onto the cell he is flying to (towards our dragon) at another
            # height: the better steal (§4), and no collision.
            here = plan.height or 2
            other = [h for h in self.rules.heights if h != victim.height]
            cell = _towards(victim.cell, self.own_head, tick - self.team.state.tick)
            return cell, min(other, key=lambda h: (abs(h - here), h))
        return self.goal, cruise

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
        if plan.player.number in self.diving:
            return None, key  # he keeps the ball: swallowed with him, it scores
        if plan.held and not self._own_mouth_near(cell, tick):
            # The most valuable ball that can be shot (the yellow flies less far, §7).
            for ball in sorted(plan.held, key=lambda b: (-rules.balls[b].value, b)):
                shot = self._shot(ball, cell, tick)
                if shot is not None:
                    return shot, "shot"
            ball = max(plan.held, key=lambda b: (rules.balls[b].value, b))
            mate = self._forward_mate(plan, cell, ball, moves, tick)
            if mate is not None:
                receiver, c, h = mate
                if tick < self.rules.ticks_per_round:
                    # It lands next tick (§9): he waits there to catch it.
                    receiver.receive = (tick + 1, c, h)
                return Pass(ball, c, h), "pass"
        receive = plan.receive
        if receive is not None and receive[0] == tick and team.can_take_more(plan):
            return Catch(), "catch"
        if not team.can_take_more(plan):
            return None, key
        # A steal needs him on this cell or the next one (§4): where he stands
        # now, or where he flies with the ball (towards our dragon).
        steps = tick - team.state.tick
        targets = [
            o
            for o in team.steal_targets(plan, cell, tick)
            if o.cell is not None
            and min(DIST[cell][o.cell], DIST[cell][_towards(o.cell, self.own_head, steps)]) <= 1
        ]
        near_ball = any(DIST[cell][c[tick][0]] <= 1 for c in self.course.values())
        if targets and not near_ball:
            victim = min(targets, key=lambda o: (DIST[cell][o.cell or 0], o.number))
            return Steal(victim.number), "steal"
        return Catch(), "catch"

    def _shot(self, ball: str, cell: int, tick: int) -> Pass | None:
        """A shot at the other dragon when its mouth will be open where and
        when the ball lands (thrown now, it lands next tick, §9), at the cell
        it swallows from surest; None when no shot would be swallowed."""
        rules = self.rules
        head, facing, height, open_ = self._landing(tick)
        if not open_:
            return None
        reach = rules.pass_range(ball)
        cells = [
            c
            for c in danger_cells(head, facing)
            if rules.pass_min_distance <= DIST[cell][c] <= reach
        ]
        if not cells:
            return None
        # The head itself is surest (§7), then the mouth cells nearest it.
        target = min(cells, key=lambda c: (c != head, DIST[c][head], c))
        return Pass(ball, target, height)

    def _landing(self, tick: int) -> tuple[int, Direction, int, bool]:
        """The other dragon when a ball thrown at ``tick`` lands: head,
        facing, height and whether its mouth is open."""
        nxt = self.forecast.get(tick + 1)
        if nxt is not None:
            return nxt.head, nxt.facing, nxt.height, nxt.mouth_open
        now = self.forecast.get(tick)
        e = self.enemy
        if now is None:
            lasting = "sneeze" in effect_names(e.effect) or e.paralysed
            return e.head, e.facing, e.height, lasting or e.open_ticks > 1
        # Into the next round: open if it breathes after this tick's fire, or sneezes.
        lasting = "sneeze" in effect_names(e.effect) or e.paralysed
        return now.head, now.facing, now.height, lasting or bool(now.fire)

    def _own_mouth_near(self, cell: int, tick: int) -> bool:
        """Could our own dragon's open mouth snatch a pass thrown from ``cell``
        (§9.7)?  Its mouth is open this tick if it breathes after a flame,
        sneezes or cannot move; dazed, it may spit fire (its move this tick is
        not planned yet)."""
        d = self.team.dragon
        if DIST[cell][d.head] > 2:
            return False
        return mouth_forced_open(self.team, tick) or "daze" in effect_names(d.effect)

    def _forward_mate(
        self,
        plan: PlayerPlan,
        cell: int,
        ball: str,
        moves: dict[int, tuple[int, int, str]],
        tick: int,
    ) -> tuple[PlayerPlan, int, int] | None:
        """A team-mate's cell this tick, in pass range and clearly nearer the
        goal; he will stay there next tick to catch the ball as it lands."""
        rules = self.rules
        reach = rules.pass_range(ball)
        mine = DIST[cell][self.goal]
        best: tuple[PlayerPlan, int, int] | None = None
        best_dist = mine - 2
        in_range = set(cells_within(cell, rules.pass_min_distance, reach))
        for other in self.team.plans:
            number = other.player.number
            if other is plan or number not in moves or not self.team.can_take_more(other):
                continue
            if other.receive is not None and other.receive[0] > tick:
                continue  # already waiting for another pass
            c, h, _ = moves[number]
            if c in in_range and DIST[c][self.goal] < best_dist:
                best, best_dist = (other, c, h), DIST[c][self.goal]
        return best


def ball_course(ball: BallState, speed: int, ticks: range) -> dict[int, tuple[int, int]]:
    """tick → (cell, height) where a free ball will be after that tick's
    flight, as far as anyone can tell: a pass in the air lands where it was
    aimed; a free ball flies its course on record, a pass's kept course while
    it lasts (§3, §5), then its course is random: it is guessed to stay."""
    assert ball.cell is not None and ball.height is not None
    out: dict[int, tuple[int, int]] = {}
    if ball.pass_to is not None:
        for tick in ticks:
            out[tick] = ball.pass_to
        return out
    cell, height, course = ball.cell, ball.height, ball.direction
    kept = ball.pass_ticks_left
    for tick in ticks:
        if course is not None:
            for _ in range(speed):
                nxt = NEXT[cell][course]
                if not nxt:
                    course = None  # bounces off the dome: anywhere
                    break
                cell = nxt
            kept -= 1
            if kept <= 0:
                course = None
        out[tick] = (cell, height)
    return out


def _towards(cell: int, goal: int, steps: int) -> int:
    """Where a player flying straight from ``cell`` to ``goal`` is after ``steps`` ticks."""
    for _ in range(max(0, steps)):
        if cell == goal:
            break
        cell = min(flight_cells(cell), key=lambda c: (DIST[c][goal], c))
    return cell
