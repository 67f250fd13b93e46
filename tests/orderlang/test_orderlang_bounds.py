"""Bounded work per message: the limits that keep any message cheap, and the
fast paths that must give what the slow ones gave.

How long a message takes is measured by benchmarks/parse_worst.py and
parse_bench.py, never asserted here.
"""

from __future__ import annotations

import difflib
import random
from functools import cache
from importlib import resources

from hypothesis import given, settings
from hypothesis import strategies as st
from lark import Lark, Token
from lark.exceptions import UnexpectedToken
from orderlang_states import RULESET, midgame

from bot.orderlang import MAX_ORDER_LINES, parse_message
from bot.orderlang.driver import Failure, run
from bot.orderlang.lexicon import KEYWORD_TYPES, KEYWORDS
from bot.orderlang.resolve import SUGGESTED_ERRORS
from bot.orderlang.spelling import NearMisses
from bot.orderlang.syntax import MAX_LINE_TOKENS, _TokenLexer, parser
from bot.orderlang.tokens import Word, tokenize


def _read(text: str, side: str | None = "left") -> object:
    return parse_message(text, state=midgame(), ruleset=RULESET, side=side)  # type: ignore[arg-type]


def test_a_line_of_too_many_words_is_refused_and_says_where_the_excess_starts() -> None:
    long = "Иванов: 89 в2 " + " ".join(["ловить"] * MAX_LINE_TOKENS)
    r = parse_message(long + "\nПетров: 91 в2", state=midgame(), ruleset=RULESET, side="left")
    assert [(e.line, e.code) for e in r.errors] == [(1, "line_too_long")]
    e = r.errors[0]
    assert e.text[e.start :].startswith("ловить") and e.end == len(long)
    assert len(r.orders.players) == 1  # the other line still counts
    # words after // are a description, not counted
    desc = "Иванов: 89 в2 // " + "очень " * 100
    assert parse_message(desc, state=midgame(), ruleset=RULESET, side="left").ok


def test_more_order_lines_than_the_limit_refuse_the_message_whole() -> None:
    lines = ["Иванов: 89 в2"] * (MAX_ORDER_LINES + 1)
    r = parse_message("\n".join(lines), state=midgame(), ruleset=RULESET, side="left")
    assert [(e.kind, e.code) for e in r.errors] == [("too_large", "too_many_lines")]
    assert r.orders.players == () and r.clears == ()
    assert str(MAX_ORDER_LINES) in r.errors[0].message


def test_blank_comment_and_description_lines_do_not_count_against_the_limit() -> None:
    filler = ["", "# план", "-- ещё", "// и описание", "   "] * MAX_ORDER_LINES
    text = "Иванов: 89 в2\n" + "\n".join(filler) + "\nПетров: 91 в2"
    r = parse_message(text, state=midgame(), ruleset=RULESET, side="left")
    assert r.ok and len(r.orders.players) == 2


def test_only_the_first_errors_look_for_did_you_mean() -> None:
    text = "\n".join(["Кузнецв: 169 в2", "Попов: 86 в2, ловть"] * SUGGESTED_ERRORS)
    r = parse_message(text, state=midgame(), ruleset=RULESET, side="left")
    assert len(r.errors) == 2 * SUGGESTED_ERRORS
    assert all(e.suggestions for e in r.errors[:SUGGESTED_ERRORS])
    assert not any(e.suggestions for e in r.errors[SUGGESTED_ERRORS:])
    # the later errors still say what is wrong
    assert {e.code for e in r.errors[SUGGESTED_ERRORS:]} == {"unknown_player", "syntax_token"}


def test_a_clear_repeated_is_kept_once() -> None:
    r = parse_message("отменить всё\n" * 50, state=midgame(), ruleset=RULESET, side="left")
    assert len(r.clears) == 1


# -- the table driver gives what lark gives ------------------------------------------


@cache
def _tree_parser() -> Lark:
    """The same grammar without our transformer: lark builds plain trees."""
    grammar = resources.files("bot.orderlang").joinpath("grammar.lark").read_text("utf-8")
    return Lark(grammar, parser="lalr", lexer=_TokenLexer)


def _both(tokens: list[Word]) -> tuple[object, object]:
    """(our driver's result, lark's own parse) on the tree-building parser."""
    words = [Token(w.type, w.value, start_pos=w.start, end_pos=w.end) for w in tokens]
    ours = run(_tree_parser(), words)
    try:
        theirs: object = _tree_parser().parse(words)  # type: ignore[arg-type]
    except UnexpectedToken as exc:
        index = next((i for i, w in enumerate(words) if w is exc.token), len(words))
        theirs = Failure(index, frozenset(exc.expected))
    return ours, theirs


_KINDS = sorted({*KEYWORD_TYPES.values(), "WORD", "INT", "ARROW", "DASH", "SLASH", "HEIGHT"})
_SAMPLE = {"WORD": "иванов", "INT": "2", "HEIGHT": "2"}


@settings(max_examples=400, deadline=None)
@given(kinds=st.lists(st.sampled_from(_KINDS), max_size=12))
def test_driver_gives_what_lark_parse_gives(kinds: list[str]) -> None:
    tokens = [Word(k, _SAMPLE.get(k, k.lower()), 3 * i, 3 * i + 2) for i, k in enumerate(kinds)]
    ours, theirs = _both(tokens)
    if isinstance(theirs, Failure):
        assert isinstance(ours, Failure)
        assert ours.index == theirs.index
        assert {e for e in ours.expected if not e.startswith("$")} == {
            e for e in theirs.expected if not e.startswith("$")
        }
    else:
        assert ours == theirs


def test_driver_reads_every_real_line_as_lark_does() -> None:
    lines = [
        "Иванов: 37 в2, пас красный -> 40 в2 гуллис-дуллис",
        "т1-3 Попов: на месте, ловить",
        "Дракон (все такты): стоять",
        "замена Попов -> Зайцев",
        "sub Zaitsev for Popov",
        "Иванов т2: отмена",
        "отменить всё",
        "Команда Виверны",
        "штраф т3",
        "Раунд 2 такт 1",
        "Иванов: 37",
        "Петров: 70 в2 ловить ловить",
    ]
    for line in lines:
        ours, theirs = _both(tokenize(line))
        assert ours == theirs, line
        failed = isinstance(run(parser(), tokenize(line)), Failure)
        assert failed == (line == "Петров: 70 в2 ловить ловить"), line


# -- near misses are difflib's answers, found without difflib's scan -----------------


def test_near_misses_agree_with_difflib_one_edit_away() -> None:
    vocabulary = [w for w in KEYWORD_TYPES if len(w) >= 3]
    near = NearMisses(vocabulary)
    rng = random.Random(7)
    letters = "абвгдеклмнопрст" + "abcdefklmnoprst"
    checked = 0
    for word in vocabulary:
        i = rng.randrange(len(word))
        variants = {
            word[:i] + word[i + 1 :],
            word[:i] + rng.choice(letters) + word[i + 1 :],
            word[:i] + rng.choice(letters) + word[i:],
        }
        if i + 1 < len(word):
            variants.add(word[:i] + word[i + 1] + word[i] + word[i + 2 :])
        for v in variants:
            ours = near.close(v)
            best = difflib.get_close_matches(v, vocabulary, n=1, cutoff=0.8)
            every = set(difflib.get_close_matches(v, vocabulary, n=len(vocabulary), cutoff=0.8))
            assert set(ours) <= every, v  # never a suggestion difflib would not make
            if best and best[0] == word:
                assert ours, v  # and the keyword one edit away is found
                checked += 1
    assert checked > len(KEYWORDS)


def test_near_misses_of_a_huge_word_are_none() -> None:
    assert NearMisses(["ловить"]).close("л" * 10_000) == ()
