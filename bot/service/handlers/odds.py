"""``/odds`` (``/шансы``): the chances of the orders a team has on file.

Computed by :mod:`engine.odds` from the position everybody sees and the
team's own orders only, so the answer may go wherever the team's sheet may.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.geometry import Side
from engine.odds import OrderOdds, order_odds
from engine.orders import RoundOrders
from engine.ruleset import Ruleset
from engine.state import MatchState
from storage import repo
from storage.models import Game, Round

from ..kernel.context import Tx, game_code
from ..kernel.i18n import t
from ..orders.submit import open_round_of
from ..rounds import resolve as rounds

__all__ = ["SheetOdds", "odds_text", "sheet_odds"]


@dataclass(frozen=True)
class SheetOdds:
    game: Game
    round: Round
    state: MatchState
    ruleset: Ruleset
    odds: list[OrderOdds]


def sheet_odds(tx: Tx, game_id: int, side: Side, orders: RoundOrders | None = None) -> SheetOdds:
    """The odds of ``side``'s sheet on file (or of ``orders``) in the open round."""
    game = repo.get_game(tx.s, game_id)
    assert game is not None and game.id is not None
    rnd = open_round_of(tx, game)
    state = rounds.load_state(tx, rnd)
    ruleset = rounds.ruleset_of(game)
    if orders is None:
        rows = repo.current_orders(tx.s, game.id, rnd.number, side)
        orders = RoundOrders.from_json(rounds.orders_document(rows))
    return SheetOdds(game, rnd, state, ruleset, order_odds(state, ruleset, orders, side))


def odds_text(tx: Tx, game_id: int, sides: frozenset[str], lang: str) -> str:
    """The answer to ``/odds`` for the teams of ``sides``, line by line."""
    game = repo.get_game(tx.s, game_id)
    assert game is not None
    if rounds.ruleset_of(game).field_shape == "square":
        # engine.odds reckons on the hex field only: no figures rather than wrong ones.
        return t("odds.square", lang, game=game_code(game))
    parts: list[str] = []
    for side in ("left", "right"):
        if side not in sides:
            continue
        found = sheet_odds(tx, game_id, "left" if side == "left" else "right")
        head = t("odds.header", lang, game=game_code(found.game), round=found.round.number,
                 team=found.state.team("left" if side == "left" else "right").name)  # fmt: skip
        lines = tx.reporter.odds_lines(
            found.odds, state=found.state, ruleset=found.ruleset, lang=lang
        )
        parts.append("\n".join([head, *(lines or [t("odds.no_orders", lang)])]))
    return "\n\n".join(parts)
