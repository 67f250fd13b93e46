"""A substitution carries the orders over.

A substitution is made before the round's first tick (§8): the reserve takes
the place of the player going off — his cell, height and balls.  He takes his
orders too: for every tick of the round for which the reserve has no order
of his own, the outgoing player's order becomes his (:func:`carry_over`), so
nobody drops a ball because a team changed players, and the sheet, the list
of who still lacks orders and the round itself all see the same orders.
:func:`lineup` is the position as the round will start, for naming the
players on the field.
"""

from __future__ import annotations

from dataclasses import replace

from engine.legality import check_orders
from engine.orders import PlayerOrder, RoundOrders, Substitution
from engine.ruleset import Ruleset
from engine.state import MatchState

__all__ = ["carry_over", "effective", "lineup", "valid_substitutions"]


def effective(
    state: MatchState, orders: RoundOrders, ruleset: Ruleset
) -> tuple[RoundOrders, dict[PlayerOrder, PlayerOrder]]:
    """The orders the round will be played with: :func:`carry_over` for the
    substitutions the rules allow (a refused one carries nothing)."""
    if not orders.substitutions or state.tick > 0 or not ruleset.substitute_takes_orders:
        return orders, {}
    return carry_over(orders, valid_substitutions(state, orders, ruleset))


def carry_over(
    orders: RoundOrders, substitutions: tuple[Substitution, ...] | None = None
) -> tuple[RoundOrders, dict[PlayerOrder, PlayerOrder]]:
    """``orders`` with each outgoing player's orders given to his substitute
    (where the substitute has none for that tick), and for each order so
    made, the order it came from.  ``substitutions``: those to apply (by
    default all of ``orders``')."""
    subs: dict[tuple[str, int], int] = {}
    for s in orders.substitutions if substitutions is None else substitutions:
        subs.setdefault((s.side, s.out_number), s.in_number)
    if not subs:
        return orders, {}
    own = {(o.side, o.number, o.tick) for o in orders.players}
    origin: dict[PlayerOrder, PlayerOrder] = {}
    players: list[PlayerOrder] = []
    for o in orders.players:
        incoming = subs.get((o.side, o.number))
        if incoming is None:
            players.append(o)
        elif (o.side, incoming, o.tick) not in own:
            moved = replace(o, number=incoming)
            origin[moved] = o
            players.append(moved)
        # else: the substitute has his own order for that tick; the outgoing one lapses
    return replace(orders, players=tuple(players)), origin


def valid_substitutions(
    state: MatchState, orders: RoundOrders, ruleset: Ruleset
) -> tuple[Substitution, ...]:
    """The substitutions of ``orders`` the rules allow in ``state``."""
    if not orders.substitutions:
        return ()
    subs = RoundOrders(substitutions=orders.substitutions)
    refused = {p.order for p in check_orders(state, subs, ruleset)}
    return tuple(s for s in orders.substitutions if s not in refused)


def lineup(state: MatchState, orders: RoundOrders, ruleset: Ruleset) -> MatchState:
    """``state`` as the round will start: the reserve in the outgoing player's
    place (status, cell, height, balls), the outgoing player a reserve."""
    if state.tick > 0 or not orders.substitutions:
        return state  # substitutions happen before the first tick only
    for s in valid_substitutions(state, orders, ruleset):
        out_p, in_p = state.player(s.side, s.out_number), state.player(s.side, s.in_number)
        hospital = out_p.status == "hospital"
        state = state.with_player(
            replace(
                in_p,
                status=out_p.status,
                cell=out_p.cell,
                height=out_p.height,
                balls=out_p.balls,
                return_round=state.round if hospital else None,
            )
        )
        state = state.with_player(
            replace(out_p, status="reserve", cell=None, height=None, balls=())
        )
    return state
