"""What stored rounds hold: their rules, positions, orders, events and report material."""

from __future__ import annotations

from typing import Any

from bot.render.material import RoundMaterial
from engine.events import Event
from engine.orders import RoundOrders
from engine.ruleset import Ruleset, load_ruleset, load_ruleset_label
from engine.state import MatchState
from storage import repo
from storage.models import Game, OrderRow, Round

from ..kernel.context import ServiceError, Tx, game_code

__all__ = [
    "UNIT_KEYS",
    "collect_orders",
    "current_round",
    "descriptions",
    "events_of",
    "load_state",
    "material",
    "orders_document",
    "round_ruleset",
    "ruleset_of",
]


UNIT_KEYS = {
    "player": "players",
    "dragon": "dragons",
    "substitution": "substitutions",
    "penalty": "penalties",
    "warning": "warnings",
}


def ruleset_of(game: Game) -> Ruleset:
    """The rules the game's next round is played by: its ruleset at the
    current version (or the version it is pinned to, ``classic@1``)."""
    return load_ruleset_label(game.ruleset)


def round_ruleset(game: Game, rnd: Round) -> Ruleset:
    """The rules a resolved round was played under, as it recorded them; a
    round from before rounds recorded them was played under version 1."""
    name = rnd.ruleset or game.ruleset.partition("@")[0]
    return load_ruleset(name, rnd.ruleset_version or 1)


def current_round(tx: Tx, game: Game) -> Round | None:
    return repo.round_by_id(tx.s, game.current_round_id)


def load_state(tx: Tx, rnd: Round, tick: int = 0) -> MatchState:
    """The stored position of ``rnd`` after ``tick`` ticks (0: before the round)."""
    assert rnd.id is not None
    key = (rnd.id, tick)
    cached = tx.read_positions.get(key)  # read earlier in this transaction
    if cached is None and tx.positions is not None:
        cached = tx.positions.get(key)
    if cached is not None:
        return cached
    data = repo.snapshot(tx.s, rnd.id, tick)
    if data is None:
        raise ServiceError("no_snapshot", status="refused", round=rnd.number)
    state = MatchState.from_json(data)
    tx.read_positions[key] = state
    return state


def orders_document(rows: list[OrderRow]) -> dict[str, Any]:
    """The engine's JSON form of a set of stored orders."""
    doc: dict[str, list[Any]] = {key: [] for key in UNIT_KEYS.values()}
    for row in rows:
        doc[UNIT_KEYS[row.unit]].append(row.data)
    return doc


def collect_orders(tx: Tx, game_id: int, number: int) -> RoundOrders:
    return RoundOrders.from_json(orders_document(repo.current_orders(tx.s, game_id, number)))


def material(tx: Tx, round_id: int) -> RoundMaterial:
    """What the reports of a resolved round are drawn from, as stored."""
    rnd = repo.round_by_id(tx.s, round_id)
    game = repo.get_game(tx.s, rnd.game_id) if rnd is not None else None
    if rnd is None or game is None or rnd.orders is None:
        raise ServiceError("verify_no_round", round=round_id)
    ticks = []
    for tick in range(1, 100):
        data = repo.snapshot(tx.s, round_id, tick)
        if data is None:
            break
        ticks.append(MatchState.from_json(data))
    before = load_state(tx, rnd)
    orders = RoundOrders.from_json(rnd.orders)
    return RoundMaterial(
        before=before,
        after=ticks[-1] if ticks else before,
        tick_states=tuple(ticks),
        events=tuple(events_of(tx, rnd)),
        ruleset=round_ruleset(game, rnd),
        descriptions=descriptions(orders),
        game=game_code(game),
    )


def descriptions(orders: RoundOrders) -> dict[tuple[str, int, int], str]:
    return {(o.side, o.number, o.tick): o.description for o in orders.players if o.description}


def events_of(tx: Tx, rnd: Round) -> list[Event]:
    assert rnd.id is not None
    return [Event.from_json(e) for e in repo.events_of_round(tx.s, rnd.id)]
