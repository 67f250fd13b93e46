"""What reading a message gives: valid orders, clears, errors, and the merge rule."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from engine.geometry import Side
from engine.orders import DragonOrder, Penalty, PlayerOrder, RoundOrders, Substitution

from .errors import OrderError

__all__ = ["Clear", "Order", "ParseResult", "apply_clears", "apply_result"]

Order = PlayerOrder | DragonOrder | Substitution | Penalty


@dataclass(frozen=True, slots=True)
class Clear:
    """A request to forget orders on file.

    ``what`` is "player" (``number`` given), "dragon", or "all" (the team's
    whole sheet); ``tick`` None means every tick of the round.
    """

    side: Side
    what: Literal["player", "dragon", "all"]
    number: int | None = None
    tick: int | None = None

    def covers_player(self, order: PlayerOrder) -> bool:
        return (
            order.side == self.side
            and (self.what == "all" or (self.what == "player" and self.number == order.number))
            and self.tick in (None, order.tick)
        )

    def covers_dragon(self, order: DragonOrder) -> bool:
        return (
            order.side == self.side
            and self.what in ("all", "dragon")
            and self.tick in (None, order.tick)
        )


@dataclass(frozen=True, slots=True)
class ParseResult:
    """The outcome of :func:`parse_message`.

    ``orders`` holds only valid orders (each player order with its
    description), ``line_of`` the 1-based source line of each of them,
    ``clears`` what the message asks to forget (apply them before merging
    ``orders``: :func:`apply_result` does both; ``clear_lines`` where),
    ``round`` the round the message names, if any.
    """

    orders: RoundOrders = field(default_factory=RoundOrders)
    clears: tuple[Clear, ...] = ()
    errors: tuple[OrderError, ...] = ()
    round: int | None = None
    line_of: Mapping[Order, int] = field(default_factory=dict)
    clear_lines: tuple[int, ...] = ()  # the lines that asked to clear something
    # What the writer is told beside the errors (localised sentences): orders
    # read from a pasted answer of another round were taken for this one.
    notes: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.errors


def apply_clears(sheet: RoundOrders, clears: tuple[Clear, ...]) -> RoundOrders:
    """``sheet`` without what ``clears`` cover (substitutions go with "all")."""
    if not clears:
        return sheet
    everything = {c.side for c in clears if c.what == "all" and c.tick is None}
    return RoundOrders(
        players=tuple(o for o in sheet.players if not any(c.covers_player(o) for c in clears)),
        dragons=tuple(o for o in sheet.dragons if not any(c.covers_dragon(o) for c in clears)),
        substitutions=tuple(s for s in sheet.substitutions if s.side not in everything),
        penalties=sheet.penalties,
    )


def apply_result(sheet: RoundOrders, result: ParseResult) -> RoundOrders:
    """The merge rule: clears first, then the message's valid orders replace
    those on file for the same player (or dragon) and tick."""
    return apply_clears(sheet, result.clears).merged(result.orders)
