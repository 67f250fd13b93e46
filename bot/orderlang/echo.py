"""The judge's own lines in a message: an answer pasted back.

Every answer to an order message is the team's whole sheet (bot/service/
acknowledge.py), so players copy it, edit its order lines and send it back.
Its other lines — the first line, the sheet's heading, the ✎ legend, who
still lacks an order, the receipt, an error block's head and reasons — are
the judge's, not the player's: the reader takes them as comments (not
errors, not order lines).  They are known by the templates they are
rendered from (the catalogs' texts, the printer's shapes), in either
language, each placeholder a wildcard; a line of who lacks orders counts
only under its heading and only with names of the team.  The caret lines of
an error block hold no words, so the reader skips them already.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from functools import cache, lru_cache
from string import Formatter
from typing import Final

from bot.i18n import LANGS, keys, template
from engine.geometry import SIDES, Side
from engine.state import MatchState

from .lexicon import clean_text
from .messages import MESSAGES
from .printer import ERRORS_HEAD, MISSING_LINE, missing_labels, word

__all__ = ["JudgeLines", "is_judge_line", "round_named"]

# The catalog texts an answer is made of: every key of this prefix (the
# answer's own sentences), then the notes and refusals it may carry.
_ANSWER_PREFIX: Final = "ack_"
_ANSWER_KEYS: Final = (
    "receipt",
    "late_filed",
    "penalty_gm_only",
    "not_yours",
    "order.other_round_answer",
    "order.quoted_lines",
)
# No judge's line is longer (the longest, a first line listing two hundred
# refused line numbers, is about 1,500 characters): a longer line is the
# writer's own.
_LONGEST: Final = 3000

# A template as a glob: its literal pieces, with anything between two of
# them (a placeholder).  ("Раунд ", ": ничего не принято", ".") — a lone
# piece is a line with no placeholder.  Matched piece by piece with
# str.find, so no line costs more than a scan per template (a regular
# expression of many wildcards can backtrack for ever on a crafted line).
_Glob = tuple[str, ...]
_WILD: Final[_Glob] = ("", "")


def _norm(text: str) -> str:
    """A line as compared: cleaned as the reader cleans it, whitespace runs as one space."""
    return " ".join(clean_text(text).split())


def _joined(a: _Glob, b: _Glob) -> _Glob:
    return (*a[:-1], a[-1] + b[0], *b[1:])


def _globs(text: str, fields: Mapping[str, Sequence[_Glob]] | None = None) -> list[_Glob]:
    """One line of a template as globs: each placeholder a wildcard, or any of
    the globs ``fields`` gives for it (a message inside "Такт {tick}: {message}")."""
    out: list[_Glob] = [("",)]
    for literal, field, _, _ in Formatter().parse(_norm(text)):
        out = [_joined(g, (literal,)) for g in out]
        if field is not None:
            alternatives = (fields or {}).get(field, (_WILD,))
            out = [_joined(g, alt) for g in out for alt in alternatives]
    # two placeholders side by side are one wildcard
    return [g if len(g) == 1 else (g[0], *(p for p in g[1:-1] if p), g[-1]) for g in out]


def _lines(key: str, lang: str) -> list[str]:
    return [line for line in template(key, lang).split("\n") if line.strip()]


def _of(names: Iterable[str], lang: str) -> list[_Glob]:
    return [g for key in names for line in _lines(key, lang) for g in _globs(line)]


def _reasons(lang: str) -> list[_Glob]:
    """Why a line was not taken: an error's message (a suggestion may follow
    it), or how many more errors there are."""
    core = _of(MESSAGES.values(), lang)
    suggest = _of(["order.suggest"], lang)
    suggested = [_joined(_joined(m, (" ",)), s) for m in core for s in suggest]
    return core + suggested + _of(["order.more_errors"], lang)


# The lines an answer holds, by their first and last characters ("": a
# placeholder there), so that a line is tried against a few of them only.
_Index = dict[tuple[str, str], tuple[_Glob, ...]]


@cache
def _index() -> _Index:
    globs: list[_Glob] = []
    for lang in LANGS:
        globs += _of([*keys(_ANSWER_PREFIX), *_ANSWER_KEYS], lang) + _reasons(lang)
        globs += _globs(ERRORS_HEAD, {"errors": [(word("errors", lang),)]})
        globs.append((_norm(word("none", lang)),))
    index: dict[tuple[str, str], list[_Glob]] = {}
    for g in dict.fromkeys(globs):
        index.setdefault((g[0][:1], g[-1][-1:]), []).append(g)
    return {k: tuple(v) for k, v in index.items()}


@cache
def _ticked() -> tuple[_Glob, ...]:
    """What may lead an error's message ("Такт 2: " before a tick's error): the
    part of order.tick_prefix before its message."""
    out = []
    for lang in LANGS:
        for line in _lines("order.tick_prefix", lang):
            head, mark, tail = _norm(line).partition("{message}")
            if mark and not tail:
                out += _globs(head)
    return tuple(out)


def _matches(glob: _Glob, line: str) -> bool:
    if len(glob) == 1:
        return line == glob[0]
    first, last = glob[0], glob[-1]
    if len(line) < len(first) + len(last) or not (line.startswith(first) and line.endswith(last)):
        return False
    at, end = len(first), len(line) - len(last)
    for piece in glob[1:-1]:  # the leftmost place of each piece is never worse
        found = line.find(piece, at, end)
        if found < 0:
            return False
        at = found + len(piece)
    return True


def _said(line: str) -> bool:
    index = _index()
    return any(
        _matches(g, line)
        for first in (line[:1], "")
        for last in (line[-1:], "")
        for g in index.get((first, last), ())
    )


def _after(glob: _Glob, line: str) -> str | None:
    """The rest of ``line`` after the leftmost start of it that ``glob`` matches
    (None: no start matches; leftmost is enough, as a tick number holds no colon)."""
    if not line.startswith(glob[0]):
        return None
    at = len(glob[0])
    for piece in glob[1:]:
        found = line.find(piece, at)
        if found < 0:
            return None
        at = found + len(piece)
    return line[at:].strip()


@lru_cache(maxsize=1024)
def is_judge_line(text: str) -> bool:
    """Whether the line ``text`` (as :func:`split_lines` gives it) is one the judge
    writes in its answers (but a line of who lacks orders: :class:`JudgeLines`
    tells those, under their heading)."""
    line = " ".join(text.split()) if len(text) <= _LONGEST else ""
    if not line:
        return False
    return _said(line) or any(
        rest and _said(rest) for g in _ticked() if (rest := _after(g, line)) is not None
    )


@cache
def _round_marks() -> tuple[re.Pattern[str], ...]:
    """Where the judge's lines name their round: the literal text on each side
    of ``{round}`` in an answer's templates ("на раунд {round}:")."""
    out: dict[str, re.Pattern[str]] = {}
    for lang in LANGS:
        for key in (*keys(_ANSWER_PREFIX), *_ANSWER_KEYS):
            for line in _lines(key, lang):
                parts = list(Formatter().parse(_norm(line)))
                for i, (_, field, _, _) in enumerate(parts):
                    if field != "round":
                        continue
                    before = parts[i][0]
                    after = parts[i + 1][0] if i + 1 < len(parts) else ""
                    if before.strip() or after.strip():
                        pattern = re.escape(before) + r"(\d{1,6})" + re.escape(after)
                        out.setdefault(pattern, re.compile(pattern))
    return tuple(out.values())


def round_named(text: str) -> int | None:
    """The round a judge's line (one :func:`is_judge_line` knows) names, if any:
    "Раунд 1: приказы приняты …", "Лист приказов команды «…» на раунд 1:"."""
    line = _norm(text)
    for mark in _round_marks():
        m = mark.search(line)
        if m is not None:
            return int(m.group(1))
    return None


@cache
def _missing_heads() -> frozenset[str]:
    return frozenset(_norm(word("missing", lang)) for lang in LANGS)


@cache
def _removed_heads() -> frozenset[str]:
    """The headings of what an answer took off the sheet (a clear, an edit):
    the order lines under them are what is no longer on file, not orders."""
    return frozenset(
        _norm(template(k, lang)) for k in ("ack_cleared", "ack_withdrawn") for lang in LANGS
    )


@lru_cache(maxsize=64)
def _missing_line(lang: str, prefixes: tuple[str, ...]) -> re.Pattern[str]:
    """A line of who lacks orders (MISSING_LINE): the names are checked apart."""
    out = []
    fields = {
        "prefix": "(?:" + "|".join(re.escape(p) for p in prefixes) + ")",
        "tick": re.escape(word("tick", lang).lower()),
        "number": r"\d+",
        "names": "(?P<names>.+)",
    }
    for literal, field, _, _ in Formatter().parse(MISSING_LINE):
        out.append(re.escape(literal))
        if field is not None:
            out.append(fields[field])
    return re.compile("".join(out))


class JudgeLines:
    """Tells, line by line, which lines of one message are the judge's (for
    a message of team ``side``, None: a game master's, both teams)."""

    def __init__(self, state: MatchState, side: Side | None) -> None:
        self._state = state
        self._sides: tuple[Side, ...] = SIDES if side is None else (side,)
        self._under_missing = False  # the line before was «Ещё нет приказа:» or under it
        # under «Отменены (сняты с листа):» or «Сообщение изменено — сняты…»:
        # those orders are off the sheet; pasted back they must not be filed again
        self._under_removed = False
        self._labels: frozenset[str] | None = None

    def ignores(self, text: str) -> bool:
        """Whether the (non-blank) line ``text`` (as :func:`split_lines` gives
        it) is the judge's."""
        line = " ".join(text.split())
        if self._under_missing and self._lacks_orders(line):
            return True
        if line in _removed_heads():
            self._under_removed, self._under_missing = True, False
            return True
        if self._under_removed and not is_judge_line(text):
            return True  # one of the orders taken off (the list ends at a blank line)
        self._under_removed = False
        self._under_missing = line in _missing_heads()
        return self._under_missing or is_judge_line(text)

    def gap(self) -> None:
        """A blank line: a list of who lacks orders, or of orders taken off, ends there."""
        self._under_missing = False
        self._under_removed = False

    def _lacks_orders(self, line: str) -> bool:
        """A line of who lacks orders ("такт 2: Петров, дракон (будет стоять)"),
        naming only the team's players (the team first in a game master's)."""
        prefixes = (
            tuple(_norm(self._state.team(s).name) + ", " for s in self._sides)
            if len(self._sides) > 1
            else ("",)
        )
        for lang in LANGS:
            m = _missing_line(lang, prefixes).fullmatch(line)
            if m is not None and set(m["names"].split(", ")) <= self._names():
                return True
        return False

    def _names(self) -> frozenset[str]:
        if self._labels is None:  # only once a pasted answer shows its list
            self._labels = frozenset().union(
                *(missing_labels(self._state, s, lang) for s in self._sides for lang in LANGS)
            )
        return self._labels
