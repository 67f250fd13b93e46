"""Orders from members: reading them, filing them, answering (who may order what:
:mod:`.scope`; the order sheet: :mod:`.sheet`).

A member orders the players he controls; a captain his whole team and its
dragon; a game master anything (his messages name the team).  Orders are
filed one row per piece and tick; a newer order supersedes the one on file
(which stays on record), a clear supersedes without replacement.  A member
only ever sees his own team's orders.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.orderlang import ParseResult, parse_message
from bot.orderlang.result import Order as LangOrder
from engine.geometry import SIDES, Side
from engine.orders import DragonOrder, PlayerOrder, Substitution
from engine.state import MatchState
from storage import repo
from storage.models import Game, OrderRow, Round

from ..kernel.context import Actor, ServiceError, Tx
from ..kernel.i18n import format_time, t
from ..rounds import resolve as rounds
from ..rounds.receipts import receipt
from . import changes
from .acknowledge import Acknowledgement
from .filing import Order, store_order
from .scope import Scope, open_round_of, play, scope_of
from .sheet import (
    clear,
    member_reminder,
    missing_labels,
    missing_players,
    set_ready,
    sheet,
    sheet_orders,
    sheet_sides,
)

__all__ = [
    "OrderPlan",
    "Scope",
    "clear",
    "looks_like_orders",
    "member_reminder",
    "missing_labels",
    "missing_players",
    "open_round_of",
    "plan_orders",
    "recognised",
    "scope_of",
    "set_ready",
    "sheet",
    "sheet_sides",
    "submit",
]


@dataclass(frozen=True)
class OrderPlan:
    """An order message read and checked outside the write transaction: valid in
    it only if the round, the writer's scope and the orders on file it was read
    against are still the same (else it is read again, under the lock)."""

    game_id: int
    round_id: int
    scope: Scope
    text: str
    lang: str
    on_file: frozenset[int]  # ids of the current rows it was read against
    result: ParseResult

    def fits(self, game_id: int, rnd: Round, scope: Scope, text: str, lang: str,
             rows: list[OrderRow]) -> bool:  # fmt: skip
        return (self.game_id, self.round_id, self.scope, self.text, self.lang) == (
            game_id,
            rnd.id,
            scope,
            text,
            lang,
        ) and self.on_file == frozenset(r.id for r in rows if r.id is not None)


def _parse(
    tx: Tx, game: Game, rnd: Round, scope: Scope, text: str, lang: str, rows: list[OrderRow]
) -> ParseResult:
    return parse_message(
        text,
        state=rounds.load_state(tx, rnd),
        ruleset=rounds.ruleset_of(game),
        side=scope.side,
        lang=lang,
        controllable=scope.numbers,
        dragon_allowed=scope.dragon,
        on_file=sheet_orders(rows),
    )


def plan_orders(
    tx: Tx, actor: Actor, game_id: int, text: str, *, replaces_message: int | None = None,
    lang: str | None = None, within: Side | None = None,
) -> OrderPlan:  # fmt: skip
    """Read ``text`` against the open round as :func:`submit` would, without a lock."""
    game, scope, rnd = play(tx, actor, game_id, lock=False, within=within)
    assert game.id is not None and rnd.id is not None
    rows = repo.current_orders(tx.s, game.id, rnd.number, scope.side)
    if replaces_message is not None:
        rows = [r for r in rows if r.message_id != replaces_message]
    lang = lang or actor.lang
    result = _parse(tx, game, rnd, scope, text, lang, rows)
    ids = frozenset(r.id for r in rows if r.id is not None)
    return OrderPlan(game.id, rnd.id, scope, text, lang, ids, result)


def _order_of(row: OrderRow) -> LangOrder:
    doc = sheet_orders([row])
    every: list[LangOrder] = [*doc.players, *doc.dragons, *doc.substitutions, *doc.penalties]
    return every[0]


def submit(
    tx: Tx,
    actor: Actor,
    game_id: int,
    text: str,
    *,
    message_id: int | None = None,
    replaces_message: int | None = None,
    received_at: datetime | None = None,
    lang: str | None = None,
    within: Side | None = None,
    seen_by: Side | None = None,
) -> tuple[str, str]:
    """File the orders of a message; returns (status, reply text in ``lang``,
    the language of its readers).  ``within``: see :func:`scope_of`; ``seen_by``:
    the team whose group the message was written in (see :mod:`changes`).

    A message the channel received after the deadline is too late for the
    round still waiting for its resolution (one received in time counts, even
    if the service works on it a little later)."""
    game, scope, rnd = play(tx, actor, game_id, within=within)
    assert game.id is not None
    lang = lang or actor.lang
    arrived = received_at or tx.now
    if game.status == "running" and rnd.deadline <= arrived:
        # The round is being played without it; the next one opens with the results.
        nxt = rounds.deadline_after(game, rnd.deadline)
        raise ServiceError(
            "too_late", round=rnd.number, deadline=format_time(rnd.deadline, game.timezone, lang),
            next=rnd.number + 1, next_deadline=format_time(nxt, game.timezone, lang),
        )  # fmt: skip
    state = rounds.load_state(tx, rnd)
    ruleset = rounds.ruleset_of(game)
    on_file_rows = repo.current_orders(tx.s, game.id, rnd.number, scope.side)
    withdrawn: list[OrderRow] = []
    if replaces_message is not None:
        # An edited message takes back what the original carried, then counts afresh.
        withdrawn = [r for r in on_file_rows if r.message_id == replaces_message]
        repo.supersede(tx.s, withdrawn, tx.now)
        on_file_rows = [r for r in on_file_rows if r.message_id != replaces_message]
    plan = tx.plan if isinstance(tx.plan, OrderPlan) else None
    if plan is not None and plan.fits(game.id, rnd, scope, text, lang, on_file_rows):
        result = plan.result  # read before the lock, and nothing it relied on changed
    else:
        result = _parse(tx, game, rnd, scope, text, lang, on_file_rows)
    if result.round is not None and result.round != rnd.number:
        raise ServiceError("wrong_round", given=result.round, current=rnd.number)
    late_note = _late(tx, game, rnd, arrived, result.round, lang)
    refused = _refuse_outside_scope(result, scope, lang)
    cleared_rows = _apply_clears(tx, result, on_file_rows, scope)
    cleared = len(cleared_rows)
    accepted = _accepted(result, scope)
    author = actor.identity
    member_id = actor.member.id if actor.member else None
    for order in accepted:
        row = store_order(
            tx, game, order, state=state, ruleset=ruleset, author=author,
            message_id=message_id, member_id=member_id, on_file=on_file_rows,
        )  # fmt: skip
        on_file_rows.append(row)
    changes.tell(
        tx, game, rnd, actor, filed=accepted, cleared=cleared_rows, state=state, ruleset=ruleset,
        seen_by=seen_by,
    )  # fmt: skip
    if not (accepted or result.clears or result.errors or refused or withdrawn):
        # Nothing here reads as orders: chatter in a team group, or a lost writer.
        return "ignored", t("orders_none_found", lang)
    parsed: list[LangOrder] = [
        *result.orders.players, *result.orders.dragons, *result.orders.substitutions,
        *result.orders.penalties,
    ]  # fmt: skip
    taken = [o for o in parsed if o in accepted]
    ack = Acknowledgement(
        round=rnd.number,
        deadline=format_time(rnd.deadline, game.timezone, lang),
        side=scope.side,
        result=result,
        accepted=taken,
        refused=[o for o in parsed if o not in accepted],
        refusals=refused,
        cleared=[_order_of(r) for r in cleared_rows],
        withdrawn=[_order_of(r) for r in withdrawn],
        sheet=sheet_orders([r for r in on_file_rows if r.current]),
        receipt=(
            _receipts([r for r in on_file_rows if r.current], state, scope, rnd.number, lang)
            if accepted or cleared
            else ""
        ),
    )
    status = (
        "ok"
        if not (result.errors or refused)
        else ("partial" if accepted or cleared else "rejected")
    )
    parts = [late_note] if late_note and (accepted or cleared) else []
    parts.append(ack.text(state, ruleset, lang))
    return status, "\n\n".join(parts)


def _receipts(rows: list[OrderRow], state: MatchState, scope: Scope, number: int, lang: str) -> str:
    """The receipt of each team the writer orders for: its whole sheet on file."""
    doc = rounds.orders_document(rows)
    sides: tuple[Side, ...] = SIDES if scope.side is None else (scope.side,)
    return "\n".join(
        receipt(doc, side, state.team(side).name, number, lang)
        for side in sides
        if scope.side is not None or any(r.side == side for r in rows)
    )


def _late(tx: Tx, game: Game, rnd: Round, arrived: datetime, header: int | None, lang: str) -> str:
    """A message that reached us before the open round existed was meant for the
    round played since (it arrived after that one's deadline, or was read too late:
    the game masters were told which channel lagged).  It is never moved to the
    open round silently: only with a round header naming it, or when the game's
    ``late_orders`` setting says so — and then the answer says so; else refused.
    Returns the note for the answer ("" when not late)."""
    assert game.id is not None
    # Channels stamp whole seconds (Telegram's date, IMAP's INTERNALDATE): a message
    # stamped in the second the round opened may have come after it, and gets the doubt.
    if arrived >= rnd.opened_at.replace(microsecond=0) or header == rnd.number:
        return ""
    played = repo.resolved_round(tx.s, game.id, rnd.number - 1)
    if played is None:
        return ""
    zone = game.timezone
    said = {
        "played": played.number, "deadline": format_time(played.deadline, zone, lang),
        "arrived": format_time(arrived, zone, lang), "round": rnd.number,
        "next_deadline": format_time(rnd.deadline, zone, lang),
    }  # fmt: skip
    if game.late_orders != "next_round":
        error = ServiceError("late_refused")
        error.params = said
        raise error
    return t("late_filed", lang, **said)


# Errors that show a line was read as an order, only a wrong one: a flight with
# no height, a ball or spell the rules do not know, an illegal move.  The others
# ("did not understand", an unknown word or player) are what chat gives too.
_ORDER_SHAPED = frozenset(
    {
        "no_height", "no_flight", "stay_unknown", "dragon_conflict", "pass_ball_which",
        "pass_ball_none", "receiver_unknown", "receiver_next_round", "one_action", "counter_in_pass",
        "spell_in_catch", "syntax_ticks", "under_bad_header", "unknown_number",
        "unknown_ball", "unknown_catch_word", "unknown_spell", "unknown_counter",
        "unknown_spell_list", "unknown_counter_list", "moved_from", "moved_from_unknown",
        "pass_no_target", "pass_mate_and_cell", "name_number", "dragon_direction", "second_order",
    }
)  # fmt: skip
_ORDER_KINDS = frozenset({"illegal", "forbidden", "ambiguous_name", "wrong_round"})


def recognised(result: ParseResult) -> bool:
    """Does a parsed message hold at least one line that reads as an order
    (a valid one, a clear, or one that is wrong only in what it asks)?"""
    o = result.orders
    if o.players or o.dragons or o.substitutions or o.penalties or result.clears:
        return True
    if any(e.kind == "too_large" for e in result.errors):
        return True  # too long to read: answered in a group as in private (issue 17)
    return any(e.kind in _ORDER_KINDS or e.code in _ORDER_SHAPED for e in result.errors)


def looks_like_orders(tx: Tx, actor: Actor, game: Game, text: str) -> bool:
    """Whether ``text``, written in a team group, is meant for the judge: read
    against the game's current position (never stored, nothing locked)."""
    try:
        scope = scope_of(tx, actor, game)
    except ServiceError:
        return False
    rnd = rounds.current_round(tx, game)
    if rnd is None:
        return False  # not started: there are no players to order yet
    plan = tx.plan if isinstance(tx.plan, OrderPlan) else None
    if plan is not None and (plan.game_id, plan.round_id, plan.scope, plan.text) == (
        game.id, rnd.id, scope, text,
    ):  # fmt: skip
        return recognised(plan.result)
    result = parse_message(
        text,
        state=rounds.load_state(tx, rnd),
        ruleset=rounds.ruleset_of(game),
        side=scope.side,
        lang=actor.lang,
        controllable=scope.numbers,
        dragon_allowed=scope.dragon,
    )
    return recognised(result)


def _refuse_outside_scope(result: ParseResult, scope: Scope, lang: str) -> list[str]:
    """Messages for what the parser read but this member may not order (the
    parser checks players and the dragon; substitutions and penalties are here)."""
    out = []
    if not scope.gm:
        if result.orders.penalties:
            out.append(t("penalty_gm_only", lang))
        if result.orders.substitutions and scope.numbers is not None:
            out.append(
                t(
                    "not_yours",
                    lang,
                    number=", ".join(str(s.out_number) for s in result.orders.substitutions),
                )
            )
    return out


def _accepted(result: ParseResult, scope: Scope) -> list[Order]:
    o = result.orders

    def team(side: str) -> bool:
        return scope.side is None or side == scope.side

    out: list[Order] = []
    for p in o.players:
        if team(p.side) and (scope.gm or scope.numbers is None or p.number in scope.numbers):
            out.append(p)
    out += [d for d in o.dragons if team(d.side) and (scope.gm or scope.dragon)]
    out += [s for s in o.substitutions if team(s.side) and (scope.gm or scope.numbers is None)]
    out += [p for p in o.penalties if scope.gm and team(p.side)]
    return out


def _apply_clears(
    tx: Tx, result: ParseResult, rows: list[OrderRow], scope: Scope
) -> list[OrderRow]:
    doomed = []
    for row in rows:
        if not scope.covers(row):
            continue
        order = _order_of(row)
        for c in result.clears:
            if isinstance(order, PlayerOrder) and c.covers_player(order):
                doomed.append(row)
                break
            if isinstance(order, DragonOrder) and c.covers_dragon(order):
                doomed.append(row)
                break
            if (
                isinstance(order, Substitution)
                and c.what == "all"
                and c.tick is None
                and c.side == order.side
            ):
                doomed.append(row)
                break
    repo.supersede(tx.s, doomed, tx.now)
    return doomed
