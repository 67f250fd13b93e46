"""Orders back to canonical text: ``parse_message(format_orders(x)).orders == x``.

The canonical form: a ``Раунд N`` line, then per team a ``Команда …`` line,
its substitutions, then ``Такт N`` blocks with one line per player (by shirt
number) and the dragon last.  Players are written by name when the name
alone finds them, otherwise by number.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence

from bot.i18n import t
from engine.geometry import SIDES, Side
from engine.orders import Catch, DragonOrder, Pass, PlayerOrder, RoundOrders, Steal
from engine.ruleset import Ruleset
from engine.state import MatchState, PlayerState, other_side

from .errors import OrderError
from .messages import BALL_LABELS, lang_of
from .names import display_name
from .resolve import team_of
from .result import Order
from .substitutes import effective, lineup
from .tokens import tokenize

__all__ = [
    "ERRORS_HEAD",
    "MARK",
    "MISSING_LINE",
    "format_errors",
    "format_orders",
    "format_sheet",
    "missing_labels",
    "missing_lines",
    "player_name",
    "word",
]

MARK = "✎ "  # before the lines a message changed (the reader skips the symbol)
# The shapes of the judge's own lines around the sheet (echo.py knows them when
# an answer is pasted back): the error block's head, a line of who lacks orders.
ERRORS_HEAD = "{errors} ({count}):"
MISSING_LINE = "{prefix}{tick} {number}: {names}"

# Canonical words: (Russian, English).
_W = {
    "round": ("Раунд", "Round"),
    "tick": ("Такт", "Tick"),
    "team": ("Команда", "Team"),
    "dragon": ("Дракон", "Dragon"),
    "subst": ("Замена", "Substitution"),
    "penalty": ("Штраф", "Penalty"),
    "h": ("в", "h"),
    "pass": ("пас", "pass"),
    "to": ("->", "to"),
    "spell": ("", "spell "),
    "catch": ("ловить", "catch"),
    "counter": ("", "counter "),
    "steal": ("отнять", "steal"),
    "forward": ("вперёд", "forward"),
    "left": ("налево", "left"),
    "right": ("направо", "right"),
    "stay": ("стоять", "stay"),
    "up": ("вверх", "up"),
    "down": ("вниз", "down"),
    "short": ("пламя", "flame"),
    "volley": ("залп", "volley"),
    "jet": ("струя", "jet"),
    "wall": ("вал", "wall"),
    "tail": ("хвост", "tail"),
    "wings": ("крылья", "wings"),
    "safety": ("чебурыхнус-парашутис", "safety"),
    "none": ("Приказов нет.", "No orders."),
    "missing": ("Ещё нет приказа:", "No order yet:"),
    "dragon_stays": ("дракон (будет стоять)", "dragon (will stay)"),
    "launch": ("вылет", "launch"),
    "errors": ("Ошибки", "Errors"),
}


def _w(key: str, lang: str) -> str:
    return _W[key][lang_of(lang)]


def word(key: str, lang: str) -> str:
    """A canonical word or line of the printer ("missing": «Ещё нет приказа:»)."""
    return _w(key, lang)


def _writable(player: PlayerState, pool: Sequence[PlayerState]) -> str:
    """The player's name if the parser reads it back as him, else his number."""
    name = display_name(player, pool)
    words = tokenize(name)
    if name != str(player.number) and (
        len(words) != len(name.split()) or any(w.kind != "WORD" for w in words)
    ):
        return str(player.number)  # a name that is also a keyword ("Пас") or has digits
    return name


def player_name(state: MatchState, side: Side, number: int) -> str:
    p = state.find_player(side, number)
    return str(number) if p is None else _writable(p, state.team_players(side))


def _spell(name: str, ruleset: Ruleset, lang: str) -> str:
    for pair in ruleset.spells:
        if name == pair.spell:
            return pair.spell_ru if lang_of(lang) == 0 else pair.spell
        if name == pair.counter:
            return pair.counter_ru if lang_of(lang) == 0 else pair.counter
    return name


def _ball(name: str, lang: str) -> str:
    pair = BALL_LABELS.get(name)
    return name if pair is None else pair[lang_of(lang)]


def _player_line(o: PlayerOrder, state: MatchState, ruleset: Ruleset, lang: str) -> str:
    h = _w("h", lang)
    text = f"{player_name(state, o.side, o.number)}: {o.cell} {h}{o.height}"
    match o.action:
        case Pass(ball, cell, height, spell):
            text += f", {_w('pass', lang)} {_ball(ball, lang)} {_w('to', lang)} {cell} {h}{height}"
            if spell:
                text += f" {_w('spell', lang)}{_spell(spell, ruleset, lang)}"
        case Catch(ball, counter):
            text += f", {_w('catch', lang)}"
            if ball:
                text += f" {_ball(ball, lang)}"
            if counter:
                text += f" {_w('counter', lang)}{_spell(counter, ruleset, lang)}"
        case Steal(target):
            text += f", {_w('steal', lang)} {player_name(state, other_side(o.side), target)}"
        case None:
            pass
    if o.safety:
        text += f", {_w('safety', lang)}"
    if o.description:
        text += " // " + " ".join(o.description.split("\n"))
    return text


def _dragon_line(o: DragonOrder, lang: str) -> str:
    parts = [_w(o.move, lang)]
    if o.height_step:
        parts.append(_w("up" if o.height_step > 0 else "down", lang))
    if o.fire:
        jet = _w(o.fire, lang)
        parts.append(f"{jet} {o.fire_direction.name}" if o.fire_direction is not None else jet)
    if o.strike:
        parts.append(_w(o.strike, lang))
    return f"{_w('dragon', lang)}: {', '.join(parts)}"


def format_orders(
    orders: RoundOrders,
    *,
    state: MatchState,
    ruleset: Ruleset,
    lang: str = "ru",
    marked: Collection[Order] = (),
    notes: Mapping[Order, str] | None = None,
) -> str:
    """The canonical text of ``orders`` ("" when there are none).

    Lines of the orders in ``marked`` start with :data:`MARK`, the others
    (when some are marked) with as many spaces, so that they line up; a
    ``notes`` entry is added to its order's line as a comment.  Both leave
    the text a message that reads back to the same orders.
    """
    o = orders.sorted()
    if not (o.players or o.dragons or o.substitutions or o.penalties):
        return ""
    changed = set(marked)
    pad = " " * len(MARK) if changed else ""

    def line(order: Order, text: str) -> str:
        note = (notes or {}).get(order)
        if note:
            text += f" -- {note}"
        return (MARK if order in changed else pad) + text

    out = [f"{_w('round', lang)} {state.round}"]
    for side in SIDES:
        players = [p for p in o.players if p.side == side]
        dragons = [d for d in o.dragons if d.side == side]
        subs = [s for s in o.substitutions if s.side == side]
        pens = [p for p in o.penalties if p.side == side]
        if not (players or dragons or subs or pens):
            continue
        out.append(f"{_w('team', lang)} {_team_name(state, side)}")
        for s in subs:
            text = (
                f"{_w('subst', lang)} {player_name(state, side, s.out_number)} -> "
                f"{player_name(state, side, s.in_number)}"
            )
            out.append(line(s, text))
        ticks = sorted(
            {x.tick for x in players} | {x.tick for x in dragons} | {x.tick for x in pens}
        )
        for tick in ticks:
            out.append(f"{_w('tick', lang)} {tick}")
            out.extend(
                line(p, _player_line(p, state, ruleset, lang)) for p in players if p.tick == tick
            )
            out.extend(line(d, _dragon_line(d, lang)) for d in dragons if d.tick == tick)
            out.extend(line(p, _w("penalty", lang)) for p in pens if p.tick == tick)
    return "\n".join(out)


def _team_name(state: MatchState, side: Side) -> str:
    """The team's name if a team line reads it back, else its side."""
    name = state.team(side).name
    words = tokenize(name)
    if (
        words
        and all(w.kind == "WORD" for w in words)
        and len(words) == len(name.split())
        and team_of([w.value for w in words], state) == side
    ):
        return name
    return side


def format_sheet(
    orders: RoundOrders,
    *,
    state: MatchState,
    ruleset: Ruleset,
    side: Side | None,
    lang: str = "ru",
    changed: Collection[Order] = (),
) -> str:
    """The sheet a team has on file: its orders as the round will play them
    (a substitute with the orders of the player he replaces), in canonical
    form with the lines of ``changed`` marked, then who still has no order
    for which tick (active players, a player due to launch from the
    hospital, the dragon)."""
    mine = orders if side is None else orders.for_side(side)
    played, origin = effective(state, mine, ruleset)
    shown = lineup(state, mine, ruleset)
    changed_set = set(changed)
    marked = [
        o
        for o in _all(played)
        if o in changed_set or (isinstance(o, PlayerOrder) and origin.get(o) in changed_set)
    ]
    notes: dict[Order, str] = {
        o: t("order.carried", lang, name=player_name(state, o.side, src.number))
        for o, src in origin.items()
    }
    text = format_orders(
        played, state=shown, ruleset=ruleset, lang=lang, marked=marked, notes=notes
    ) or _w("none", lang)
    missing = missing_lines(played, shown, ruleset, (side,) if side else SIDES, lang)
    if missing:
        text += "\n\n" + _w("missing", lang) + "\n" + "\n".join(missing)
    return text


def _all(orders: RoundOrders) -> Iterable[Order]:
    yield from orders.players
    yield from orders.dragons
    yield from orders.substitutions
    yield from orders.penalties


def missing_lines(
    orders: RoundOrders,
    state: MatchState,
    ruleset: Ruleset,
    sides: tuple[Side, ...],
    lang: str,
    numbers: frozenset[int] | None = None,
) -> list[str]:
    """Who still has no order for which tick ("такт 2: Петров"), one line a
    tick, among ``numbers`` if given (and the dragon unless ``numbers``)."""
    return list(_missing(orders, state, ruleset, sides, lang, numbers))


def _missing(
    orders: RoundOrders,
    state: MatchState,
    ruleset: Ruleset,
    sides: tuple[Side, ...],
    lang: str,
    numbers: frozenset[int] | None,
) -> Iterable[str]:
    ticks = range(state.tick + 1, ruleset.ticks_per_round + 1)
    for side in sides:
        pool = state.team_players(side)
        prefix = f"{state.team(side).name}, " if len(sides) > 1 else ""
        for tick in ticks:
            names = []
            for p in pool:
                if numbers is not None and p.number not in numbers:
                    continue
                due = p.status == "active" or (
                    p.status == "hospital"
                    and p.return_round == state.round
                    and tick == ruleset.hospital_return_tick
                )
                if due and orders.player_order(side, p.number, tick) is None:
                    names.append(_label(p, pool, lang, launch=p.status != "active"))
            if numbers is None and orders.dragon_order(side, tick) is None:
                names.append(_w("dragon_stays", lang))
            if names:
                yield MISSING_LINE.format(
                    prefix=prefix, tick=_w("tick", lang).lower(), number=tick,
                    names=", ".join(names),
                )  # fmt: skip


def _label(player: PlayerState, pool: Sequence[PlayerState], lang: str, *, launch: bool) -> str:
    label = _writable(player, pool)
    return f"{label} ({_w('launch', lang)})" if launch else label


def missing_labels(state: MatchState, side: Side, lang: str) -> frozenset[str]:
    """Every name a line of who lacks orders may list for ``side``'s team."""
    pool = state.team_players(side)
    labels = {_label(p, pool, lang, launch=launch) for p in pool for launch in (False, True)}
    return frozenset({*labels, _w("dragon_stays", lang)})


def format_errors(
    errors: Sequence[OrderError],
    lang: str = "ru",
    *,
    block: Callable[[str], str] | None = None,
    detailed: int | None = None,
) -> str:
    """Every error rendered (line, caret, message), under a count.

    ``block`` wraps each line-and-caret pair (a fixed-width block for a
    channel that has them); past ``detailed`` errors only their lines are
    listed."""
    if not errors:
        return ""
    shown = errors if detailed is None else errors[:detailed]
    body = "\n\n".join(_rendered(e, block) for e in shown)
    rest = errors[len(shown) :]
    if rest:
        numbers = ", ".join(str(n) for n in dict.fromkeys(e.line for e in rest))
        body += "\n\n" + t("order.more_errors", lang, count=len(rest), lines=numbers)
    return ERRORS_HEAD.format(errors=_w("errors", lang), count=len(errors)) + f"\n\n{body}"


def _rendered(error: OrderError, block: Callable[[str], str] | None) -> str:
    text = error.render()
    if block is None or not error.text:
        return text
    where, _, message = text.rpartition("\n")
    return f"{block(where)}\n{message}"
