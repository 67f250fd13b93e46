"""What the web page's API answers, each in one transaction of the service.

Every answer is built for one member and holds only his own team's orders
and what everybody may see: the position as the public pictures show it
(never a ball's enchantment nor where the vanished yellow ball is), never
the other team's orders.  Drafts are read by the same parser and legality
code as a typed message (``webpage.plan_orders``); nothing is stored here —
submitting goes through ``GameService.receive`` like a typed message.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.i18n import N_, format_deadline, t
from bot.orderlang import apply_result, format_errors, format_orders
from bot.orderlang.messages import BALL_LABELS, lang_of
from bot.orderlang.printer import player_name
from bot.render.odds import chance_text, odds_lines
from bot.render.svg import field_svg
from bot.service import webpage
from bot.service.kernel.api import Inbound
from bot.service.kernel.context import Actor, ServiceError, Tx, game_code
from engine.field import HexField, SquareField
from engine.geometry import Side
from engine.legality import check_orders, player_path
from engine.odds import dragon_views, order_odds
from engine.orders import (
    FIRE_KINDS,
    SQUARE_FIRE_KINDS,
    STRIKE_KINDS,
    Catch,
    Pass,
    PlayerOrder,
    RoundOrders,
    Steal,
)
from engine.problems import Code
from engine.ruleset import Ruleset
from engine.state import MatchState, other_side
from storage.models import Game, Round

from .auth import Caller, Unauthorized

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
    N_("web.fire_jet"),
    N_("web.fire_wall"),
    N_("web.strike_tail"),
    N_("web.strike_wings"),
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
    N_("web.editing"),
    N_("web.dragon_hint"),
    N_("web.network"),
    N_("web.round_moved"),
    N_("web.no_odds"),
    N_("web.zoom_in"),
    N_("web.zoom_out"),
    N_("web.reload"),
    N_("web.draft_restored"),
    N_("web.draft_dropped"),
    N_("web.draft_item"),
    N_("web.draft_substitution"),
    N_("web.sheet_changed"),
)
# What a refused call says (the page shows it; before it has its texts).
REFUSALS = (
    N_("web.forbidden_member"),
    N_("web.forbidden_team"),
    N_("web.forbidden_player"),
    N_("web.unauthorized"),
    N_("web.link_expired"),
    N_("web.orders_only"),
)


_HOLES = {
    name: "{" + name + "}"
    for name in ("tick", "height", "cell", "round", "deadline", "name", "orders")
}


class Forbidden(Exception):
    """A checked caller who may not use the page for this game (403): ``why``
    for the log, ``message(lang)`` for the player (a text key, or a text
    already in his language)."""

    def __init__(self, why: str, key: str = "web.forbidden_member", text: str = "") -> None:
        super().__init__(why)
        self.key = key
        self.text = text

    def message(self, lang: str) -> str:
        return self.text or t(self.key, lang)


@dataclass(frozen=True)
class Seat:
    """A caller at his game: who he is, the game, its open round, what he orders."""

    actor: Actor
    game: Game
    round: Round
    scope: webpage.Scope
    side: Side
    state: MatchState
    rules: Ruleset


def sender(tx: Tx, caller: Caller) -> Inbound:
    """The message a typed order of this caller would be (channel and sender)."""
    if caller.telegram_user_id is not None:
        uid = str(caller.telegram_user_id)
        return Inbound("telegram", "", uid, "", b"", tx.now, chat=uid)
    member = webpage.member(tx, caller.member_id) if caller.member_id is not None else None
    if member is None or not member.email:
        raise Forbidden("no such member")
    return Inbound("email", "", member.email, "", b"", tx.now, authenticated=True)


def seat(tx: Tx, caller: Caller) -> Seat:
    actor = webpage.identify(tx, sender(tx, caller))
    if actor.member is None:
        raise Forbidden("not a member")
    try:
        if caller.game_id is not None:
            game = webpage.game(tx, caller.game_id)
            if game is None:
                raise Forbidden("no such game")
        else:
            game = webpage.choose_game(tx, actor, explicit=None, hint=None, chat=None)
        assert game.id is not None
        scope = webpage.scope_of(tx, actor, game)
        rnd = _open_round(tx, game, caller)
    except ServiceError as err:
        text = t(err.key, actor.lang, **err.params)
        raise Forbidden(text, text=text) from None
    if scope.side is None:  # a game master orders by message, naming the team
        raise Forbidden("the page orders for one team", "web.forbidden_team")
    return Seat(
        actor, game, rnd, scope, scope.side, webpage.load_state(tx, rnd), webpage.ruleset_of(game)
    )


def _open_round(tx: Tx, game: Game, caller: Caller) -> Round:
    """The game's open round; for a link, the round it names, or the link is
    spent (a round played early does not hand the next one to last round's
    link)."""
    if caller.round is None:
        return webpage.open_round_of(tx, game)
    try:
        rnd = webpage.open_round_of(tx, game)
    except ServiceError:
        raise Unauthorized("expired") from None
    if rnd.number != caller.round:
        raise Unauthorized("expired")
    return rnd


def _mine(s: Seat) -> set[int]:
    """The numbers of the players the seat orders: his set, not the team's
    when his set is empty (a member for the dragon alone orders no player)."""
    team = {p.number for p in s.state.team_players(s.side)}
    return team if s.scope.numbers is None else team & s.scope.numbers


def _on_the_field(s: Seat, tick: int, cell: int = 1, height: int | None = None) -> None:
    """A tick of the round, a cell of the field, a height of the rules, or the
    call is a bad one (ValueError: 400)."""
    if not 1 <= tick <= s.rules.ticks_per_round:
        raise ValueError(f"tick {tick}: not a tick of the round")
    if not 1 <= cell <= s.rules.field.cell_count:
        raise ValueError(f"cell {cell}: not a cell of the field")
    if height is not None and height not in s.rules.heights:
        raise ValueError(f"height {height}: not a height")


def _on_file(tx: Tx, s: Seat) -> RoundOrders:
    assert s.game.id is not None
    return webpage.orders_on_file(tx, s.game.id, s.round.number, s.side).for_side(s.side)


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
    square = s.rules.field_shape == "square"
    numbers = sorted(_mine(s))
    return {
        "game": game_code(s.game),
        "round": s.round.number,
        "deadline": s.round.deadline.isoformat() if s.round.deadline else None,
        "deadline_text": _deadline_text(s, lang),
        "side": s.side,
        "lang": lang,
        "numbers": numbers,
        "dragon": s.scope.dragon,
        "ticks": [tk for tk in range(s.state.tick + 1, s.rules.ticks_per_round + 1)],
        "heights": list(s.rules.heights),
        "spells": [p.spell for p in s.rules.spells],
        "counters": [p.counter for p in s.rules.spells],
        # What the buttons say for a ball, spell or counter-spell (the orders
        # carry the rules' own names).
        "names": _names(s.rules, lang),
        # The dragon's flames and strikes of this edition.
        "fires": list(SQUARE_FIRE_KINDS if square else FIRE_KINDS),
        "strikes": list(STRIKE_KINDS if square else ()),
        "sheet": format_orders(mine, state=s.state, ruleset=s.rules, lang=lang),
        "state": _public_state(s.state, s.side),
        "svg": field_svg(s.state, s.rules, lang),
        # Placeholders stay for the page to fill in ({tick}, {cell}, …).
        "texts": {key.removeprefix("web."): t(key, lang, **_HOLES) for key in PAGE_TEXTS},
    }


def _deadline_text(s: Seat, lang: str) -> str:
    if s.round.deadline is None:
        return ""
    member = s.actor.member
    zone = (member.timezone if member is not None else None) or s.game.timezone
    return format_deadline(s.round.deadline, zone, lang)


def _clear_lines(s: Seat, clears: list[Any], lang: str) -> list[str]:
    """«Иванов т2: отмена», «Дракон т2: отмена» (English: «t2 Ivanov: clear»)."""
    ru = lang_of(lang) == 0
    lines = []
    for c in clears:
        if not isinstance(c, dict):  # a crafted request: refused as a bad one (400)
            raise TypeError("a clear is {number, tick}")
        number, tick = c.get("number"), int(c["tick"])
        if number is None:
            name = "Дракон" if ru else "Dragon"
        else:
            if s.state.find_player(s.side, int(number)) is None:
                raise ValueError(f"no player {number}")
            name = player_name(s.state, s.side, int(number))
        lines.append(f"{name} т{tick}: отмена" if ru else f"t{tick} {name}: clear")
    return lines


def _names(rules: Ruleset, lang: str) -> dict[str, str]:
    ru = lang_of(lang) == 0
    names = {ball: pair[lang_of(lang)] for ball, pair in BALL_LABELS.items()}
    for pair in rules.spells:
        names[pair.spell] = pair.spell_ru if ru else pair.spell
        names[pair.counter] = pair.counter_ru if ru else pair.counter
    return names


def _draft(tx: Tx, s: Seat, text: str, lang: str) -> tuple[Any, RoundOrders]:
    assert s.game.id is not None
    plan = webpage.plan_orders(tx, s.actor, s.game.id, text, lang=lang)
    return plan.result, apply_result(_on_file(tx, s), plan.result).for_side(s.side)


def check(
    tx: Tx,
    caller: Caller,
    text: str | None,
    lang: str,
    orders: dict[str, Any] | None = None,
    clears: list[Any] | None = None,
) -> dict[str, Any]:
    """A draft read as the judge would read it: its errors, the sheet it would
    leave on file (as text and as orders), the odds of each order of that
    sheet and where the team's dragon goes.  A draft given as ``orders`` (the
    page's taps) is first written in the order language, after a clear line
    for each order on file the page takes off (``clears``: ``{"number": N or
    null for the dragon, "tick": T}``)."""
    s = seat(tx, caller)
    if text is None:
        tapped = RoundOrders.from_json(orders or {}).for_side(s.side)
        text = format_orders(tapped, state=s.state, ruleset=s.rules, lang=lang)
        lines = _clear_lines(s, clears or [], lang)
        if lines:  # first: the orders below may give those ticks new ones
            text = "\n".join(lines) + "\n" + text
    result, sheet = _draft(tx, s, text, lang)
    # engine.odds knows the classic hex field only (its flights, fire and
    # distances): on the second edition's square field it gives no figures
    # and lights no dragon, rather than wrong ones (or an error).
    hexes = s.rules.field_shape != "square"
    odds = order_odds(s.state, s.rules, sheet, s.side) if hexes else []
    views = dragon_views(s.state, s.rules, sheet, s.side) if hexes else {}
    own = {tick: next(v for v in pair if v.side == s.side) for tick, pair in views.items()}
    return {
        "round": s.round.number,  # the open round: a page left open may be a round behind
        "text": text,
        "ok": not result.errors,
        "errors": format_errors(result.errors, lang) if result.errors else "",
        "sheet": format_orders(sheet, state=s.state, ruleset=s.rules, lang=lang),
        "orders": sheet.to_json(),
        "odds": odds_lines(odds, state=s.state, ruleset=s.rules, lang=lang) if hexes else [],
        "odds_note": "" if hexes else t("web.no_odds", lang),
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
    if number not in _mine(s):
        raise Forbidden("not your player", "web.forbidden_player")
    _on_the_field(s, tick)
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
    field = rules.field  # the classic hex field, or the second edition's square one
    if here is None:  # launching from the hospital: the re-entry cells
        cells = list(rules.reentry(s.side))
    else:
        cells = [c for c in _cells(field) if field.distance(here[0], c) <= rules.player_speed]
    moves = []
    for cell in cells:
        heights = [h for h in rules.heights if legal(PlayerOrder(s.side, number, tick, cell, h))]
        if heights:
            moves.append({"cell": cell, "heights": heights})
    return {"round": s.round.number, "from": list(here) if here else None, "moves": moves, "rules": {
        "pass_min": rules.pass_min_distance, "pass_max": rules.pass_max_distance,
        "pass_ranges": {name: b.max_pass_distance for name, b in rules.balls.items()},
    }}  # fmt: skip


def targets(
    tx: Tx, caller: Caller, text: str, number: int, tick: int, cell: int, height: int
) -> dict[str, Any]:
    """From (cell, height) at ``tick``: every legal pass target per ball he may
    hold, the opponents he may try to rob, whether a catch is possible."""
    s = seat(tx, caller)
    if number not in _mine(s):
        raise Forbidden("not your player", "web.forbidden_player")
    _on_the_field(s, tick, cell, height)
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
    field = rules.field
    low, far = _pass_reach(rules)
    ring = [c for c in _cells(field) if field.distance(cell, c) == low]
    for ball in rules.ball_order:
        probe = order(Pass(ball, ring[0], height)) if ring else None
        if probe is None or _no_ball(s.state, rest, rules, s.side, probe):
            continue
        cells = []
        for c in _cells(field):
            if low <= field.distance(cell, c) <= far(ball):
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
        "round": s.round.number,
        "passes": passes,
        "steals": foes,
        "catch": legal(order(Catch())),
    }


def _cells(field: HexField | SquareField) -> range:
    return range(1, field.cell_count + 1)


def _pass_reach(rules: Ruleset) -> tuple[int, Callable[[str], int]]:
    """The nearest and (per ball) farthest pass an unenchanted ball flies: the
    classic tables (§5), or the second edition's one throw range."""
    if rules.field_shape == "square":
        extra = rules.extra if isinstance(rules.extra, dict) else {}
        limit = int(extra.get("throw_max_distance", rules.pass_max_distance))
        return 1, lambda _ball: limit
    return rules.pass_min_distance, rules.pass_range


_NO_BALL = frozenset({Code.PASS_NO_BALL, Code.BALL_UNKNOWN, Code.BALL_OUT_OF_PLAY})


def _may_hold(state: MatchState, rest: RoundOrders, side: Side, probe: PlayerOrder) -> bool:
    """Might he hold this ball at the probe's tick: he holds it now, or he tries
    to catch or rob at an earlier tick, or a team-mate passes it before then."""
    assert isinstance(probe.action, Pass)
    ball = probe.action.ball
    if ball in state.player(side, probe.number).balls:
        return True
    for o in rest.players:
        if o.side != side or o.tick >= probe.tick:
            continue
        if o.number == probe.number and isinstance(o.action, (Catch, Steal)):
            return True
        if o.number != probe.number and isinstance(o.action, Pass) and o.action.ball == ball:
            return True
    return False


def _no_ball(
    state: MatchState, rest: RoundOrders, rules: Ruleset, side: Side, probe: PlayerOrder
) -> bool:
    """Can he not have this ball to pass at all (whatever the target)?"""
    if rules.field_shape == "square" and not _may_hold(state, rest, side, probe):
        return True  # the second edition's checks accept it; his pass would do nothing
    orders = RoundOrders(players=(*rest.players, probe), dragons=rest.dragons,
                         substitutions=rest.substitutions)  # fmt: skip
    return any(
        p.order == probe and p.code in _NO_BALL
        for p in check_orders(state, orders, rules, side=side)
    )
