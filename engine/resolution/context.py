"""One tick's resolution context: the working state, orders, dice and log."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import fields
from typing import Any, Protocol, TypeVar

from ..dice import Dice
from ..events import Event, Kind
from ..geometry import Direction, Side
from ..orders import DragonOrder, PlayerOrder, RoundOrders
from ..ruleset import Ruleset
from .geo import on_field_directions
from .work import WBall, Work, WPlayer

__all__ = ["Forcing", "OrderIndex", "Tick", "make_event", "player_label"]

T = TypeVar("T")


class Forcing(Protocol):
    """Decides some draws by name instead of by the dice (the case book's
    "the steal roll succeeds", "the collision picks R1").  The dice are still
    drawn, so the stream of the other draws does not move; the recorded roll
    is one that gives the forced outcome."""

    def chance(
        self, moment: tuple[int, int, int], kind: Kind, data: dict[str, Any], p: float
    ) -> bool | None:
        """The forced outcome of a chance draw at (round, tick, step), or None
        to let the dice decide."""
        ...

    def pick(
        self, moment: tuple[int, int, int], kind: Kind, data: dict[str, Any], labels: Sequence[str]
    ) -> int | None:
        """The forced index of a fair pick among ``labels``, or None."""
        ...


def player_label(side: str, number: int) -> str:
    """How cases and forced dice name a player: L1, R7."""
    return f"{side[0].upper()}{number}"


_EVENT_FIELDS = ("round", "tick", "step", "kind", "data", "p", "roll", "ok")


def _event_maker() -> Callable[..., Event]:
    """A constructor of :class:`Event` twice as fast as the dataclass's own.

    The frozen dataclass's ``__init__`` goes through ``object.__setattr__``
    for each field; setting the slots through their descriptors builds the
    same (equal, immutable) object.  Used only while the fields are exactly
    these eight, otherwise the ordinary constructor.
    """
    if tuple(f.name for f in fields(Event)) != _EVENT_FIELDS:
        return Event
    new = object.__new__
    r, t, s, k, d, p, ro, o = (getattr(Event, name).__set__ for name in _EVENT_FIELDS)

    def make(
        round_: int,
        tick: int,
        step: int,
        kind: Kind,
        data: dict[str, Any],
        prob: float | None,
        roll: float | None,
        ok: bool | None,
    ) -> Event:
        e: Event = new(Event)
        r(e, round_)
        t(e, tick)
        s(e, step)
        k(e, kind)
        d(e, data)
        p(e, prob)
        ro(e, roll)
        o(e, ok)
        return e

    return make


make_event = _event_maker()


class OrderIndex:
    """Orders by (side, number, tick) and (side, tick); the first one wins,
    as :meth:`RoundOrders.player_order` reads them."""

    __slots__ = ("dragons", "penalties", "players", "substitutions", "warnings")

    def __init__(self, orders: RoundOrders) -> None:
        self.players: dict[tuple[Side, int, int], PlayerOrder] = {}
        for o in orders.players:
            self.players.setdefault((o.side, o.number, o.tick), o)
        self.dragons: dict[tuple[Side, int], DragonOrder] = {}
        for d in orders.dragons:
            self.dragons.setdefault((d.side, d.tick), d)
        self.substitutions = orders.substitutions
        self.penalties = orders.penalties
        self.warnings = orders.warnings


class Tick:
    """Everything one tick's steps share.  ``emit`` appends to the log."""

    __slots__ = ("dice", "events", "forcing", "orders", "round", "rules", "tick", "w")

    def __init__(
        self,
        w: Work,
        orders: OrderIndex,
        rules: Ruleset,
        dice: Dice,
        events: list[Event],
        forcing: Forcing | None = None,
    ) -> None:
        self.w = w
        self.forcing = forcing
        self.orders = orders
        self.rules = rules
        self.dice = dice
        self.events = events
        self.round = w.round
        self.tick = w.tick + 1

    def emit(
        self,
        step: int,
        kind: Kind,
        data: dict[str, Any],
        p: float | None = None,
        roll: float | None = None,
        ok: bool | None = None,
    ) -> None:
        self.events.append(make_event(self.round, self.tick, step, kind, data, p, roll, ok))

    def chance(self, step: int, kind: Kind, data: dict[str, Any], p: float) -> bool:
        """Draw against ``p`` and record it."""
        roll, ok = self.dice.chance(p)
        if self.forcing is not None:
            forced = self.forcing.chance((self.round, self.tick, step), kind, data, p)
            if forced is not None:
                ok = forced
                roll = p / 2 if forced else p + (1 - p) / 2
        self.events.append(make_event(self.round, self.tick, step, kind, data, p, roll, ok))
        return ok

    def pick(
        self,
        step: int,
        kind: Kind,
        data: dict[str, Any],
        options: Sequence[T],
        labels: Sequence[str],
    ) -> tuple[float, T]:
        """A fair pick among ``options`` (named ``labels`` for forcing); the
        caller records it in its event."""
        roll, i = self.dice.index(len(options))
        if self.forcing is not None:
            forced = self.forcing.pick((self.round, self.tick, step), kind, data, labels)
            if forced is not None:
                i = forced
                roll = (i + 0.5) / len(options)
        return roll, options[i]

    def random_direction(self, step: int, ball: WBall, choices: Sequence[Direction]) -> Direction:
        """A fair pick of a new course for ``ball``, recorded as ball_direction."""
        roll, d = self.pick(
            step,
            Kind.BALL_DIRECTION,
            {"ball": ball.name, "cell": ball.cell},
            choices,
            [c.name for c in choices],
        )
        self.emit(
            step,
            Kind.BALL_DIRECTION,
            {"ball": ball.name, "cell": ball.cell, "direction": d.name},
            1 / len(choices),
            roll,
        )
        return d

    def release(
        self,
        step: int,
        ball: WBall,
        player: WPlayer,
        reason: str,
        directions: Callable[[int], Sequence[Direction]] = on_field_directions,
    ) -> None:
        """``player`` lets go of ``ball`` where he is: it goes into free flight
        with a random course (one of ``directions`` of the cell: the field's
        own), uncatchable this tick, and may be swallowed at step 7 (§4, §9.6,
        §9.7)."""
        player.balls.remove(ball)
        ball.holder = None
        ball.status = "free"
        ball.cell = player.cell
        ball.height = player.height
        ball.catchable = False
        ball.released = True
        ball.passed = False
        ball.pass_ticks_left = 0
        self.emit(
            step,
            Kind.BALL_DROPPED,
            {
                "ball": ball.name,
                "side": player.side,
                "number": player.number,
                "cell": ball.cell,
                "height": ball.height,
                "reason": reason,
            },
        )
        assert ball.cell is not None
        ball.direction = self.random_direction(step, ball, directions(ball.cell))

    def fall(self, step: int, player: WPlayer, cause: str) -> None:
        """§4: the player falls; he spends h × rounds_per_height rounds in the
        hospital wing and his balls go into free flight."""
        height = player.height or self.rules.min_height
        back = self.round + height * self.rules.hospital_rounds_per_height
        self.emit(
            step,
            Kind.FALL,
            {
                "side": player.side,
                "number": player.number,
                "cell": player.cell,
                "height": player.height,
                "cause": cause,
                "return_round": back,
            },
        )
        for b in tuple(player.balls):
            self.release(step, b, player, "fall")
        player.status = "hospital"
        player.cell = player.height = None
        player.return_round = back
        player.out_this_tick = True
