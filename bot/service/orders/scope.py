"""Who may order what: a member's pieces, a captain's team, a game master's both; the round open for orders."""

from __future__ import annotations

from dataclasses import dataclass

from engine.geometry import SIDES, Side
from storage import repo
from storage.models import Game, OrderRow, Round

from ..kernel.context import Actor, ServiceError, Tx, game_code
from ..rounds import resolve as rounds

__all__ = ["Scope", "open_round_of", "play", "scope_of"]


@dataclass(frozen=True)
class Scope:
    """What one member may order in one game."""

    side: Side | None  # None: a game master, both teams
    numbers: frozenset[int] | None  # None: every player of the side(s)
    dragon: bool
    gm: bool = False

    def covers(self, row: OrderRow) -> bool:
        if self.side is not None and row.side != self.side:
            return False
        if self.gm:
            return True
        if row.unit == "player":
            return self.numbers is None or row.number in self.numbers
        if row.unit == "dragon":
            return self.dragon
        return self.numbers is None  # substitutions: the captain's


def scope_of(tx: Tx, actor: Actor, game: Game, within: Side | None = None) -> Scope:
    """What the actor may order; ``within``: a game master acts for that team only
    (where only that team reads, see bot.service.kernel.audience.acting_view)."""
    assert game.id is not None
    if actor.trusted or actor.global_gm:
        return Scope(within, None, True, gm=True)
    ms = (
        repo.membership(tx.s, actor.member.id, game.id)
        if actor.member and actor.member.id
        else None
    )
    if ms is not None and ms.role == "game_master":  # as gm.is_gm says, in one query
        return Scope(within, None, True, gm=True)
    if ms is None or ms.side not in SIDES:
        raise ServiceError("not_member", status="refused", game=game_code(game))
    side: Side = "left" if ms.side == "left" else "right"
    if ms.role == "captain":
        return Scope(side, None, True)
    tokens = {p.strip().lower() for p in ms.players.split(",") if p.strip()}
    numbers = frozenset(int(p) for p in tokens if p.isdigit())
    return Scope(side, numbers, "dragon" in tokens)


def open_round_of(tx: Tx, game: Game) -> Round:
    if game.status == "setup":
        raise ServiceError("game_not_started", game=game_code(game))
    if game.status == "ended":
        raise ServiceError("game_over", game=game_code(game))
    rnd = rounds.current_round(tx, game)
    if rnd is None or rnd.status != "open":
        raise ServiceError("no_open_round")
    return rnd


def play(
    tx: Tx, actor: Actor, game_id: int, *, lock: bool = True, within: Side | None = None
) -> tuple[Game, Scope, Round]:
    """The game (locked for a change), what the actor may order in it, its open round."""
    game = repo.lock_game(tx.s, game_id) if lock else repo.get_game(tx.s, game_id)
    if game is None:
        raise ServiceError("unknown_game", game=game_code(game_id))
    scope = scope_of(tx, actor, game, within)
    return game, scope, open_round_of(tx, game)
