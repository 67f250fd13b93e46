"""Text → one syntax node per line, with no state needed.

A message is split into lines; each line loses its comment (``--`` or ``#``
after a space or at the start) and its description (everything after the
first ``//``), is cut into tokens by :func:`tokenize` (words are classified
through the vocabulary of :mod:`.lexicon`), and the tokens are parsed by a
LALR parser built once from ``grammar.lark``.  The result for each line is a
node (what the line says, with the spans of its parts) or a
:class:`SyntaxIssue` (what is wrong and where).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from importlib import resources
from typing import Any, Final, Literal

from lark import Lark, Token, Transformer
from lark.lexer import Lexer, LexerState

from .driver import Failure, run
from .lexicon import clean_text
from .nodes import (
    Action,
    CatchAct,
    ClearLine,
    DragonLine,
    Flight,
    Line,
    Node,
    PassAct,
    PenaltyLine,
    PlayerLine,
    Receiver,
    Ref,
    RoundHeader,
    StealAct,
    SubstLine,
    SyntaxIssue,
    TeamHeader,
    TickHeader,
    Ticks,
)
from .tokens import Word, tokenize

__all__ = ["MAX_LINE_TOKENS", "parse_line", "parser", "split_lines", "split_orders"]

MAX_LINE_TOKENS: Final = 40  # an order line has at most this many words, numbers and marks
_CACHED_LINE: Final = 256  # longer lines are read afresh (the cache holds short ones)
_ACTIONS: Final = frozenset({"PASS", "CATCH", "STEAL"})
_TICK_LIST_MARKS: Final = frozenset({",", "и", "and"})  # between ticks of a header: "Такт 1, 2"
_TICK_MARKS: Final = frozenset({"TICK", "INT", "DASH", "ALL", "TO", "V"})  # "т1-3", "в такте 2"
_COMMENT: Final = re.compile(r"(?:^|(?<=\s))(?:--|#(?!\d+\s*:))")  # "#3:" is shirt number 3
# "#3" with no colon starts a comment ("#2 и так далее") unless the line reads
# as an order with it ("#3 89 в2", "tick #1", "steal #1"): then it is a number.
_COMMENT_OR_NUMBER: Final = re.compile(r"(?:^|(?<=\s))(?:--|#(?!\d))")
# What may stand before a line without being part of it: a list's number or
# bullet ("1. Попов: …", "- Попов: …"), the line number of the judge's own
# error block ("4: Кузнецв: 169 в2", copied to be corrected).
_PREFIX: Final = re.compile(r"\s*(?:\d{1,3}\s*[.):]|[-–—])\s")
# A name with its shirt number before the colon, as the judge writes players
# ("Иванов (1): 89 в2", "Иванов №1:").
_NAME_NUMBER: Final = re.compile(
    r"\s*[^\W\d_][^\d:()#№]*?(?P<mark>\s*(?:\(\s*[№#]?\s*(?P<a>\d{1,3})\s*\)|[№#]\s*(?P<b>\d{1,3})))\s*:"
)


@dataclass(frozen=True, slots=True)
class _Height:
    value: int
    start: int
    end: int


class _TokenLexer(Lexer):
    """Feeds lark the tokens :func:`tokenize` already made (for ``Lark.parse``,
    which the tests and the benchmark's floor use; :func:`parse_line` drives
    the table itself)."""

    __future_interface__ = 2

    def __init__(self, lexer_conf: Any) -> None:
        pass

    def lex(self, lexer_state: LexerState, parser_state: Any) -> Iterator[Token]:
        words: Sequence[Token] = lexer_state.text  # type: ignore[assignment]
        yield from words


# -- tree → nodes ---------------------------------------------------------------


def _words(items: Sequence[Any]) -> list[Word]:
    return [t for t in items if isinstance(t, Word)]


def _ref(items: Sequence[Any]) -> Ref:
    ws = _words(items)
    first = ws[0]
    if len(ws) == 1 and first.type == "INT":
        return Ref((), int(first.value), first.start, first.end)
    return Ref(tuple([w.value for w in ws]), None, first.start, ws[-1].end)


def _ticks(items: Sequence[Any]) -> tuple[Ticks, ...]:
    return tuple(i for i in items if isinstance(i, Ticks))


def _number(items: Sequence[Any]) -> Word:
    for w in items:
        if isinstance(w, Word) and w.type == "INT":
            return w
    raise AssertionError("the grammar puts a number here")


class _ToNodes(Transformer[Token, Any]):
    """Builds the nodes bottom-up while lark parses (no tree is kept)."""

    def start(self, items: list[Any]) -> Node:
        node: Node = items[0]
        return node

    def round_hdr(self, items: list[Any]) -> RoundHeader:
        n = _number(items)
        ws = _words(items)
        return RoundHeader(int(n.value), _ticks(items), ws[0].start, ws[-1].end)

    def tick_hdr(self, items: list[Any]) -> TickHeader:
        return TickHeader(_ticks(items))

    def tick_range(self, items: list[Any]) -> Ticks:
        nums = [w for w in _words(items) if w.kind == "INT"]
        ws = _words(items)
        first = int(nums[0].value)
        last = int(nums[-1].value)
        return Ticks(first, last, ws[0].start, ws[-1].end)

    def tick_post(self, items: list[Any]) -> Ticks:
        ws = _words(items)
        n = int(ws[0].value)
        return Ticks(n, n, ws[0].start, ws[-1].end)

    def tick_all(self, items: list[Any]) -> Ticks:
        ws = _words(items)
        return Ticks(None, None, ws[0].start, ws[-1].end)

    def team_hdr(self, items: list[Any]) -> TeamHeader:
        ws = _words(items)
        return TeamHeader(tuple(ws[1:]), ws[1].start, ws[-1].end)

    # The methods below run for nearly every line: one pass over their items.
    def subject(self, items: list[Any]) -> Ref:
        first = items[0]
        if len(items) == 1 and first.type == "INT":
            return Ref((), int(first.value), first.start, first.end)
        return Ref(tuple([w.value for w in items]), None, first.start, items[-1].end)

    def height(self, items: list[Any]) -> _Height:
        first = items[0]  # every item is a token: a height mark and its number
        n = first if first.type == "HEIGHT" else items[-1]
        return _Height(int(n.value), first.start, n.end)

    def flight(self, items: list[Any]) -> Flight:
        cell: Word | None = None
        h: _Height | None = None
        for i in items:
            if isinstance(i, _Height):
                h = i
            elif cell is None and i.type == "INT":
                cell = i
        assert cell is not None, "the grammar puts a number here"
        end = h.end if h else cell.end
        return Flight(int(cell.value), h.value if h else None, items[0].start, end)

    def moved(self, items: list[Any]) -> Flight:
        origin: Word = items[0]
        h: _Height = items[1]
        to: Flight = items[-1]
        return replace(to, origin=(int(origin.value), h.value), start=origin.start)

    def theight(self, items: list[Any]) -> _Height:
        return self.height(items)

    def target(self, items: list[Any]) -> Flight:
        return self.flight(items)

    def receiver(self, items: list[Any]) -> Receiver:
        ws = _words(items)
        return Receiver(_ref(ws[-1:]), ws[0].start, ws[-1].end)

    def pass_word(self, items: list[Any]) -> Word:
        w: Word = items[0]
        return w

    def pass_(self, items: list[Any]) -> PassAct:
        head: Word = items[0]
        words = tuple(i for i in items[1:] if isinstance(i, Word))
        target = next(i for i in items if isinstance(i, Flight | Receiver))
        end = max([target.end] + [w.end for w in words])
        return PassAct(words, target, head.start, end)

    def catch(self, items: list[Any]) -> CatchAct:
        ws = _words(items)
        return CatchAct(tuple(ws[1:]), ws[0].start, ws[-1].end)

    def steal(self, items: list[Any]) -> StealAct:
        ws = _words(items)
        return StealAct(_ref(items[1:]), ws[0].start, ws[-1].end)

    def pbody(self, items: list[Any]) -> tuple[Flight | Word | None, Action | None, bool]:
        where: Flight | Word | None = None
        action: Action | None = None
        clear = False
        for i in items:
            if isinstance(i, Flight):
                where = i
            elif isinstance(i, Word):
                if i.type == "STAY" and where is None:
                    where = i
                elif i.type == "CLEAR":
                    clear = True
            elif action is None:  # a pass, a catch or a steal
                action = i
        return where, action, clear

    def player_line(self, items: list[Any]) -> PlayerLine:
        ticks: list[Ticks] = []
        subject: Ref | None = None
        for i in items:
            if isinstance(i, Ref):
                subject = i
            elif isinstance(i, Ticks):
                ticks.append(i)
        assert subject is not None
        body = next(i for i in items if isinstance(i, tuple) and not isinstance(i, Word))
        flight, action, clear = body
        after = items[items.index(body) + 1 :]  # the safety spell, closing ticks
        safety = any(isinstance(i, Word) and i.type == "SAFETY" for i in after)
        end = max([subject.end] + [x.end for x in (flight, action, *after) if x is not None])
        return PlayerLine(tuple(ticks), subject, flight, action, clear, end, safety)

    def dbody(self, items: list[Any]) -> list[Word]:
        return _words(items)

    def dragon_line(self, items: list[Any]) -> DragonLine:
        body: list[Word] = next(i for i in items if isinstance(i, list))
        head = _words(items)[0] if _words(items) else body[0]
        clear = body[0].type == "CLEAR"
        start = min(head.start, body[0].start)
        end = max([body[-1].end] + [t.end for t in _ticks(items)])
        return DragonLine(_ticks(items), () if clear else tuple(body), clear, start, end)

    def subst(self, items: list[Any]) -> SubstLine:
        refs = [i for i in items if isinstance(i, Ref)]
        return SubstLine(refs[0], refs[1])

    def subst_instead(self, items: list[Any]) -> SubstLine:
        refs = [i for i in items if isinstance(i, Ref)]
        return SubstLine(refs[1], refs[0])

    def clear_what(self, items: list[Any]) -> tuple[Ref, tuple[Ticks, ...]]:
        return items[0], _ticks(items)

    def clear_dragon(self, items: list[Any]) -> tuple[str, tuple[Ticks, ...]]:
        return "dragon", _ticks(items)

    def clear_line(self, items: list[Any]) -> ClearLine:
        ticks = list(_ticks(items))
        what: Ref | Literal["dragon"] | None = None
        if items and isinstance(items[-1], tuple) and not isinstance(items[-1], Word):
            target, more = items[-1]
            what = "dragon" if target == "dragon" else target
            ticks.extend(more)
        ws = _words(items)
        end = max([w.end for w in ws] + [t.end for t in ticks] + [getattr(what, "end", 0)])
        return ClearLine(tuple(ticks), what, ws[0].start if ws else 0, end)

    def penalty_line(self, items: list[Any]) -> PenaltyLine:
        ws = _words(items)
        ticks = _ticks(items)
        return PenaltyLine(ticks, ws[0].start, max([ws[-1].end] + [t.end for t in ticks]))


@cache
def parser() -> Lark:
    """The order language's LALR parser, built once from ``grammar.lark``."""
    grammar = resources.files("bot.orderlang").joinpath("grammar.lark").read_text("utf-8")
    return Lark(
        grammar,
        parser="lalr",
        lexer=_TokenLexer,
        transformer=_ToNodes(),
        maybe_placeholders=False,
    )


# -- lines ----------------------------------------------------------------------------


def split_lines(text: str) -> list[str]:
    """The lines of a message, after :func:`lexicon.clean_text`."""
    return clean_text(text).split("\n")


def _cut(text: str, comment: re.Pattern[str] = _COMMENT) -> tuple[str, str | None]:
    """The order part of a line and its description (None: no ``//``)."""
    desc: str | None = None
    at = text.find("//")
    if at >= 0:
        desc = text[at + 2 :].strip()
        text = text[:at]
    m = comment.search(text)
    if m:
        text = text[: m.start()]
    return text, desc


def order_part_end(text: str) -> int:
    """Where a line's order part ends: before its description or comment."""
    return len(_cut(text)[0].rstrip())


def parse_line(number: int, text: str) -> Line:
    """Read one line (``number`` is 1-based, ``text`` already cleaned)."""
    read = _read(text) if len(text) <= _CACHED_LINE else _read.__wrapped__(text)
    node, desc, issue, desc_only = read
    return Line(number, text, node, desc, issue, desc_only)


# What one line's text reads as: (node, description, issue, description only).
_Read = tuple[Node | None, str, SyntaxIssue | None, bool]


@lru_cache(maxsize=4096)
def _read(text: str) -> _Read:
    """A line's reading, cached: a message (a flood of one bad line, a
    player's next message) repeats lines, and the reading needs no state."""
    order_text, desc = _cut(text)
    node, issue = _read_order(order_text, text)
    if node is None and (m := _COMMENT.search(text)) and text.startswith("#", m.start()):
        hashed, _ = _cut(text, _COMMENT_OR_NUMBER)
        if hashed != order_text and (read := _read_order(hashed, text))[0] is not None:
            node, issue = read  # "#3 89 в2": the number of a player, not a comment
    if node is None and issue is None:
        return None, desc or "", None, desc is not None
    return node, desc or "", issue, False


def _read_order(order_text: str, text: str) -> tuple[Node | None, SyntaxIssue | None]:
    """The node or the issue of a line's order part (both None: no tokens)."""
    tokens = tokenize(order_text, MAX_LINE_TOKENS + 1)
    if not tokens:
        return None, None
    if len(tokens) > MAX_LINE_TOKENS:
        extra = tokens[MAX_LINE_TOKENS]
        end = len(order_text.rstrip())
        return None, SyntaxIssue("line_too_long", extra.start, end, (("limit", MAX_LINE_TOKENS),))
    kinds = tuple([t.type for t in tokens])
    bad = tokens[kinds.index("BADNUM")] if "BADNUM" in kinds else None
    if bad is not None:
        return None, SyntaxIssue(
            "syntax_number", bad.start, bad.end, (("got", text[bad.start : bad.end]),)
        )
    header = _header(tokens) or _tick_list(tokens, order_text)
    if header is not None:
        return header, None
    # The inline transformer builds our node while the table is driven.
    node = run(parser(), tokens, kinds)
    if not isinstance(node, Failure):
        return node, None
    named = _NAME_NUMBER.match(order_text)
    if named is not None:
        start, end = named.span("mark")
        read = _read_order(order_text[:start] + " " * (end - start) + order_text[end:], text)
        if isinstance(read[0], PlayerLine) and read[0].subject.number is None:
            ref = read[0].subject
            number = int(named.group("a") or named.group("b"))
            return replace(read[0], subject=replace(ref, number=number, end=end)), None
    prefix = _PREFIX.match(order_text)
    if prefix is not None and len(tokens) > 1:
        # "1. Попов: 87 в2": the number (or bullet) cannot be the line's own,
        # as the line fails right after it; the rest says all (the rest's
        # error, if any, is the true one).  Failing later, the line is the
        # rest when the rest reads whole: "6: т2 Васильев: 120 в1", a line of
        # the judge's error block (its number, then the line as written).
        rest = " " * prefix.end() + order_text[prefix.end() :]
        read = _read_order(rest, text)
        if read != (None, None) and (node.index <= 1 or read[0] is not None):
            return read
    head = kinds.index("DRAGON") if "DRAGON" in kinds else -1
    if head >= 0 and set(kinds[:head]) <= _TICK_MARKS:
        # "Дракон: 104 в2": the dragon is steered, not sent to a cell
        cell = next(
            (
                i
                for i in range(head + 1, min(node.index + 1, len(tokens)))
                if kinds[i] == "INT" and kinds[i + 1 : i + 2] != ("TICK",)
            ),
            None,
        )
        if cell is not None:
            w = tokens[cell]
            end = tokens[cell + 1].end if kinds[cell + 1 : cell + 2] == ("HEIGHT",) else w.end
            return None, SyntaxIssue("dragon_word", w.start, end, (("got", text[w.start : end]),))
    # "Иванов: 37 в2, всё": "всё" alone closes a sentence, or means every
    # tick: a guess either way; the answer names the form for every tick
    if (
        node.index >= len(tokens)
        and kinds[-1] == "ALL"
        and len(tokens) > 1
        and not isinstance(run(parser(), tokens[:-1], kinds[:-1]), Failure)
    ):
        w = tokens[-1]
        return None, SyntaxIssue("all_alone", w.start, w.end, (("got", text[w.start : w.end]),))
    return None, _issue(node, tokens, text, order_text)


def split_orders(text: str, at: int) -> tuple[Node | None, Node | None, int]:
    """A line's order part read as two lines, cut at ``at`` ("Иванов: 89
    в2; Петров: 91 в2"), and where the second ends."""
    order_text, _ = _cut(text)
    first, _ = _read_order(order_text[:at], text)
    second, _ = _read_order(" " * at + order_text[at:], text)
    return first, second, len(order_text.rstrip().rstrip(".,;!"))


def _header(tokens: list[Word]) -> Node | None:
    """``Такт 2`` or ``Раунд 5`` read directly: a third of a typical message's
    lines, and the parser would give the same node (a test checks it)."""
    if len(tokens) != 2 or tokens[1].type != "INT":
        return None
    head, n = tokens
    if head.type == "TICK":
        return TickHeader((Ticks(int(n.value), int(n.value), head.start, n.end),))
    if head.type == "ROUND":
        return RoundHeader(int(n.value), (), head.start, n.end)
    return None


def _tick_list(tokens: list[Word], text: str) -> TickHeader | None:
    """A tick header listing several ticks ("Такт 1, 2", "Такты 1 и 2", "Ticks
    1, 2-3", "такт 1 и такт 3"): the lines below are for each of them, as
    under "Такт 1-2".  Each tick after the first has its tick word or a mark
    before it (a comma, "и", "and"; nothing else): "т1 3" is player 3's line
    on tick 1, and so is "т1, 3: 104-2" (a colon after a number closes it)."""
    if len(tokens) < 3 or tokens[0].type != "TICK":
        return None
    specs: list[Ticks] = []
    i, count = 0, len(tokens)
    while i < count:
        start = i
        if tokens[i].type == "TICK":
            i += 1
        if i >= count or tokens[i].type != "INT":
            return None
        first = last = tokens[i]
        i += 1
        if i + 1 < count and tokens[i].type == "DASH":
            j = i + 2 if tokens[i + 1].type == "TICK" else i + 1
            if j >= count or tokens[j].type != "INT":
                return None
            last, i = tokens[j], j + 1
        if specs and tokens[start].type != "TICK":
            # only a comma, "и" or "and" between ticks: «т1, 3: 104-2» is
            # player 3's line (a colon after a number marks a shirt number)
            between = text[specs[-1].end : tokens[start].start].strip().casefold()
            if between not in _TICK_LIST_MARKS:
                return None
        specs.append(Ticks(int(first.value), int(last.value), tokens[start].start, last.end))
    return TickHeader(tuple(specs)) if len(specs) > 1 else None


@lru_cache(maxsize=256)
def _terminals(expected: frozenset[str]) -> tuple[str, ...]:
    return tuple(sorted(t for t in expected if not t.startswith("$")))


def _issue(failure: Failure, tokens: list[Word], text: str, order_text: str) -> SyntaxIssue:
    expected = _terminals(failure.expected)
    if failure.index >= len(tokens):  # the line ended too early
        end = len(order_text.rstrip())
        return SyntaxIssue("syntax_end", end, end, (("expected", expected),))
    w = tokens[failure.index]
    if w.type in ("HEIGHT", "H") and not any(
        t.type in ("INT", *_ACTIONS) for t in tokens[1 : failure.index]
    ):
        # "Иванов: в2": a height, and no cell before it (the caret from the
        # colon on: "Иванов: восемьдесят девять в2" has its cell in words)
        colon = order_text.rfind(":", 0, w.start)
        after = [t for t in tokens[: failure.index] if colon >= 0 and t.start > colon]
        return SyntaxIssue("no_flight", after[0].start if after else w.start, w.end, ())
    if w.type in _ACTIONS:
        first = next((t for t in tokens[: failure.index] if t.type in _ACTIONS), None)
        if first is not None:  # "ловить, отнять Соколова": a second action
            before = tokens[: failure.index]
            subject = next((t for t in before if t.type == "WORD"), None) or next(
                (t for i, t in enumerate(before) if t.type == "INT" and i == 0), None
            )
            name = text[subject.start : subject.end] if subject is not None else ""
            params = (("a", text[first.start : first.end]), ("b", text[w.start : w.end]))
            return SyntaxIssue("one_action", w.start, w.end, (*params, ("name", name)))
    return SyntaxIssue(
        "syntax_token",
        w.start,
        w.end,
        (("got", text[w.start : w.end]), ("expected", expected), ("word", w.value)),
    )
