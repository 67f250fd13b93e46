"""What the web page's API answers, each in one transaction of the service.

Every answer is built for one member and holds only his own team's orders
and what everybody may see: the position as the public pictures show it
(never a ball's enchantment nor where the vanished yellow ball is), never
the other team's orders.  Drafts are read by the same parser and legality
code as a typed message (``ordering.plan_orders``); nothing is stored here —
submitting goes through ``GameService.receive`` like a typed message.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.i18n import N_, t
from bot.orderlang import apply_result, format_errors, format_orders
from bot.render.odds import chance_text, odds_lines
from bot.render.svg import field_svg
from bot.service import ordering, rounds
from bot.service.api import Inbound
from bot.service.context import Actor, ServiceError, Tx, game_code
from bot.service.inbound import identify
from bot.service.members import choose_game
from engine.geometry import Side
from engine.legality import check_orders, player_path
from engine.odds import dragon_views, order_odds
from engine.orders import Catch, Pass, PlayerOrder, RoundOrders, Steal
from engine.problems import Code
from engine.resolution.geo import DIST
from engine.ruleset import Ruleset
from engine.state import MatchState, other_side
from storage import repo
from storage.models import Game, Member, Round

from .auth import Caller

__all__ = ["Forbidden", "Seat", "check", "options", "page", "seat", "sender", "targets"]

PAGE_TEXTS = (
    N_("web.title"),
    N_("web.pick_player"),
    N_("web.pick_cell"),
    N_("web.pick_action"),
    N_("web.action_none"),
    N_("web.action_catch"),
    N_("web.action_pass"),
    N_("web.action_steal"),
    N_("web.spell"),
    N_("web.no_spell"),
    N_("web.dragon"),
    N_("web.dragon_forward"),
    N_("web.dragon_left"),
    N_("web.dragon_right"),
    N_("web.dragon_stay"),
    N_("web.dragon_up"),
    N_("web.dragon_down"),
    N_("web.fire_none"),
    N_("web.fire_short"),
    N_("web.fire_volley"),
    N_("web.tick"),
    N_("web.height"),
    N_("web.orders_text"),
    N_("web.submit"),
    N_("web.check_ok"),
    N_("web.refused_cell"),
    N_("web.sent"),
    N_("web.odds"),
    N_("web.pick_target"),
    N_("web.clear_player"),
    N_("web.deadline"),
)


_HOLES = {name: "{" + name + "}" for name in ("tick", "height", "cell", "round")}


class Forbidden(Exception):
    """A checked caller who may not use the page for this game (403)."""


@dataclass(frozen=True)
class Seat:
    """A caller at his game: who he is, the game, its open round, what he orders."""

    actor: Actor
    game: Game
    round: Round
    scope: ordering.Scope
    side: Side
    state: MatchState
    rules: Ruleset


def sender(tx: Tx, caller: Caller) -> Inbound:
    """The message a typed order of this caller would be (channel and sender)."""
    if caller.telegram_user_id is not None:
        uid = str(caller.telegram_user_id)
        return Inbound("telegram", "", uid, "", b"", tx.now, chat=uid)
    member = tx.s.get(Member, caller.member_id) if caller.member_id is not None else None
    if member is None or not member.email:
        raise Forbidden("no such member")
    return Inbound("email", "", member.email, "", b"", tx.now, authenticated=True)


def seat(tx: Tx, caller: Caller) -> Seat:
    actor = identify(tx, sender(tx, caller))
    if actor.member is None:
        raise Forbidden("not a member")
    try:
        if caller.game_id is not None:
            game = repo.get_game(tx.s, caller.game_id)
            if game is None:
                raise Forbidden("no such game")
        else:
            game = choose_game(tx, actor, explicit=None, hint=None, chat=None)
        assert game.id is not None
        scope = ordering.scope_of(tx, actor, game)
        rnd = ordering._open_round(tx, game)
    except ServiceError as err:
        raise Forbidden(t(err.key, actor.lang, **err.params)) from None
    if scope.side is None:  # a game master orders by message, naming the team
        raise Forbidden("the page orders for one team")
    return Seat(
        actor, game, rnd, scope, scope.side, rounds.load_state(tx, rnd), rounds.ruleset_of(game)
    )


def _on_file(tx: Tx, s: Seat) -> RoundOrders:
    assert s.game.id is not None
    rows = repo.current_orders(tx.s, s.game.id, s.round.number, s.side)
    return RoundOrders.from_json(rounds.orders_document(rows)).for_side(s.side)


def _public_state(state: MatchState, side: Side) -> dict[str, Any]:
    """The position as everybody sees it (own team's spell count only)."""
    balls = []
    for b in state.balls:
        if b.status == "vanished":
            continue  # where it is is hidden (§3)
        balls.append(
            {"name": b.name, "status": b.status, "cell": b.cell, "height": b.height,
             "holder": b.holder.to_json() if b.holder else None,
             "pass_to": list(b.pass_to) if b.pass_to else None}
        )  # fmt: skip
    return {
        "round": state.round,
        "tick": state.tick,
        "teams": [
            {
                "side": tm.side,
                "name": tm.name,
                "score": tm.score,
                **({"enchanted_left": tm.enchanted_left} if tm.side == side else {}),
            }
            for tm in state.teams
        ],
        "players": [
            {
                "side": p.side,
                "number": p.number,
                "name": p.name,
                "status": p.status,
                "cell": p.cell,
                "height": p.height,
                "balls": list(p.balls),
            }
            for p in state.players
        ],
        "balls": balls,
        "dragons": [
            {
                "side": d.side,
                "head": d.head,
                "facing": d.facing.name,
                "height": d.height,
                "mouth_open": d.mouth_open,
                "effect": d.effect,
                "paralysed": d.paralysed,
                "extinguished": d.extinguished,
            }
            for d in state.dragons
        ],
    }


def page(tx: Tx, caller: Caller, lang: str) -> dict[str, Any]:
    """Everything the page draws on opening."""
    s = seat(tx, caller)
    mine = _on_file(tx, s)
    numbers = sorted(
        p.number
        for p in s.state.team_players(s.side)
        if s.scope.numbers is None or p.number in s.scope.numbers
    )
    return {
        "game": game_code(s.game),
        "round": s.round.number,
        "deadline": s.round.deadline.isoformat() if s.round.deadline else None,
        "side": s.side,
        "lang": lang,
        "numbers": numbers,
        "dragon": s.scope.dragon,
        "ticks": [tk for tk in range(s.state.tick + 1, s.rules.ticks_per_round + 1)],
        "heights": list(s.rules.heights),
        "spells": [p.spell for p in s.rules.spells],
        "counters": [p.counter for p in s.rules.spells],
        "sheet": format_orders(mine, state=s.state, ruleset=s.rules, lang=lang),
        "state": _public_state(s.state, s.side),
        "svg": field_svg(s.state, s.rules, lang),
        # Placeholders stay for the page to fill in ({tick}, {cell}, …).
        "texts": {key.removeprefix("web."): t(key, lang, **_HOLES) for key in PAGE_TEXTS},
    }


def _draft(tx: Tx, s: Seat, text: str, lang: str) -> tuple[Any, RoundOrders]:
    assert s.game.id is not None
    plan = ordering.plan_orders(tx, s.actor, s.game.id, text, lang=lang)
    return plan.result, apply_result(_on_file(tx, s), plan.result).for_side(s.side)


def check(
    tx: Tx, caller: Caller, text: str | None, lang: str, orders: dict[str, Any] | None = None
) -> dict[str, Any]:
    """A draft read as the judge would read it: its errors, the sheet it would
    leave on file (as text and as orders), the odds of each order of that
    sheet and where the team's dragon goes.  A draft given as ``orders`` (the
    page's taps) is first written in the order language."""
    s = seat(tx, caller)
    if text is None:
        tapped = RoundOrders.from_json(orders or {}).for_side(s.side)
        text = format_orders(tapped, state=s.state, ruleset=s.rules, lang=lang)
    result, sheet = _draft(tx, s, text, lang)
    odds = order_odds(s.state, s.rules, sheet, s.side)
    views = dragon_views(s.state, s.rules, sheet, s.side)
    own = {tick: next(v for v in pair if v.side == s.side) for tick, pair in views.items()}
    return {
        "text": text,
        "ok": not result.errors,
        "errors": format_errors(result.errors, lang) if result.errors else "",
        "sheet": format_orders(sheet, state=s.state, ruleset=s.rules, lang=lang),
        "orders": sheet.to_json(),
        "odds": odds_lines(odds, state=s.state, ruleset=s.rules, lang=lang),
        "order_odds": [
            {
                "number": o.order.number,
                "tick": o.order.tick,
                "chances": [chance_text(c, s.state, lang) for c in o.chances]
                or [t("odds.nothing", lang)],
            }
            for o in odds
        ],
        # Where each of the team's players flies by the sheet, tick by tick.
        "paths": {
            str(n): {
                str(tick): list(at)
                for tick, at in player_path(s.state, sheet, s.rules, s.side, n).items()
            }
            for n in sorted({o.number for o in sheet.players})
        },
        "dragon": {
            str(tick): {
                "head": v.head,
                "body": v.body_tail[0],
                "tail": v.body_tail[1],
                "fire": sorted(v.fire),
                "mouth_open": v.mouth_open,
            }
            for tick, v in own.items()
        },
    }


def options(tx: Tx, caller: Caller, text: str, number: int, tick: int) -> dict[str, Any]:
    """What player ``number`` may legally do at ``tick`` after the draft's
    earlier orders: the cells and heights he may fly to, and from there the
    pass targets of each ball and the opponents he may try to rob.  Each
    candidate is checked by the engine's legality code on the whole draft."""
    s = seat(tx, caller)
    if number not in (s.scope.numbers or {p.number for p in s.state.team_players(s.side)}):
        raise Forbidden("not your player")
    _, sheet = _draft(tx, s, text, s.actor.lang)
    rest = RoundOrders(
        players=tuple(o for o in sheet.players if (o.number, o.tick) != (number, tick)),
        dragons=sheet.dragons,
        substitutions=sheet.substitutions,
    )
    path = player_path(s.state, rest, s.rules, s.side, number)
    player = s.state.player(s.side, number)
    here = path.get(tick - 1) if tick - 1 > s.state.tick else None
    if here is None and player.cell is not None and player.height is not None:
        here = (player.cell, player.height)

    def legal(order: PlayerOrder) -> bool:
        orders = RoundOrders(
            players=(*rest.players, order), dragons=rest.dragons, substitutions=rest.substitutions
        )
        return not any(
            p.order == order for p in check_orders(s.state, orders, s.rules, side=s.side)
        )

    rules = s.rules
    if here is None:  # launching from the hospital: the re-entry cells
        cells = list(rules.reentry(s.side))
    else:
        cells = [c for c in range(1, len(DIST)) if DIST[here[0]][c] <= rules.player_speed]
    moves = []
    for cell in cells:
        heights = [h for h in rules.heights if legal(PlayerOrder(s.side, number, tick, cell, h))]
        if heights:
            moves.append({"cell": cell, "heights": heights})
    return {"from": list(here) if here else None, "moves": moves, "rules": {
        "pass_min": rules.pass_min_distance, "pass_max": rules.pass_max_distance,
        "pass_ranges": {name: b.max_pass_distance for name, b in rules.balls.items()},
    }}  # fmt: skip


def targets(
    tx: Tx, caller: Caller, text: str, number: int, tick: int, cell: int, height: int
) -> dict[str, Any]:
    """From (cell, height) at ``tick``: every legal pass target per ball he may
    hold, the opponents he may try to rob, whether a catch is possible."""
    s = seat(tx, caller)
    if number not in (s.scope.numbers or {p.number for p in s.state.team_players(s.side)}):
        raise Forbidden("not your player")
    _, sheet = _draft(tx, s, text, s.actor.lang)
    rest = RoundOrders(
        players=tuple(o for o in sheet.players if (o.number, o.tick) != (number, tick)),
        dragons=sheet.dragons,
        substitutions=sheet.substitutions,
    )
    rules = s.rules

    def legal(order: PlayerOrder) -> bool:
        orders = RoundOrders(
            players=(*rest.players, order), dragons=rest.dragons, substitutions=rest.substitutions
        )
        return not any(p.order == order for p in check_orders(s.state, orders, rules, side=s.side))

    def order(action: Pass | Steal | Catch | None) -> PlayerOrder:
        return PlayerOrder(s.side, number, tick, cell, height, action)

    passes: dict[str, list[dict[str, Any]]] = {}
    ring = [c for c in range(1, len(DIST)) if DIST[cell][c] == rules.pass_min_distance]
    for ball in rules.ball_order:
        probe = order(Pass(ball, ring[0], height)) if ring else None
        if probe is None or _no_ball(s.state, rest, rules, s.side, probe):
            continue
        cells = []
        for c in range(1, len(DIST)):
            if rules.pass_min_distance <= DIST[cell][c] <= rules.pass_range(ball):
                hs = [h for h in rules.heights if legal(order(Pass(ball, c, h)))]
                if hs:
                    cells.append({"cell": c, "heights": hs})
        if cells:
            passes[ball] = cells
    foes = [
        p.number
        for p in s.state.team_players(other_side(s.side))
        if p.on_field and legal(order(Steal(p.number)))
    ]
    return {
        "passes": passes,
        "steals": foes,
        "catch": legal(order(Catch())),
    }


_NO_BALL = frozenset({Code.PASS_NO_BALL, Code.BALL_UNKNOWN, Code.BALL_OUT_OF_PLAY})


def _no_ball(
    state: MatchState, rest: RoundOrders, rules: Ruleset, side: Side, probe: PlayerOrder
) -> bool:
    """Can he not have this ball to pass at all (whatever the target)?"""
    orders = RoundOrders(players=(*rest.players, probe), dragons=rest.dragons,
                         substitutions=rest.substitutions)  # fmt: skip
    return any(
        p.order == probe and p.code in _NO_BALL
        for p in check_orders(state, orders, rules, side=side)
    )
