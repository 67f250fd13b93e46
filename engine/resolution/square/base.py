"""The field, tables and look-ups every 001 step uses."""

from __future__ import annotations

from typing import Any

from ...events import Kind
from ...field import SquareField
from ...geometry import Direction
from ...orders import DragonOrder, PlayerOrder
from ..context import Tick
from ..work import WBall, WDragon, WPlayer

__all__ = [
    "abs_tick",
    "active",
    "bounce",
    "cells_of",
    "dragon_order",
    "field_of",
    "frame",
    "in_reach",
    "on_field",
    "player_order",
    "steal_reach",
    "var",
    "var_or",
]


def field_of(t: Tick) -> SquareField:
    field = t.rules.field
    assert isinstance(field, SquareField)
    return field


def var(t: Tick, key: str) -> Any:
    extra = t.rules.extra
    assert isinstance(extra, dict), "a ruleset playing the 001 steps needs its [variant] table"
    return extra[key]


def var_or(t: Tick, key: str, default: Any) -> Any:
    """A [variant] setting a later version added: a version that has not the
    key (``added_later`` in its history) plays by ``default``."""
    extra = t.rules.extra
    assert isinstance(extra, dict), "a ruleset playing the 001 steps needs its [variant] table"
    return extra.get(key, default)


def abs_tick(t: Tick) -> int:
    return (t.round - 1) * t.rules.ticks_per_round + t.tick


def active(t: Tick) -> list[WPlayer]:
    return [p for p in t.w.players if p.status == "active" and p.cell is not None]


def cells_of(d: WDragon) -> tuple[int, int, int]:
    return d.head, d.body, d.tail


def player_order(t: Tick, p: WPlayer) -> PlayerOrder | None:
    return t.orders.players.get((p.side, p.number, t.tick))


def dragon_order(t: Tick, d: WDragon) -> DragonOrder | None:
    return t.orders.dragons.get((d.side, t.tick))


def in_reach(t: Tick, d: WDragon, height: int | None) -> bool:
    return height is not None and abs(height - d.height) <= int(var(t, "zone_height_reach"))


def frame(field: SquareField, origin: int, facing: Direction, ahead: int, right: int) -> int | None:
    """The cell ``ahead`` cells forward and ``right`` to the right of ``origin``
    in a dragon's frame."""
    cell: int | None = origin
    fwd = facing if ahead >= 0 else field.opposite(facing)
    side = field.turned(facing, 1) if right >= 0 else field.turned(facing, -1)
    for _ in range(abs(ahead)):
        cell = field.step(cell, fwd) if cell is not None else None
    for _ in range(abs(right)):
        cell = field.step(cell, side) if cell is not None else None
    return cell


def on_field(t: Tick, cell: int) -> tuple[Direction, ...]:
    f = field_of(t)
    return tuple(d for d in f.directions if f.step(cell, d) is not None)


def bounce(t: Tick, step: int, b: WBall, reason: str) -> Direction:
    """``b`` takes a random course among those that stay on the field."""
    assert b.cell is not None
    choices = on_field(t, b.cell)
    data = {"ball": b.name, "cell": b.cell}
    roll, new = t.pick(step, Kind.BALL_BOUNCE, data, choices, [c.name for c in choices])
    t.emit(
        step,
        Kind.BALL_BOUNCE,
        data | {"direction": new.name, "reason": reason},
        1 / len(choices),
        roll,
    )
    b.direction = new
    return new


def steal_reach(t: Tick, f: SquareField, q: WPlayer, p: WPlayer) -> bool:
    if q.cell is None or p.cell is None or q.height is None or p.height is None:
        return False
    return (
        f.distance(q.cell, p.cell) <= 1
        and abs(q.height - p.height) <= t.rules.steal.adjacent_max_height_diff
    )
