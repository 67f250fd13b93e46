"""The mutable working copy of a :class:`MatchState` that a resolution owns.

``thaw`` copies a frozen state into plain slotted objects that the step
functions update in place (rebuilding frozen dataclasses in inner loops would
be slow); ``freeze`` builds the next immutable state.  Per-tick flags live
beside the persistent fields and are reset by :func:`reset_tick_flags`.
"""

from __future__ import annotations

from ..field import SquareField
from ..geometry import Direction, Side
from ..orders import PlayerOrder
from ..ruleset import Ruleset
from ..square_dragon import dragon_cells
from ..state import (
    BallState,
    BallStatus,
    DragonState,
    MatchState,
    MatchStatus,
    PlayerRef,
    PlayerState,
    PlayerStatus,
    TeamState,
)
from .geo import NEXT

__all__ = ["WBall", "WDragon", "WPlayer", "WTeam", "Work", "freeze", "reset_tick_flags", "thaw"]


class WPlayer:
    __slots__ = (
        "side",
        "number",
        "name",
        "status",
        "cell",
        "height",
        "balls",
        "return_round",
        "swallowed_by",
        "ref",
        "frozen",
        "marks",
        # per tick
        "order",
        "held_on",
        "out_this_tick",
        "catch_target",
        "catch_step",
        "catch_note",
        "start_balls",
        "prev",
    )

    def __init__(self, p: PlayerState) -> None:
        self.side: Side = p.side
        self.number = p.number
        self.name = p.name
        self.status: PlayerStatus = p.status
        self.cell = p.cell
        self.height = p.height
        self.balls: list[WBall] = []
        self.return_round = p.return_round
        self.swallowed_by = p.swallowed_by
        self.ref = PlayerRef(p.side, p.number)
        self.frozen = p  # reused by freeze while nothing changes
        self.marks: dict[str, int] = dict(p.marks)
        self.order: PlayerOrder | None = None
        self.held_on = False
        self.out_this_tick = False
        self.catch_target: WBall | None = None
        self.catch_step = 0
        self.catch_note: str | None = None
        self.start_balls: tuple[WBall, ...] = ()
        self.prev: tuple[int | None, int | None] = (p.cell, p.height)

    @property
    def active(self) -> bool:
        return self.status == "active" and self.cell is not None


class WBall:
    __slots__ = (
        "name",
        "value",
        "rank",
        "status",
        "cell",
        "height",
        "holder",
        "direction",
        "pass_ticks_left",
        "spell",
        "enchanted_by",
        "swallowed_by",
        "pass_to",
        "passer",
        "frozen",
        # per tick
        "catchable",
        "released",
        "passed",
        "danger_checked",
        "thrown_in",
    )

    def __init__(self, b: BallState, value: int, rank: int) -> None:
        self.name = b.name
        self.value = value
        self.rank = rank
        self.status: BallStatus = b.status
        self.cell = b.cell
        self.height = b.height
        self.holder: WPlayer | None = None
        self.direction: Direction | None = b.direction
        self.pass_ticks_left = b.pass_ticks_left
        self.spell = b.spell
        self.enchanted_by = b.enchanted_by
        self.swallowed_by = b.swallowed_by
        self.pass_to = b.pass_to
        self.passer = b.passer
        self.frozen = b
        self.catchable = False
        self.released = False
        self.passed = False
        self.danger_checked = False
        self.thrown_in = False  # §10: thrown in at step 0 of this tick


class WDragon:
    __slots__ = (
        "side",
        "head",
        "facing",
        "height",
        "mouth_open",
        "effect",
        "pending",
        "extinguished",
        "paralysed",
        "short_left",
        "volleys_left",
        "open_ticks",
        "swallowed_players",
        "swallowed_balls",
        "marks",
        # per tick
        "pending_step",
        # per tick (after step 1)
        "body",
        "tail",
        "mouth",
        "fire",
        "fire_set",
    )

    def __init__(self, d: DragonState, body: int, tail: int) -> None:
        self.side: Side = d.side
        self.head = d.head
        self.facing = d.facing
        self.height = d.height
        self.mouth_open = d.mouth_open
        self.effect = d.effect
        self.pending = list(d.pending_effects)
        self.extinguished = d.extinguished
        self.paralysed = d.paralysed
        self.short_left = d.short_left
        self.volleys_left = d.volleys_left
        self.open_ticks = d.open_ticks
        self.swallowed_players = list(d.swallowed_players)
        self.swallowed_balls = list(d.swallowed_balls)
        self.marks: dict[str, int] = dict(d.marks)
        self.pending_step = -1  # the step of this tick's last swallow (§1: same moment)
        self.body = body
        self.tail = tail
        self.mouth: frozenset[int] = frozenset()
        self.fire: str | None = None
        self.fire_set: frozenset[int] = frozenset()


class WTeam:
    __slots__ = ("side", "name", "score", "enchanted_left", "warnings", "warned_round", "frozen")

    def __init__(self, t: TeamState) -> None:
        self.frozen = t
        self.side: Side = t.side
        self.name = t.name
        self.score = t.score
        self.enchanted_left = t.enchanted_left
        self.warnings = t.warnings
        self.warned_round = t.warned_round


class Work:
    __slots__ = (
        "ruleset",
        "round",
        "tick",
        "status",
        "end_reason",
        "teams",
        "players",
        "by_key",
        "balls",
        "by_name",
        "dragons",
    )

    def __init__(self, state: MatchState, ruleset: Ruleset) -> None:
        self.ruleset = state.ruleset
        self.round = state.round
        self.tick = state.tick
        self.status: MatchStatus = state.status
        self.end_reason = state.end_reason
        self.teams = {t.side: WTeam(t) for t in state.teams}
        self.players = [WPlayer(p) for p in state.players]
        self.by_key = {(p.side, p.number): p for p in self.players}
        order = {name: i for i, name in enumerate(ruleset.ball_order)}
        self.balls: list[WBall] = []
        for b in state.balls:
            rules = ruleset.balls.get(b.name)
            wb = WBall(b, rules.value if rules else 0, order.get(b.name, len(order)))
            if b.status == "held" and b.holder is not None:
                holder = self.by_key.get((b.holder.side, b.holder.number))
                if holder is not None:
                    wb.holder = holder
            self.balls.append(wb)
        self.by_name = {b.name: b for b in self.balls}
        # A player's hands keep the order of PlayerState.balls.
        for p, ps in zip(self.players, state.players, strict=True):
            for name in ps.balls:
                held = self.by_name.get(name)
                if held is not None and held.holder is p:
                    p.balls.append(held)
        for wb in self.balls:
            if wb.holder is not None and wb not in wb.holder.balls:
                wb.holder.balls.append(wb)
        self.dragons: list[WDragon] = []
        field = ruleset.field
        for d in state.dragons:
            if isinstance(field, SquareField):
                cells = dragon_cells(
                    field, d.head, d.facing, d.mark("turn") or 0, d.mark("turn_step") or 0
                )
                body, tail = (cells[1], cells[2]) if cells else (0, 0)
                self.dragons.append(WDragon(d, body, tail))
                continue
            back = d.facing.opposite
            body = NEXT[d.head][back]
            self.dragons.append(WDragon(d, body, NEXT[body][back] if body else 0))


def thaw(state: MatchState, ruleset: Ruleset) -> Work:
    return Work(state, ruleset)


def reset_tick_flags(w: Work) -> None:
    for p in w.players:
        p.order = None
        p.held_on = False
        p.out_this_tick = False
        p.catch_target = None
        p.catch_step = 0
        p.catch_note = None
    for b in w.balls:
        # §9.6: only a ball free at the start of the tick can be caught (a
        # pass still in the air lands at step 1 and is caught at step 4).
        b.catchable = b.status == "free" and b.pass_to is None
        b.released = False
        b.passed = False
        b.danger_checked = False
        b.thrown_in = False
    for d in w.dragons:
        d.fire = None
        d.fire_set = frozenset()
        d.pending_step = -1


def freeze(w: Work) -> MatchState:
    """The immutable state; objects that did not change are reused."""
    left, right = w.dragons
    return MatchState(
        ruleset=w.ruleset,
        round=w.round,
        tick=w.tick,
        teams=(_team(w.teams["left"]), _team(w.teams["right"])),
        players=tuple([_player(p) for p in w.players]),
        balls=tuple([_ball(b) for b in w.balls]),
        dragons=(_dragon(left), _dragon(right)),
        status=w.status,
        end_reason=w.end_reason,
    )


def _player(p: WPlayer) -> PlayerState:
    balls = tuple([b.name for b in p.balls]) if p.balls else ()
    f = p.frozen
    if (
        f.cell == p.cell
        and f.height == p.height
        and f.status == p.status
        and f.balls == balls
        and f.return_round == p.return_round
        and f.swallowed_by == p.swallowed_by
        and ((not p.marks and not f.marks) or f.marks == tuple(sorted(p.marks.items())))
    ):
        return f
    f = PlayerState(
        p.side,
        p.number,
        p.name,
        p.status,
        p.cell,
        p.height,
        balls,
        p.return_round,
        p.swallowed_by,
        tuple(sorted(p.marks.items())),
    )
    p.frozen = f
    return f


def _ball(b: WBall) -> BallState:
    holder = b.holder
    f = b.frozen
    if holder is not None:
        if not (
            f.status == "held"
            and f.holder == holder.ref
            and f.cell == holder.cell
            and f.height == holder.height
        ):
            f = BallState(b.name, b.status, holder.cell, holder.height, holder.ref, None, 0)
    elif not (
        f.status == b.status
        and f.holder is None
        and f.cell == b.cell
        and f.height == b.height
        and f.direction == b.direction
        and f.pass_ticks_left == b.pass_ticks_left
        and f.spell == b.spell
        and f.enchanted_by == b.enchanted_by
        and f.swallowed_by == b.swallowed_by
        and f.pass_to == b.pass_to
        and f.passer == b.passer
    ):
        f = BallState(
            b.name,
            b.status,
            b.cell,
            b.height,
            None,
            b.direction,
            b.pass_ticks_left,
            b.spell,
            b.enchanted_by,
            b.swallowed_by,
            b.pass_to,
            b.passer,
        )
    b.frozen = f
    return f


def _team(t: WTeam) -> TeamState:
    f = t.frozen
    if (
        f.score != t.score
        or f.enchanted_left != t.enchanted_left
        or f.warnings != t.warnings
        or f.warned_round != t.warned_round
    ):
        f = TeamState(t.side, t.name, t.score, t.enchanted_left, t.warnings, t.warned_round)
        t.frozen = f
    return f


def _dragon(d: WDragon) -> DragonState:
    return DragonState(
        d.side,
        d.head,
        d.facing,
        d.height,
        d.mouth_open,
        d.effect,
        tuple(d.pending),
        d.extinguished,
        d.paralysed,
        d.short_left,
        d.volleys_left,
        d.open_ticks,
        tuple(d.swallowed_players),
        tuple(d.swallowed_balls),
        tuple(sorted(d.marks.items())) if d.marks else (),
    )
