"""Filing orders: one row per piece and tick, the newest one current."""

from __future__ import annotations

from collections.abc import Iterable

from bot.orderlang import format_orders
from engine.orders import (
    DragonOrder,
    Penalty,
    PlayerOrder,
    RoundOrders,
    Substitution,
    TeamWarning,
)
from engine.ruleset import Ruleset
from engine.state import MatchState
from storage import repo
from storage.models import Game, OrderRow

from ..kernel.context import Tx
from ..rounds.stored import UNIT_KEYS

__all__ = ["Order", "bundle", "store_order"]

Order = PlayerOrder | DragonOrder | Substitution | Penalty | TeamWarning


def bundle(orders: Iterable[Order]) -> RoundOrders:
    """Loose orders as one :class:`RoundOrders`."""
    items = list(orders)
    return RoundOrders(
        players=tuple(o for o in items if isinstance(o, PlayerOrder)),
        dragons=tuple(o for o in items if isinstance(o, DragonOrder)),
        substitutions=tuple(o for o in items if isinstance(o, Substitution)),
        penalties=tuple(o for o in items if isinstance(o, Penalty)),
        warnings=tuple(o for o in items if isinstance(o, TeamWarning)),
    )


def store_order(
    tx: Tx,
    game: Game,
    order: Order,
    *,
    state: MatchState,
    ruleset: Ruleset,
    author: str,
    message_id: int | None = None,
    member_id: int | None = None,
    on_file: list[OrderRow] | None = None,
) -> OrderRow:
    """File one order for the round of ``state``, superseding the one it replaces.

    The row keeps the engine's JSON of the order and its canonical text (what
    the order language prints and reads back to the same order).  ``on_file``:
    the current orders of the round already loaded in this transaction (at least
    those of the order's side), to spare a query."""
    assert game.id is not None
    doc = bundle([order]).to_json()
    unit, key = next((u, k) for u, k in UNIT_KEYS.items() if doc.get(k))
    data = doc[key][0]
    piece = int(data.get("number", data.get("out", 0)))
    tick = int(data.get("tick", 0))
    if on_file is None:
        on_file = repo.current_orders(tx.s, game.id, state.round, order.side)
    same = [
        r
        for r in on_file
        if r.current
        and r.side == order.side
        and r.unit == unit
        and r.number == piece
        and r.tick == tick
    ]
    repo.supersede(tx.s, same, tx.now)
    row = OrderRow(
        game_id=game.id,
        round_number=state.round,
        side=order.side,
        unit=unit,
        number=piece,
        tick=tick,
        text=format_orders(bundle([order]), state=state, ruleset=ruleset, lang=game.lang),
        data=data,
        message_id=message_id,
        member_id=member_id,
        author=author,
        created_at=tx.now,
    )
    repo.add_order(tx.s, row)
    return row
