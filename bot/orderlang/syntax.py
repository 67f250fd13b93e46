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
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Final, Literal

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedInput, UnexpectedToken
from lark.lexer import Lexer, LexerState

from .lexicon import clean_text, keyword_type, norm_word

__all__ = [
    "CatchAct",
    "ClearLine",
    "DragonLine",
    "Flight",
    "Line",
    "Node",
    "PassAct",
    "PenaltyLine",
    "PlayerLine",
    "Ref",
    "RoundHeader",
    "StealAct",
    "SubstLine",
    "SyntaxIssue",
    "TeamHeader",
    "TickHeader",
    "Ticks",
    "Word",
    "parse_line",
    "split_lines",
    "tokenize",
]

MAX_DIGITS: Final = 6  # longer numbers are no cell, height, tick or round


class Word(Token):
    """A token: its type (a keyword type, WORD, INT…), normalised value and span.

    A lark token itself, so the parser takes the tokens as they are made.
    """

    __slots__ = ()

    @classmethod
    def make(cls, kind: str, value: str, start: int, end: int) -> Word:
        # the classmethod behind Token(): skips its keyword checks, a third of the cost
        word: Word = cls._future_new(kind, value, start, None, None, None, None, end)  # type: ignore[no-untyped-call]
        return word

    @property
    def kind(self) -> str:
        return self.type

    @property
    def start(self) -> int:
        return self.start_pos or 0

    @property
    def end(self) -> int:
        return self.end_pos or 0


@dataclass(frozen=True, slots=True)
class _Height:
    value: int
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Ticks:
    first: int | None  # None: all ticks still to play
    last: int | None
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Ref:
    """A player named by words (surname, full name) or by shirt number."""

    words: tuple[str, ...]
    number: int | None
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Flight:
    cell: int
    height: int | None
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class PassAct:
    words: tuple[Word, ...]  # ball, spell and SPELL markers, before and after the target
    target: Flight
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class CatchAct:
    words: tuple[Word, ...]  # ball, counter-spell and COUNTER markers
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class StealAct:
    target: Ref
    start: int
    end: int


Action = PassAct | CatchAct | StealAct


@dataclass(frozen=True, slots=True)
class RoundHeader:
    number: int
    ticks: tuple[Ticks, ...]
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class TickHeader:
    ticks: tuple[Ticks, ...]


@dataclass(frozen=True, slots=True)
class TeamHeader:
    words: tuple[Word, ...]
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class PlayerLine:
    ticks: tuple[Ticks, ...]
    subject: Ref
    flight: Flight | Word | None  # a STAY word: where he is
    action: Action | None
    clear: bool
    end: int


@dataclass(frozen=True, slots=True)
class DragonLine:
    ticks: tuple[Ticks, ...]
    items: tuple[Word, ...]
    clear: bool
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class SubstLine:
    out: Ref
    into: Ref


@dataclass(frozen=True, slots=True)
class ClearLine:
    ticks: tuple[Ticks, ...]
    what: Ref | Literal["dragon"] | None
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class PenaltyLine:
    ticks: tuple[Ticks, ...]
    start: int
    end: int


Node = (
    RoundHeader
    | TickHeader
    | TeamHeader
    | PlayerLine
    | DragonLine
    | SubstLine
    | ClearLine
    | PenaltyLine
)


@dataclass(frozen=True, slots=True)
class SyntaxIssue:
    """Why a line cannot be read: a message ``code``, the span and its params."""

    code: str
    start: int
    end: int
    params: tuple[tuple[str, Any], ...] = ()


@dataclass(frozen=True, slots=True)
class Line:
    """One source line: its number (1-based), text, and what was read from it."""

    number: int
    text: str
    node: Node | None  # None: blank, comment, or a syntax issue
    description: str
    issue: SyntaxIssue | None = None
    desc_only: bool = False  # a "// …" line: continues the description above


# -- lexer --------------------------------------------------------------------

_TOKEN: Final = re.compile(
    r"(?P<INT>\d+)(?:-?(?:ый|ой|ий|й|st|nd|rd|th)(?![^\W\d_]))?"
    r"|(?P<HEIGHT>[вbvh](?P<digit>\d)(?!\d))"  # "в2", "h2" glued: one token, not two
    r"|(?P<WORD>[^\W\d_]+(?:['’\-‐][^\W\d_]+)*)"
    r"|(?P<ARROW>[-–—=]+>|[→⟶⇒➡➔⇨]|>)"
    r"|(?P<DASH>[-–—−‐])"
    r"|(?P<SLASH>/)",
    re.IGNORECASE,
)
_COMMENT: Final = re.compile(r"(?:^|(?<=\s))(?:--|#)")


def tokenize(text: str) -> list[Word]:
    """Tokens of the order part of a line; unknown symbols and emoji are skipped."""
    out: list[Word] = []
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup
        assert kind is not None
        if kind == "INT":
            digits = m.group("INT")
            kind = "INT" if len(digits) <= MAX_DIGITS else "BADNUM"
            out.append(Word.make(kind, digits, m.start(), m.end()))
            continue
        if kind == "HEIGHT":
            out.append(Word.make(kind, m.group("digit"), m.start(), m.end()))
            continue
        if kind != "WORD":
            out.append(Word.make(kind, m.group(), m.start(), m.end()))
            continue
        word = norm_word(m.group())
        word_kind = keyword_type(word)
        if word_kind == "FILLER":
            continue
        if word_kind is None and "-" in word:
            parts = word.split("-")
            kinds = [keyword_type(p) for p in parts]
            if all(k is not None and k != "FILLER" for k in kinds):
                # "вперёд-вверх": two keywords glued by a hyphen
                pos = m.start()
                for part, part_kind in zip(parts, kinds, strict=True):
                    assert part_kind is not None
                    out.append(Word.make(part_kind, part, pos, pos + len(part)))
                    pos += len(part) + 1
                continue
        if word_kind == "STAY" and out and out[-1].kind == "TO":
            out[-1] = Word.make("STAY", word, out[-1].start, m.end())  # "на месте"
            continue
        out.append(Word.make(word_kind or "WORD", word, m.start(), m.end()))
    return out


class _TokenLexer(Lexer):
    """Feeds lark the tokens :func:`tokenize` already made."""

    __future_interface__ = 2

    def __init__(self, lexer_conf: Any) -> None:
        pass

    def lex(self, lexer_state: LexerState, parser_state: Any) -> Iterator[Token]:
        words: Sequence[Word] = lexer_state.text  # type: ignore[assignment]
        yield from words


# -- tree → nodes ---------------------------------------------------------------


def _words(items: Sequence[Any]) -> list[Word]:
    return [t for t in items if isinstance(t, Word)]


def _ref(items: Sequence[Any]) -> Ref:
    ws = _words(items)
    if len(ws) == 1 and ws[0].kind == "INT":
        return Ref((), int(ws[0].value), ws[0].start, ws[0].end)
    return Ref(tuple(w.value for w in ws), None, ws[0].start, ws[-1].end)


def _ticks(items: Sequence[Any]) -> tuple[Ticks, ...]:
    return tuple(i for i in items if isinstance(i, Ticks))


def _number(items: Sequence[Any]) -> Word:
    for w in _words(items):
        if w.kind == "INT":
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

    def subject(self, items: list[Any]) -> Ref:
        return _ref(items)

    def height(self, items: list[Any]) -> _Height:
        ws = _words(items)
        n = ws[0] if ws[0].kind == "HEIGHT" else _number(items)
        return _Height(int(n.value), ws[0].start, n.end)

    def flight(self, items: list[Any]) -> Flight:
        ws = _words(items)
        cell = _number(items)
        h = items[-1] if items and isinstance(items[-1], _Height) else None
        end = h.end if h else cell.end
        return Flight(int(cell.value), h.value if h else None, ws[0].start, end)

    def target(self, items: list[Any]) -> Flight:
        return self.flight(items)

    def pass_word(self, items: list[Any]) -> Word:
        w: Word = items[0]
        return w

    def pass_(self, items: list[Any]) -> PassAct:
        head: Word = items[0]
        words = tuple(i for i in items[1:] if isinstance(i, Word))
        target = next(i for i in items if isinstance(i, Flight))
        end = max([target.end] + [w.end for w in words])
        return PassAct(words, target, head.start, end)

    def catch(self, items: list[Any]) -> CatchAct:
        ws = _words(items)
        return CatchAct(tuple(ws[1:]), ws[0].start, ws[-1].end)

    def steal(self, items: list[Any]) -> StealAct:
        ws = _words(items)
        return StealAct(_ref(items[1:]), ws[0].start, ws[-1].end)

    def pbody(self, items: list[Any]) -> tuple[Flight | Word | None, Action | None, bool]:
        flight = next((i for i in items if isinstance(i, Flight)), None)
        stay = next((i for i in items if isinstance(i, Word) and i.kind == "STAY"), None)
        action = next((i for i in items if isinstance(i, PassAct | CatchAct | StealAct)), None)
        clear = any(isinstance(i, Word) and i.kind == "CLEAR" for i in items)
        return flight or stay, action, clear

    def player_line(self, items: list[Any]) -> PlayerLine:
        subject = next(i for i in items if isinstance(i, Ref))
        flight, action, clear = items[-1]
        ends = [subject.end] + [x.end for x in (flight, action) if x is not None]
        return PlayerLine(_ticks(items), subject, flight, action, clear, max(ends))

    def dbody(self, items: list[Any]) -> list[Word]:
        return _words(items)

    def dragon_line(self, items: list[Any]) -> DragonLine:
        body: list[Word] = items[-1]
        head = _words(items)[0] if _words(items) else body[0]
        clear = body[0].kind == "CLEAR"
        start = min(head.start, body[0].start)
        return DragonLine(_ticks(items), () if clear else tuple(body), clear, start, body[-1].end)

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
        if items and isinstance(items[-1], tuple):
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
def _parser() -> Lark:
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


def _cut(text: str) -> tuple[str, str | None]:
    """The order part of a line and its description (None: no ``//``)."""
    desc: str | None = None
    at = text.find("//")
    if at >= 0:
        desc = text[at + 2 :].strip()
        text = text[:at]
    m = _COMMENT.search(text)
    if m:
        text = text[: m.start()]
    return text, desc


def parse_line(number: int, text: str) -> Line:
    """Read one line (``number`` is 1-based, ``text`` already cleaned)."""
    order_text, desc = _cut(text)
    tokens = tokenize(order_text)
    if not tokens:
        return Line(number, text, None, desc or "", desc_only=desc is not None)
    bad = next((t for t in tokens if t.kind == "BADNUM"), None)
    if bad is not None:
        issue = SyntaxIssue(
            "syntax_number", bad.start, bad.end, (("got", text[bad.start : bad.end]),)
        )
        return Line(number, text, None, desc or "", issue)
    header = _header(tokens)
    if header is not None:
        return Line(number, text, header, desc or "")
    try:
        # lark's stubs say parse() takes text and returns a tree; with our lexer it
        # takes the token list, and the inline transformer returns our node.
        node: Node = _parser().parse(tokens)  # type: ignore[assignment]
    except UnexpectedToken as exc:
        return Line(number, text, None, desc or "", _issue(exc, text, order_text))
    except UnexpectedInput:  # pragma: no cover - the LALR parser raises UnexpectedToken only
        return Line(number, text, None, desc or "", SyntaxIssue("syntax", 0, len(order_text)))
    return Line(number, text, node, desc or "")


def _header(tokens: list[Word]) -> Node | None:
    """``Такт 2`` or ``Раунд 5`` read directly: a third of a typical message's
    lines, and the parser would give the same node (a test checks it)."""
    if len(tokens) != 2 or tokens[1].kind != "INT":
        return None
    head, n = tokens
    if head.kind == "TICK":
        return TickHeader((Ticks(int(n.value), int(n.value), head.start, n.end),))
    if head.kind == "ROUND":
        return RoundHeader(int(n.value), (), head.start, n.end)
    return None


def _issue(exc: UnexpectedToken, text: str, order_text: str) -> SyntaxIssue:
    expected = tuple(sorted(t for t in exc.expected if not t.startswith("$")))
    w = exc.token
    if not isinstance(w, Word):  # lark's "$END"
        end = len(order_text.rstrip())
        return SyntaxIssue("syntax_end", end, end, (("expected", expected),))
    return SyntaxIssue(
        "syntax_token",
        w.start,
        w.end,
        (("got", text[w.start : w.end]), ("expected", expected), ("word", w.value)),
    )
