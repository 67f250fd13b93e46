"""The order sheet: what a team has on file, what is missing, clearing it, being ready."""

from __future__ import annotations

from bot.orderlang import format_sheet
from bot.orderlang.substitutes import effective, lineup
from engine.geometry import SIDES, Side
from engine.orders import RoundOrders
from engine.ruleset import Ruleset
from engine.state import MatchState, PlayerState
from storage import repo
from storage.models import Game, OrderRow, Round

from ..kernel.context import Actor, ServiceError, Tx, game_code
from ..kernel.i18n import N_, format_time, t
from ..rounds import resolve as rounds
from . import changes
from .scope import Scope, open_round_of, play

__all__ = [
    "clear",
    "member_reminder",
    "missing_labels",
    "missing_players",
    "set_ready",
    "sheet",
    "sheet_orders",
    "sheet_sides",
]


def missing_players(
    orders: RoundOrders,
    state: MatchState,
    ruleset: Ruleset,
    side: Side,
    numbers: frozenset[int] | None,
) -> list[tuple[PlayerState, tuple[int, ...]]]:
    """Players of ``side`` (among ``numbers``) due an order for some tick that
    has none, with those ticks — as the round will be played: a substitute
    counts with the orders of the player he replaces (bot/orderlang/substitutes.py)."""
    played, _ = effective(state, orders, ruleset)
    shown = lineup(state, orders, ruleset)
    out = []
    for p in shown.team_players(side):
        if numbers is not None and p.number not in numbers:
            continue
        ticks = tuple(
            tick
            for tick in range(shown.tick + 1, ruleset.ticks_per_round + 1)
            if (
                p.status == "active"
                or (
                    p.status == "hospital"
                    and p.return_round == shown.round
                    and tick == ruleset.hospital_return_tick
                )
            )
            and played.player_order(side, p.number, tick) is None
        )
        if ticks:
            out.append((p, ticks))
    return out


def missing_labels(
    orders: RoundOrders,
    state: MatchState,
    ruleset: Ruleset,
    side: Side,
    numbers: frozenset[int] | None,
    lang: str,
) -> list[str]:
    """:func:`missing_players` as a reader reads them: "Петров" when he has
    no order at all, "Иванов (такт 3)" when only some ticks lack one."""
    due = range(state.tick + 1, ruleset.ticks_per_round + 1)
    out = []
    for p, ticks in missing_players(orders, state, ruleset, side, numbers):
        if p.status != "active" or len(ticks) == len(due):
            out.append(p.name)
        else:
            key = N_("missing_tick") if len(ticks) == 1 else N_("missing_ticks")
            out.append(t(key, lang, name=p.name, ticks=", ".join(str(x) for x in ticks)))
    return out


def sheet_sides(tx: Tx, actor: Actor, game_id: int, side: str | None = None) -> frozenset[str]:
    """Whose order sheets the actor asks for and may see: his own team's (a game
    master: both, or the one he names)."""
    _game, scope, _rnd = play(tx, actor, game_id, lock=False)
    if scope.side is not None:
        return frozenset({scope.side})
    return frozenset({side}) if side in SIDES else frozenset(SIDES)


def sheet(tx: Tx, game_id: int, sides: frozenset[str], lang: str) -> str:
    """The order sheets of ``sides`` in the game's open round."""
    game = repo.get_game(tx.s, game_id)
    assert game is not None and game.id is not None
    rnd = open_round_of(tx, game)
    state = rounds.load_state(tx, rnd)
    shown: Side | None = None
    if len(sides) == 1:
        shown = "left" if "left" in sides else "right"
    rows = repo.current_orders(tx.s, game.id, rnd.number, shown)
    head = t(
        N_("sheet_header") if shown else N_("sheet_header_both"), lang, game=game_code(game),
        round=rnd.number, deadline=format_time(rnd.deadline, game.timezone, lang),
        team=state.team(shown).name if shown else "",
        left=state.team("left").name, right=state.team("right").name,
    )  # fmt: skip
    body = format_sheet(
        sheet_orders(rows), state=state, ruleset=rounds.ruleset_of(game), side=shown, lang=lang
    )
    return f"{head}\n\n{body}"


def clear(
    tx: Tx,
    actor: Actor,
    game_id: int,
    numbers: tuple[int, ...] = (),
    *,
    within: Side | None = None,
    seen_by: Side | None = None,
) -> int:
    """Forget the member's orders (only ``numbers``' if given); returns how many."""
    game, scope, rnd = play(tx, actor, game_id, within=within)
    assert game.id is not None
    rows = [
        r for r in repo.current_orders(tx.s, game.id, rnd.number, scope.side) if scope.covers(r)
    ]
    if numbers:
        rows = [r for r in rows if r.unit == "player" and r.number in numbers]
    count = repo.supersede(tx.s, rows, tx.now)
    if rows:
        state = rounds.load_state(tx, rnd)
        changes.tell(
            tx, game, rnd, actor, filed=(), cleared=rows, state=state,
            ruleset=rounds.ruleset_of(game), seen_by=seen_by,
        )  # fmt: skip
    return count


def set_ready(tx: Tx, actor: Actor, game_id: int, ready: bool) -> tuple[str, int, bool]:
    """The member says his orders are final (or not).  A team is ready when all
    its members are; when both are, the round is due at once.  Returns (team
    name, round, whether the whole team is ready)."""
    game, scope, rnd = play(tx, actor, game_id)
    assert game.id is not None
    if scope.side is None or actor.member is None or actor.member.id is None:
        raise ServiceError("not_member", status="refused", game=game_code(game))
    members = set(rnd.ready_members)
    (members.add if ready else members.discard)(actor.member.id)
    rnd.ready_members = sorted(members)
    people = repo.memberships(tx.s, game.id)
    sides = [
        side
        for side in SIDES
        if all(
            m.member_id in members for m, _ in people if m.side == side and m.role != "game_master"
        )
        and any(m.side == side and m.role != "game_master" for m, _ in people)
    ]
    rnd.ready = ",".join(sides)
    tx.s.add(rnd)
    team = repo.teams(tx.s, game.id)[scope.side]
    return team.name, rnd.number, scope.side in sides


def member_reminder(
    tx: Tx, game: Game, rnd: Round, scope: Scope, state: MatchState, ruleset: Ruleset, lang: str
) -> list[str]:
    """The member's players still without orders in ``rnd`` (and for which ticks)."""
    assert game.id is not None and scope.side is not None
    rows = repo.current_orders(tx.s, game.id, rnd.number, scope.side)
    return missing_labels(sheet_orders(rows), state, ruleset, scope.side, scope.numbers, lang)


def sheet_orders(rows: list[OrderRow]) -> RoundOrders:
    return RoundOrders.from_json(rounds.orders_document(rows))
