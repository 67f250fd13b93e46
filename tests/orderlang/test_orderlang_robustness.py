"""Junk never breaks the reader: random text, token soup, deep brackets, huge lines.

Whatever comes in, ``parse_message`` answers with errors (never raises
anything but OrderLanguageError, and in practice nothing at all), keeps the
valid lines, and every error points inside its line.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from orderlang_states import RULESET, STATES, midgame

from bot.orderlang import (
    MAX_MESSAGE_BYTES,
    OrderLanguageError,
    ParseResult,
    format_errors,
    parse_message,
)
from bot.orderlang.lexicon import KEYWORD_TYPES

WORDS = sorted(KEYWORD_TYPES) + [
    "Иванов", "Петров", "Соколов", "Ivanov", "красный", "red", "гуллис-дуллис", "цап-царапс",
    "57", "2", "999", "0", "-", "->", "/", ":", ",", "//", "--", "#", "(", ")", "«", "»", "🐉",
    "\n", "\r\n", "\t", " ", "\u200b", "\u0301", "т2", "в3", "h1", "№",
]  # fmt: skip


def _read(text: str, side: Any = "left", lang: str = "ru") -> ParseResult | None:
    state = midgame()
    try:
        result = parse_message(text, state=state, ruleset=RULESET, side=side, lang=lang)
    except OrderLanguageError:  # the only exception allowed; reported, so it fails below
        raise
    n_lines = text.count("\n") + text.count("\r") + 1
    for e in result.errors:
        assert 0 <= e.line <= n_lines
        assert 0 <= e.start <= e.end <= len(e.text)
        assert e.message
        e.render()
    format_errors(result.errors, lang)
    return result


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.text(max_size=400), side=st.sampled_from(["left", "right", None]))
def test_random_unicode(text: str, side: Any) -> None:
    _read(text, side)


@settings(max_examples=300, deadline=None)
@given(
    words=st.lists(st.sampled_from(WORDS), max_size=60),
    seps=st.lists(st.sampled_from([" ", "", "\n", ", "]), min_size=60, max_size=60),
    lang=st.sampled_from(["ru", "en"]),
)
def test_token_soup(words: list[str], seps: list[str], lang: str) -> None:
    _read("".join(w + s for w, s in zip(words, seps, strict=False)), "left", lang)


@settings(max_examples=50, deadline=None)
@given(depth=st.integers(1, 3000), inner=st.sampled_from(["", "Иванов: 89 в2", "(", "«»"]))
def test_deep_brackets(depth: int, inner: str) -> None:
    text = "(" * depth + inner + ")" * depth + "\n" + "[{" * depth + "Петров: 91 в2" + "}]" * depth
    result = _read(text)
    assert result is not None


@settings(max_examples=20, deadline=None)
@given(char=st.sampled_from(["9", "а", "-", "/", " ", "🐉", "в2 ", "Иванов "]))
def test_huge_line(char: str) -> None:
    text = char * (MAX_MESSAGE_BYTES // len(char.encode()) - 8)
    result = _read("Иванов: 89 в2\n" + text)
    assert result is not None


def test_lone_surrogates_and_controls() -> None:
    result = _read("Иванов: 89 в2 \ud800\x00\x1b\nПетров: 91 в2\x7f\nШварц\udcff: 1 в1")
    assert result is not None and len(result.orders.players) == 2
    assert [e.line for e in result.errors] == [3]
    assert result.errors[0].text == "Шварц\ufffd: 1 в1"  # a reply can be encoded


def test_a_full_20_kb_message_is_read_whole() -> None:
    """A message at the size limit: every one of its lines is read (the time
    it takes is measured by benchmarks/parse_bench.py)."""
    lines = ["Такт 1", "Иванов: 89 в2, пас красный -> 91 в2 // бросок", "Петров: 91 в2"]
    filler = "-- " + "комментарий " * 8
    while len("\n".join(lines + [filler]).encode()) < MAX_MESSAGE_BYTES - 200:
        lines.append(filler)
    text = "\n".join(lines)
    assert MAX_MESSAGE_BYTES - 300 < len(text.encode()) <= MAX_MESSAGE_BYTES
    result = _read(text)
    assert result is not None and result.ok and len(result.orders.players) == 2


def test_over_the_limit_is_refused_whole() -> None:
    text = "Иванов: 89 в2\n" + "x" * MAX_MESSAGE_BYTES
    result = _read(text)
    assert result is not None
    assert [e.kind for e in result.errors] == ["too_large"]
    assert result.orders.players == ()
    assert "20480" in result.errors[0].message


def test_non_text_input_is_our_error() -> None:
    try:
        parse_message(b"bytes", state=STATES["midgame"](), ruleset=RULESET, side="left")  # type: ignore[arg-type]
    except OrderLanguageError as exc:
        assert "text" in str(exc)
    else:
        raise AssertionError("bytes were accepted as a message")
