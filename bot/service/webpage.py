"""What the ordering page (:mod:`bot.web`) uses of the service: who asks, for
which game and round, what he may order and has on file, and reading a draft
as the judge would read it.  The web server reads only through here (and
:class:`~bot.service.GameService`), never the service's inner modules."""

from __future__ import annotations

from engine.geometry import Side
from engine.orders import RoundOrders
from storage import repo
from storage.models import Game, Member

from .handlers.members import choose_game
from .inbound.commands import parse_command
from .inbound.receive import identify
from .kernel.context import Tx
from .orders.scope import Scope, open_round_of, scope_of
from .orders.submit import OrderPlan, plan_orders
from .rounds.replay import replay_pages
from .rounds.stored import load_state, orders_document, ruleset_of

__all__ = [
    "OrderPlan",
    "Scope",
    "choose_game",
    "game",
    "identify",
    "is_command",
    "load_state",
    "member",
    "open_round_of",
    "orders_on_file",
    "plan_orders",
    "replay_pages",
    "resolved_count",
    "ruleset_of",
    "scope_of",
]


def is_command(text: str) -> bool:
    """Whether the text is a command (the page takes orders only)."""
    return parse_command(text) is not None


def member(tx: Tx, member_id: int) -> Member | None:
    return tx.s.get(Member, member_id)


def game(tx: Tx, game_id: int) -> Game | None:
    return repo.get_game(tx.s, game_id)


def orders_on_file(tx: Tx, game_id: int, number: int, side: Side) -> RoundOrders:
    """The orders of ``side`` on file for round ``number``."""
    return RoundOrders.from_json(orders_document(repo.current_orders(tx.s, game_id, number, side)))


def resolved_count(tx: Tx, game_id: int) -> int:
    """How many rounds of the game are resolved (its replay has a page each)."""
    return len(repo.resolved_rounds(tx.s, game_id))
