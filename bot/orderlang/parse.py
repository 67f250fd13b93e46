"""``parse_message``: a whole message → valid orders, clears and every error.

Three steps with separate error kinds: syntax (:mod:`.syntax`, no state),
names (:mod:`.resolve`: unknown, ambiguous, forbidden), and legality (the
engine's ``check_orders`` against the position: illegal orders are dropped,
the rest kept).  Nothing but :class:`OrderLanguageError` ever leaves here,
and that only for an internal failure: bad input is reported, not raised.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any, Final

from bot.i18n import t
from engine.geometry import Side
from engine.legality import check_orders
from engine.orders import DragonOrder, Penalty, PlayerOrder, RoundOrders, Substitution
from engine.problems import Problem
from engine.ruleset import Ruleset
from engine.state import MatchState, PlayerState, other_side

from .actions import is_spell, to_mate_word
from .echo import JudgeLines, round_named
from .errors import ErrorKind, OrderError, OrderLanguageError
from .lexicon import KEYWORD_TYPES, ball_of
from .messages import (
    ENGINE_CODE_ALIASES,
    describe_expected,
    label,
    lang_of,
    localise_params,
    message,
    quote,
)
from .names import find_player
from .nodes import DragonLine, Line, PlayerLine, RoundHeader, SyntaxIssue
from .resolve import Resolver
from .result import Order, ParseResult, apply_clears
from .spelling import NearMisses
from .substitutes import effective
from .syntax import order_part_end, parse_line, split_lines, split_orders
from .tokens import Word, tokenize

__all__ = ["MAX_MESSAGE_BYTES", "MAX_ORDER_LINES", "parse_message"]

MAX_MESSAGE_BYTES: Final = 20 * 1024
# Lines that hold orders (not blank, not only a comment or description): a
# game master's whole sheet for both teams is about sixty.  With the size
# limit and MAX_LINE_TOKENS this bounds the work a message can cost.
MAX_ORDER_LINES: Final = 200
_MAX_LEGALITY_ROUNDS: Final = 4
# A quoted line, as a mail reply quotes the message it answers ("> …", "> > …",
# ">…"): the writer's quotation, not his orders (no order line starts so).
_QUOTED: Final = re.compile(r"\s*>")
_KEYWORDS: Final = NearMisses(w for w in KEYWORD_TYPES if len(w) >= 3)
_GUESS_WORDS: Final = 8  # how far back from the failure a misspelt keyword is looked for
_FLIGHT_CODES: Final = frozenset(
    {"launch_cell", "cell_invalid", "height_invalid", "too_far", "height_step"}
)
_ACTION_PREFIXES: Final = (
    "pass_",
    "spell_",
    "counter_",
    "enchant_",
    "ball_",
    "hands_",
    "steal_",
    "dragon_",
    "fire_",
)


def parse_message(
    text: str,
    *,
    state: MatchState,
    ruleset: Ruleset,
    side: Side | None,
    lang: str = "ru",
    controllable: frozenset[int] | None = None,
    dragon_allowed: bool = True,
    on_file: RoundOrders | None = None,
    check_legality: bool = True,
) -> ParseResult:
    """Read an order message of team ``side`` (None: a game master).

    ``controllable`` limits the shirt numbers the writer may order (None:
    his whole team), ``dragon_allowed`` whether he may order the dragon.
    ``on_file`` is the team's sheet already stored for the round: legality
    is checked on it merged with this message (a tick-2 flight is measured
    from the tick-1 order on file).  ``check_legality=False`` reads names
    only (the round-trip tests and a syntax-only check use it).
    """
    try:
        return _parse(
            text, state, ruleset, side, lang, controllable, dragon_allowed, on_file, check_legality
        )
    except OrderLanguageError:
        raise
    except Exception as exc:  # a bug of ours or of the engine: one documented type
        raise OrderLanguageError(f"internal error while reading orders: {exc!r}") from exc


def _parse(
    text: str,
    state: MatchState,
    ruleset: Ruleset,
    side: Side | None,
    lang: str,
    controllable: frozenset[int] | None,
    dragon_allowed: bool,
    on_file: RoundOrders | None,
    check_legality: bool,
) -> ParseResult:
    if not isinstance(text, str):
        raise OrderLanguageError(f"an order message is text, not {type(text).__name__}")
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_MESSAGE_BYTES:
        err = OrderError(
            "too_large", 0, "", 0, 0,
            message("too_large", lang, size=size, limit=MAX_MESSAGE_BYTES), "too_large",
        )  # fmt: skip
        return ParseResult(errors=(err,))
    resolver = Resolver(state, ruleset, side, lang, controllable, dragon_allowed, on_file)
    syntax_errors: list[OrderError] = []
    order_lines = 0
    judge = JudgeLines(state, side)
    pasted = _PastedRounds(state.round, lang)
    lines = split_lines(text)
    quoted: list[int] = []
    for number, raw in enumerate(lines, start=1):
        if not raw or raw.isspace():
            judge.gap()
            pasted.end(syntax_errors)
            continue
        if _QUOTED.match(raw):
            judge.gap()  # a quotation ("> ", any depth: a mail reply's): not orders
            pasted.end(syntax_errors)
            quoted.append(number)
            continue
        if judge.ignores(raw):
            pasted.judge_line(raw, number, syntax_errors)
            continue  # the judge's own line of its answer, pasted back: a comment
        if pasted.skips(number):
            continue
        line = parse_line(number, raw)
        if line.issue is not None and _attribution(raw, lines, number):
            continue  # "Иван пишет:" above a quotation: the quotation's, not orders
        if pasted.starts(line):
            continue
        if line.node is not None or line.issue is not None:
            order_lines += 1
            if order_lines > MAX_ORDER_LINES:
                err = OrderError(
                    "too_large", 0, "", 0, 0,
                    message("too_many_lines", lang, limit=MAX_ORDER_LINES), "too_many_lines",
                )  # fmt: skip
                return ParseResult(errors=(err,))
        if line.issue is not None:
            syntax_errors.append(
                _syntax_error(
                    line,
                    line.issue,
                    lang,
                    resolver.suggest,
                    resolver.ruleset,
                    state.players,
                    state,
                    side,
                )
            )
            resolver.other_errors += 1
        resolver.feed(line)
    pasted.end(syntax_errors)
    resolver.finish()
    errors = sorted(syntax_errors + resolver.errors, key=lambda e: e.line)
    if any(e.code == "wrong_round" for e in errors):
        return ParseResult(errors=tuple(errors), round=resolver.round)
    orders = RoundOrders(
        players=tuple(resolver.players.values()),
        dragons=tuple(resolver.dragons.values()),
        substitutions=tuple(resolver.substs.values()),
        penalties=tuple(resolver.penalties.values()),
    )
    clears = tuple(resolver.clears)
    read = orders
    if check_legality:
        base = apply_clears(on_file or RoundOrders(), clears)
        orders, illegal = _legality(state, ruleset, side, base, orders, resolver, lang)
        errors = sorted(errors + illegal, key=lambda e: e.line)
    errors = [_with_tick_context(e, resolver.header_at.get(e.line), lang) for e in errors]
    line_of = (
        dict(resolver.line_of)
        if orders is read  # nothing refused: every order read is kept
        else {o: n for o, n in resolver.line_of.items() if _contains(orders, o)}
    )
    clear_lines = tuple(sorted(resolver.clear_lines))
    notes = pasted.notes([*line_of.values(), *clear_lines])
    if quoted:  # said, so a line written with «>» by mistake is not lost unseen
        notes += (t("order.quoted_lines", lang, lines=_line_spans(quoted)),)
    return ParseResult(orders, clears, tuple(errors), resolver.round, line_of, clear_lines, notes)


class _PastedRounds:
    """The judge's answer of another round pasted into a message (last
    round's, copied to be edited): its own lines are comments whatever the
    round (:class:`JudgeLines`); its sheet, a "Раунд N" line of that round
    under them, is that round's orders — not taken, one error says so and
    how to give them for this round; the other order lines are read for
    this round, and a note says so (the answer's round and this one)."""

    def __init__(self, current: int, lang: str) -> None:
        self.current = current
        self.lang = lang
        self.named: int | None = None  # the round the last judge's line named
        self.first: int | None = None  # the first judge's line of another round
        self.other: int | None = None  # that round's number
        self.sheet: tuple[Line, RoundHeader, list[int]] | None = None  # being skipped

    def judge_line(self, raw: str, number: int, errors: list[OrderError]) -> None:
        self.end(errors)
        named = round_named(raw)
        if named is not None:
            self.named = named
            if named != self.current and self.first is None:
                self.first, self.other = number, named

    def starts(self, line: Line) -> bool:
        """Whether ``line`` begins the sheet of another round of a pasted answer."""
        node = line.node
        if not isinstance(node, RoundHeader) or node.number == self.current:
            return False
        if node.number != self.named:
            return False  # the writer's own header: a message of another round
        self.sheet = (line, node, [line.number])
        return True

    def skips(self, number: int) -> bool:
        if self.sheet is None:
            return False
        self.sheet[2].append(number)
        return True

    def end(self, errors: list[OrderError]) -> None:
        """The pasted sheet (if one is being skipped) ends: its error."""
        if self.sheet is None:
            return
        line, node, numbers = self.sheet
        self.sheet = None
        en = lang_of(self.lang) == 1
        word = "Round" if en else "Раунд"
        span = f"{numbers[0]}–{numbers[-1]}" if len(numbers) > 1 else str(numbers[0])
        text = message(
            "pasted_round", self.lang, got=node.number, current=self.current, lines=span,
            header=f"{word} {node.number}", fixed=f"{word} {self.current}",
        )  # fmt: skip
        errors.append(
            OrderError(
                "wrong_round", line.number, line.text, node.start, node.end, text, "pasted_round"
            )
        )

    def notes(self, taken: Sequence[int]) -> tuple[str, ...]:
        """A note when orders were read from the lines of an answer of another round."""
        if self.first is None or not any(n > self.first for n in taken):
            return ()
        return (t("order.other_round_answer", self.lang, got=self.other, current=self.current),)


def _line_spans(numbers: Sequence[int]) -> str:
    """``[2, 3, 4, 7]`` → ``2–4, 7``."""
    spans: list[list[int]] = []
    for n in numbers:
        if spans and n == spans[-1][1] + 1:
            spans[-1][1] = n
        else:
            spans.append([n, n])
    return ", ".join(f"{a}–{b}" if b > a else str(a) for a, b in spans)


def _attribution(raw: str, lines: Sequence[str], number: int) -> bool:
    """Whether line ``number`` (``raw``, a line the reader cannot take) ends
    with a colon and the next line with text is quoted: the quotation's
    attribution ("… пишет:", "On … wrote:"), as a mail reply writes it."""
    if not raw.rstrip().endswith(":"):
        return False
    following = next((x for x in lines[number:] if x.strip()), "")
    return bool(_QUOTED.match(following))


def _with_tick_context(error: OrderError, header: tuple[int, ...] | None, lang: str) -> OrderError:
    """The error of a line written under a tick header, with that header as
    the line's own tick mark («такт 2»): copied back alone and put right, the
    line keeps its tick.  Not for a line that names its own ticks (the marks
    would add up) nor for a header that is no plain tick or run of ticks."""
    if not header or not error.text:
        return error
    kinds = {w.type for w in tokenize(error.text)}
    if "TICK" in kinds or ("ALL" in kinds and error.code != "all_alone"):
        return error
    first, last = header[0], header[-1]
    if header != tuple(range(first, last + 1)):
        return error
    context = (
        t("order.tick_context", lang, tick=first)
        if first == last
        else t("order.ticks_context", lang, first=first, last=last)
    )
    return replace(error, context=context, context_at=order_part_end(error.text))


def _contains(orders: RoundOrders, order: Order) -> bool:
    match order:
        case PlayerOrder():
            return order in orders.players
        case DragonOrder():
            return order in orders.dragons
        case Substitution():
            return order in orders.substitutions
        case Penalty():
            return order in orders.penalties


# -- syntax errors ---------------------------------------------------------------------


def _syntax_error(
    line: Line,
    issue: SyntaxIssue,
    lang: str,
    suggest: bool,
    ruleset: Ruleset,
    players: Sequence[PlayerState] = (),
    state: MatchState | None = None,
    side: Side | None = None,
) -> OrderError:
    params: dict[str, Any] = dict(issue.params)
    code, start, end = issue.code, issue.start, issue.end
    suggestions: tuple[str, ...] = ()
    if code in ("syntax_token", "syntax_end"):
        guess = _misspelt_keyword(line.text, start) if suggest else None
        if guess is not None:
            code, start, end, suggestions = "syntax_word", guess[0], guess[1], (guess[2],)
            params["got"] = line.text[start:end]
        params["expected"] = describe_expected(params.get("expected", ()), lang)
        hint = _pass_without_target(line.text, lang, ruleset) if guess is None else None
        if code == "syntax_end" and hint is not None:
            code, start, end, params = "pass_no_target", hint[0], hint[1], hint[2]
            opponent = _opponent(params.pop("mate", ""), state, side)
            if opponent is not None:
                # "пас красный Соколову", Соколов of the other team: a pass to a
                # player goes to a team-mate, not «игроку Соколову»
                code, params = "receiver_opponent", opponent
        params.pop("mate", None)
        subst = _substitution_forms(line.text, lang, players) if guess is None else None
        if subst is not None:
            code, start, end, params = "subst_form", subst[0], subst[1], subst[2]
        elif guess is None and code == "syntax_token" and start > 0:
            second = _second_order(line.text, start, players)
            if second is not None:
                code, end, params = "second_order", second, {"got": line.text[start:second]}
    text = message(code, lang, **params)
    if suggestions:
        text += " " + message("suggest", lang, suggestions=_quote(suggestions, lang))
    kind: ErrorKind = "illegal" if code == "receiver_opponent" else "syntax"  # as resolve.py's
    return OrderError(kind, line.number, line.text, start, end, text, code, suggestions)


def _pass_without_target(
    text: str, lang: str, ruleset: Ruleset
) -> tuple[int, int, dict[str, str]] | None:
    """A pass that ends with no cell or team-mate after it ("пас красный
    Петрову"): its span and the forms to write, with the words it has (the
    last word that is neither a ball nor a spell taken for the team-mate)."""
    words = tokenize(text.split("//")[0])
    at = max((i for i, w in enumerate(words) if w.type == "PASS"), default=None)
    if at is None or any(w.type not in ("WORD", "SPELL") for w in words[at + 1 :]):
        return None
    rest = [w for w in words[at + 1 :] if w.type == "WORD"]
    spells: set[int] = set()
    for i, w in enumerate(rest):
        if is_spell(ruleset, w.value):
            spells.add(i)
        elif i + 1 < len(rest) and is_spell(ruleset, w.value + rest[i + 1].value):
            spells.update((i, i + 1))  # "гуллис дуллис"
    balls = [b for w in rest if (b := ball_of(w.value)) is not None]
    names = [w for i, w in enumerate(rest) if i not in spells and ball_of(w.value) is None]
    spell = " ".join(text[rest[i].start : rest[i].end] for i in sorted(spells))
    en = lang_of(lang) == 1
    head = "pass" if en else "пас"
    ball = f" {label(balls[0], lang)}" if balls else ""
    mate = text[names[-1].start : names[-1].end] if names else "2"
    tail = f" {spell}" if spell else ""
    to_mate = f"{head}{ball} {to_mate_word(lang)} {mate}{tail}"
    cell, height = _a_cell_in_range(words[:at], ruleset)
    to_cell = f"{head}{ball} {'to' if en else '->'} {cell} {'h' if en else 'в'}{height}{tail}"
    end = words[-1].end
    return words[at].start, end, {"to_mate": to_mate, "to_cell": to_cell, "mate": mate}


def _opponent(mate: str, state: MatchState | None, side: Side | None) -> dict[str, str] | None:
    """The name and team of the opponent a pass's word names (None: it names
    a team-mate, nobody, or the writer is a game master, of both teams)."""
    if state is None or side is None or not mate:
        return None
    words = tuple(w.value for w in tokenize(mate) if w.type == "WORD")
    if not words or find_player(words, state.team_players(side)).player is not None:
        return None
    theirs = find_player(words, state.team_players(other_side(side))).player
    if theirs is None:
        return None
    return {"name": theirs.name or str(theirs.number), "team": state.team(theirs.side).name}


def _substitution_forms(
    text: str, lang: str, players: Sequence[PlayerState]
) -> tuple[int, int, dict[str, str]] | None:
    """A substitution line the grammar could not read ("sub Popov with
    Zaitsev"): its span and the two forms, with its first and last names
    (the first written taken for the one leaving, as "with" and "by" mean;
    a name that is a player's, in any case form, as the roster spells it)."""
    words = tokenize(text.split("//")[0])
    if not words:
        return None

    def player(w: Word) -> PlayerState | None:
        return find_player((w.value,), players).player if w.type == "WORD" else None

    def name(w: Word) -> str:
        found = player(w)
        return found.name if found is not None and found.name else text[w.start : w.end]

    if words[0].type != "SUBST":
        # "Попов -> Зайцев": a player, an arrow and a reserve is a substitution
        # with its keyword left out (or a pass to a team-mate: not a reserve)
        kinds = [w.type for w in words]
        if kinds.count("ARROW") != 1 or set(kinds) != {"WORD", "ARROW"} or kinds[0] != "WORD":
            return None
        into_p = player(words[-1])
        if into_p is None or into_p.status != "reserve":
            return None
        names = [words[0], words[-1]]
    else:
        names = [w for w in words[1:] if w.type in ("WORD", "INT")]
    if len(names) < 2:
        return None

    en = lang_of(lang) == 1
    out, into = name(names[0]), name(names[-1])
    head, instead = ("sub", "for") if en else ("замена", "вместо")
    params = {
        "arrow": f"{head} {out} -> {into}",
        "instead": f"{head} {into} {instead} {out}",
        "out": out,
        "into": into,
    }
    return words[0].start, words[-1].end, params


def _second_order(text: str, at: int, players: Sequence[PlayerState]) -> int | None:
    """Where a second order that begins at ``at`` ends, if the line holds
    two whole ones ("Иванов: 89 в2; Петров: 91 в2"), each of a player on
    the roster or of the dragon (not a misspelt word taken for a name:
    "passs red to 91 h2")."""
    first, second, end = split_orders(text, at)

    def whole(node: object) -> bool:
        if isinstance(node, DragonLine):
            return True
        if not isinstance(node, PlayerLine):
            return False
        ref = node.subject
        return ref.number is not None or find_player(ref.words, players).player is not None

    return end if whole(first) and whole(second) else None


def _a_cell_in_range(before: list[Word], ruleset: Ruleset) -> tuple[int, int]:
    """A cell two steps from the line's flight (a pass in range of it) and the
    flight's height, for an example; 91 at height 2 if the line has none."""
    field = ruleset.field
    cells = [i for i, w in enumerate(before) if w.type == "INT" and int(w.value) > 3]
    if not cells or not field.is_cell(int(before[cells[-1]].value)):
        return 91, 2
    i = cells[-1]
    after = before[i + 1 : i + 3]
    height = next((int(w.value) for w in after if w.type in ("HEIGHT", "INT")), 2)
    cell = int(before[i].value)
    for d in field.directions:
        there = field.step(cell, d, 2)
        if there is not None:
            return there, height
    return 91, 2


def _misspelt_keyword(text: str, at: int) -> tuple[int, int, str] | None:
    """A word up to the failure point that looks like a misspelt keyword ("ловть")."""
    words = [w for w in tokenize(text.split("//")[0]) if w.kind == "WORD" and w.start <= at]
    near = words[1:] if len(words) > 1 and words[0].start < at else words
    for w in reversed(near[-_GUESS_WORDS:]):
        if len(w.value) < 3:
            continue
        close = _KEYWORDS.close(w.value)
        if close:
            return w.start, w.end, close[0]
    return None


def _quote(items: Iterable[str], lang: str) -> str:
    return quote(items, lang)


# -- legality -------------------------------------------------------------------------


def _legality(
    state: MatchState,
    ruleset: Ruleset,
    side: Side | None,
    base: RoundOrders,
    orders: RoundOrders,
    resolver: Resolver,
    lang: str,
) -> tuple[RoundOrders, list[OrderError]]:
    """The engine's check on the sheet with this message merged in; orders it
    refuses are dropped (and the check repeated: a dropped tick-1 flight moves
    the start of tick 2)."""
    errors: list[OrderError] = []
    seen: set[tuple[int, str]] = set()
    ticks_of_line: dict[int, set[int]] = {}
    for order, number in resolver.line_of.items():
        if not isinstance(order, Substitution):
            ticks_of_line.setdefault(number, set()).add(order.tick)
    for _ in range(_MAX_LEGALITY_ROUNDS):
        # checked as the round will be played: a substitute flies the orders
        # of the player he replaces (substitutes.py); blamed on the line written
        played, origin = effective(state, base.merged(orders), ruleset)
        problems = check_orders(state, played, ruleset, side=side)
        refused: set[Any] = set()
        for p in problems:
            if p.order is not None and p.order in origin:
                p = replace(p, order=origin[p.order])
            line = resolver.line_of.get(p.order) if p.order is not None else None
            if p.order is not None and line is None:
                continue  # about an order already on file, not this message's
            if p.order is not None:
                refused.add(p.order)
            err = _illegal(p, line or 0, resolver, state, lang)
            if p.tick is not None and len(ticks_of_line.get(line or 0, ())) > 1:
                # one line, several ticks ("все такты"): say which tick is wrong
                text = t("order.tick_prefix", lang, tick=p.tick, message=err.message)
                err = replace(err, message=text)
            if (err.line, err.code + err.message) not in seen:
                seen.add((err.line, err.code + err.message))
                errors.append(err)
        if not refused:
            break
        orders = RoundOrders(
            players=tuple(o for o in orders.players if o not in refused),
            dragons=tuple(o for o in orders.dragons if o not in refused),
            substitutions=tuple(o for o in orders.substitutions if o not in refused),
            penalties=tuple(o for o in orders.penalties if o not in refused),
        )
    return orders, errors


def _illegal(p: Problem, line: int, resolver: Resolver, state: MatchState, lang: str) -> OrderError:
    code = str(p.code.value)
    params = dict(p.params)
    msg_key = ENGINE_CODE_ALIASES.get(code, code)
    subst_part = None
    if isinstance(p.order, Substitution) and (code.startswith("subst_") or code == "duplicate"):
        # the caret goes under the name that is wrong, whichever way the line names them
        sub = p.order
        number = params.get("number")
        subst_part = (
            "out" if number == sub.out_number else "in" if number == sub.in_number else None
        )
        if code == "duplicate":
            # one of the two is in another substitution too (not "a second order on tick 0")
            others = [*resolver.substs.values(), *resolver.on_file.substitutions]
            again = next(
                (
                    n
                    for o in others
                    if o != sub and o.side == sub.side
                    for n in (sub.out_number, sub.in_number)
                    if n in (o.out_number, o.in_number)
                ),
                sub.in_number,
            )
            msg_key, subst_part = "subst_duplicate", "out" if again == sub.out_number else "in"
            pl = state.find_player(sub.side, again)
            params["name"] = pl.name if pl is not None and pl.name else str(again)
        if code == "subst_not_reserve" and subst_part == "out":
            # a reserve written where the player leaving the field goes
            incoming = state.find_player(sub.side, sub.in_number)
            outgoing = state.find_player(sub.side, sub.out_number)
            if incoming is not None and outgoing is not None and incoming.status != "reserve":
                msg_key = "subst_out_reserve_swap"
                params["example"] = t(
                    "order.subst_example", lang, out=incoming.name, into=outgoing.name
                )
            else:
                msg_key = "subst_out_reserve"
    order_side: Side | None = getattr(p.order, "side", None)
    if order_side is not None:
        for key, owner in (("number", order_side), ("target", other_side(order_side))):
            value = params.get(key)
            if isinstance(value, int) and (pl := state.find_player(owner, value)) is not None:
                params[key] = f"{pl.name} ({value})" if pl.name else str(value)
    if isinstance(params.get("side"), str) and params["side"] in ("left", "right"):
        params["side"] = state.team(params["side"]).name
    params.setdefault("ticks", resolver.ruleset.ticks_per_round)
    text = message(msg_key, lang, **localise_params(params, lang))
    source = resolver.line_text(line)
    spans = resolver.spans.get(p.order, {}) if p.order is not None else {}
    part = (
        subst_part
        if subst_part is not None
        else "flight"
        if code in _FLIGHT_CODES
        else "action"
        if code.startswith(_ACTION_PREFIXES)
        else "all"
    )
    start, end = spans.get(part) or spans.get("all") or (0, len(source))
    return OrderError("illegal", line, source, start, end, text, code)
