"""Helpers for engine tests: hand-built positions, orders, forced dice
(imported by the tests as ``enginekit``; the fixtures are in conftest.py).

A position is built from a few players, balls and dragons; every ball not
mentioned is *parked* free on the bottom row, and the ``still`` ruleset
(classic, but balls do not fly and the yellow ball does not vanish) keeps
parked balls from drawing dice, so a test forces exactly the rolls of the
rule it proves.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from engine.dice import Dice
from engine.events import Event, Kind
from engine.geometry import Direction, Side, direction_between
from engine.orders import (
    Action,
    DragonMove,
    DragonOrder,
    FireKind,
    Penalty,
    PlayerOrder,
    RoundOrders,
    Substitution,
)
from engine.resolve import RoundResult, resolve_tick
from engine.ruleset import Ruleset, load_ruleset
from engine.state import BallState, DragonState, MatchState, PlayerRef, PlayerState, TeamState

CLASSIC = load_ruleset("classic")
PARKING = (202, 203, 205, 206, 204)


def still_rules(rules: Ruleset = CLASSIC) -> Ruleset:
    """Classic numbers, but free balls keep still and the yellow one stays visible."""
    balls = {name: replace(b, speed=0, vanish_probability=0.0) for name, b in rules.balls.items()}
    return replace(rules, balls=balls)


STILL = still_rules()


def moving(*names: str, vanish: bool = False) -> Ruleset:
    """Like STILL, but the named balls fly at their classic speed (and the
    yellow one vanishes as in the classic rules if ``vanish``)."""
    balls = dict(STILL.balls)
    for name in names:
        classic = CLASSIC.balls[name]
        balls[name] = replace(
            classic, vanish_probability=classic.vanish_probability if vanish else 0.0
        )
    return replace(STILL, balls=balls)


class ForcedDice(Dice):
    """Dice that replay the given rolls in order.

    When they run out: ``then`` is returned for every further draw, or, with
    ``then=None``, the test fails (the engine drew more than the rule needs).
    """

    def __init__(self, rolls: Iterable[float] = (), then: float | None = None) -> None:
        super().__init__(b"forced")
        self.rolls = list(rolls)
        self.then = then
        self.used: list[float] = []

    def uniform(self) -> float:
        if self.rolls:
            roll = self.rolls.pop(0)
        elif self.then is not None:
            roll = self.then
        else:
            raise AssertionError("the engine drew more rolls than the test forced")
        self.draws += 1
        self.used.append(roll)
        return roll


# ------------------------------------------------------------------ building


def player(
    side: Side,
    number: int,
    cell: int | None,
    height: int | None = 2,
    balls: Sequence[str] = (),
    status: str = "active",
    return_round: int | None = None,
    swallowed_by: Side | None = None,
) -> PlayerState:
    if status != "active":
        height = None if cell is None else height
    return PlayerState(
        side,
        number,
        f"{side[0].upper()}{number}",
        status,  # type: ignore[arg-type]
        cell,
        height,
        tuple(balls),
        return_round,
        swallowed_by,
    )


def free_ball(
    name: str,
    cell: int,
    height: int = 2,
    direction: Direction | None = Direction.E,
    *,
    status: str = "free",
    pass_ticks_left: int = 0,
    spell: str | None = None,
    enchanted_by: Side | None = None,
) -> BallState:
    return BallState(
        name,
        status,  # type: ignore[arg-type]
        cell,
        height,
        None,
        direction,
        pass_ticks_left,
        spell,
        enchanted_by,
    )


def in_air(
    name: str,
    from_cell: int,
    to_cell: int,
    to_height: int = 2,
    *,
    height: int = 2,
    passer: tuple[Side, int] = ("right", 1),
    spell: str | None = None,
) -> BallState:
    """A ball passed last tick from ``from_cell``: it lands on ``to_cell`` at
    step 1 of the next tick (§9, ``passes.flight = "next_tick"``)."""
    return BallState(
        name,
        "free",
        from_cell,
        height,
        None,
        direction_between(from_cell, to_cell) or Direction.E,
        0,
        spell,
        passer[0] if spell else None,
        None,
        (to_cell, to_height),
        PlayerRef(*passer),
    )


def dragon(
    side: Side,
    head: int | None = None,
    facing: Direction | None = None,
    height: int = 2,
    **kw: object,
) -> DragonState:
    start = CLASSIC.dragon.start(side)
    return DragonState(
        side,
        start.head if head is None else head,
        start.facing if facing is None else facing,
        height,
        short_left=kw.pop("short_left", CLASSIC.fire.short_budget),  # type: ignore[arg-type]
        volleys_left=kw.pop("volleys_left", CLASSIC.fire.volley_budget),  # type: ignore[arg-type]
        **kw,  # type: ignore[arg-type]
    )


def position(
    players: Sequence[PlayerState] = (),
    balls: Sequence[BallState] = (),
    dragons: Sequence[DragonState] = (),
    *,
    round_: int = 1,
    tick: int = 0,
    score: tuple[int, int] = (0, 0),
    enchanted_left: tuple[int, int] = (5, 5),
    warned_round: tuple[int | None, int | None] = (None, None),
    rules: Ruleset = CLASSIC,
) -> MatchState:
    """A hand-built position.  Held balls are derived from the players'
    hands; balls neither given nor held are parked free on the bottom row."""
    given = {b.name: b for b in balls}
    holders = {name: p for p in players for name in p.balls}
    all_balls = []
    parking = iter(PARKING)
    for name in rules.ball_order:
        if name in holders:
            p = holders[name]
            all_balls.append(BallState(name, "held", p.cell, p.height, PlayerRef(p.side, p.number)))
        elif name in given:
            all_balls.append(given[name])
        else:
            all_balls.append(BallState(name, "free", next(parking), 1, None, Direction.E))
    by_side = {d.side: d for d in dragons}
    return MatchState(
        ruleset=rules.name,
        round=round_,
        tick=tick,
        teams=(
            TeamState(
                "left",
                "Левые",
                score[0],
                enchanted_left[0],
                int(bool(warned_round[0])),
                warned_round[0],
            ),
            TeamState(
                "right",
                "Правые",
                score[1],
                enchanted_left[1],
                int(bool(warned_round[1])),
                warned_round[1],
            ),
        ),
        players=tuple(players),
        balls=tuple(all_balls),
        dragons=(by_side.get("left") or dragon("left"), by_side.get("right") or dragon("right")),
    )


def fly(
    side: Side,
    number: int,
    cell: int,
    height: int = 2,
    action: Action | None = None,
    *,
    tick: int = 1,
    description: str = "",
) -> PlayerOrder:
    return PlayerOrder(side, number, tick, cell, height, action, description)


def drg(
    side: Side,
    move: DragonMove = "stay",
    height_step: int = 0,
    fire: FireKind | None = None,
    *,
    tick: int = 1,
) -> DragonOrder:
    return DragonOrder(side, tick, move, height_step, fire)


def orders(*items: PlayerOrder | DragonOrder | Substitution | Penalty) -> RoundOrders:
    return RoundOrders(
        players=tuple(o for o in items if isinstance(o, PlayerOrder)),
        dragons=tuple(o for o in items if isinstance(o, DragonOrder)),
        substitutions=tuple(o for o in items if isinstance(o, Substitution)),
        penalties=tuple(o for o in items if isinstance(o, Penalty)),
    )


def with_stays(state: MatchState, given: RoundOrders, tick: int) -> RoundOrders:
    """``given`` plus a stay-where-you-are order for every active player
    that has none this tick (so nobody drops balls by accident)."""
    have = {(o.side, o.number) for o in given.players if o.tick == tick}
    extra = tuple(
        PlayerOrder(p.side, p.number, tick, p.cell, p.height or 1)
        for p in state.players
        if p.status == "active" and p.cell is not None and (p.side, p.number) not in have
    )
    return replace(given, players=given.players + extra)


def resolve(
    state: MatchState,
    given: RoundOrders | None = None,
    rolls: Iterable[float] = (),
    *,
    rules: Ruleset = STILL,
    then: float | None = None,
    stays: bool = True,
) -> RoundResult:
    """Resolve the next tick with forced dice (every player stays unless ordered)."""
    tick = state.tick + 1
    o = given or RoundOrders()
    if stays:
        o = with_stays(state, o, tick)
    return resolve_tick(state, o, rules, dice=ForcedDice(rolls, then))


# ------------------------------------------------------------------ reading


def of(events: Iterable[Event], kind: Kind) -> list[Event]:
    return [e for e in events if e.kind == kind]


def one(events: Iterable[Event], kind: Kind) -> Event:
    found = of(events, kind)
    assert len(found) == 1, f"expected one {kind}, got {found}"
    return found[0]


def kinds(events: Iterable[Event]) -> list[str]:
    return [e.kind.value for e in events]


def dragon_event(events: Iterable[Event], kind: Kind, side: Side = "left") -> Event:
    """The one event of ``kind`` about the dragon of ``side``."""
    found = [e for e in events if e.kind == kind and e.data.get("side") == side]
    assert len(found) == 1, f"expected one {kind} of the {side} dragon, got {found}"
    return found[0]
