"""docs/orders.md and the /help text never drift from the parser."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from orderlang_states import RULESET, opening

from bot.orderlang import help_text, parse_message
from bot.orderlang.help import render_vocabulary

DOC = Path(__file__).parents[2] / "docs" / "orders.md"
_FENCE = re.compile(r"^```(orders[-a-z]*)\n(.*?)^```", re.MULTILINE | re.DOTALL)


def _blocks() -> list[tuple[str, str]]:
    return _FENCE.findall(DOC.read_text(encoding="utf-8"))


def test_doc_has_examples_of_every_kind() -> None:
    kinds = {kind for kind, _ in _blocks()}
    assert kinds == {"orders", "orders-en", "orders-gm", "orders-error", "orders-en-error"}
    assert len(_blocks()) >= 12


@pytest.mark.parametrize("kind,text", _blocks())
def test_doc_example(kind: str, text: str) -> None:
    result = parse_message(
        text,
        state=opening(),
        ruleset=RULESET,
        side=None if kind == "orders-gm" else "left",
        lang="en" if "-en" in kind else "ru",
        check_legality=False,  # examples show the language, not one position's legality
    )
    if kind.endswith("-error"):
        # every line of an error sample is wrong, and each is reported
        assert sorted({e.line for e in result.errors}) == list(
            range(1, len(text.strip().splitlines()) + 1)
        )
    else:
        assert result.errors == ()
        assert result.orders.players or result.orders.dragons or result.clears


def test_doc_error_sample_is_what_the_parser_says() -> None:
    text = DOC.read_text(encoding="utf-8")
    errors = next(t for k, t in _blocks() if k == "orders-error")
    result = parse_message(errors, state=opening(), ruleset=RULESET, side="left")
    assert result.errors[0].render() in text


def test_doc_vocabulary_is_generated_from_the_lexicon() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert render_vocabulary(text) == text, (
        "regenerate: see bot/orderlang/help.py render_vocabulary"
    )


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_help_examples_parse(lang: str) -> None:
    example = help_text(lang).split("\n\n")[1].split("\n\n•")[0]
    example = example[: example.index("•")] if "•" in example else example
    result = parse_message(
        example,
        state=opening(),
        ruleset=RULESET,
        side="left",
        lang=lang,
        check_legality=False,
    )
    assert result.errors == ()
    assert len(result.orders.players) >= 4


def test_help_states_the_merge_rule_in_both_languages() -> None:
    assert help_text("de") == help_text("ru") != help_text("en")
    assert "заменяет прежний" in help_text("ru") and "20 КБ" in help_text("ru")
    assert "replaces the earlier one" in help_text("en") and "20 KB" in help_text("en")
