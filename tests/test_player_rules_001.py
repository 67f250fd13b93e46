"""The players' rule book of the second edition (docs/rules-001-ru.md,
rules-001-en.md): every order example is taken by ``dragonball check-orders``
against a variant-001 position (the book's example position, drawn in its
picture), the examples show every kind of order the edition has, and the
book's numbers are the ruleset's.  Links, pictures and the shipped copy are
checked with the classic book (tests/test_player_rules.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import ModuleType

import pytest
from click.testing import CliRunner
from support.docs_scripts import load_docs_script

from bot.cli import cli
from engine.ruleset import load_ruleset

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
BOOKS = {"rules-001-ru.md": "ru", "rules-001-en.md": "en"}


def _pictures() -> ModuleType:
    """docs/images/rules_001_pictures.py: where the example position is made."""
    return load_docs_script("rules_001_pictures")


def _blocks(name: str) -> list[str]:
    return re.findall(r"```orders\n(.*?)```", (DOCS / name).read_text(encoding="utf-8"), re.S)


def _check(block: str, state: Path, team: str, lang: str) -> tuple[int, str]:
    args = ["check-orders", "-", "--state", str(state), "--team", team, "--lang", lang]
    result = CliRunner().invoke(cli, args, input=block)
    return result.exit_code, result.output


@pytest.mark.parametrize("name", BOOKS)
def test_every_order_example_is_taken_by_check_orders(name: str, tmp_path: Path) -> None:
    lang = BOOKS[name]
    position = _pictures().example_position(lang)
    assert position.ruleset == "variant-001"
    state = tmp_path / "state.json"
    state.write_text(json.dumps(position.to_json(), ensure_ascii=False), encoding="utf-8")
    blocks = _blocks(name)
    assert len(blocks) >= 5
    for block in blocks:
        # A block is one team's message: it is taken whole for one of the teams.
        results = [_check(block, state, team, lang) for team in ("left", "right")]
        assert any(code == 0 for code, _ in results), (block, results)


@pytest.mark.parametrize("name", BOOKS)
def test_the_examples_show_every_kind_of_order(name: str) -> None:
    text = "\n".join(_blocks(name)).lower()
    rules = load_ruleset("variant-001")
    words = {
        "ru": ("пас", "ловить", "отнять", "чебурыхнус-парашутис", "струя", "вал", "хвост",
               "крылья", "направо", "налево", "вперёд", "на месте"),
        "en": ("pass", "catch", "steal", "safety", "jet", "wall", "tail", "wings", "right",
               "left", "forward", "stay"),
    }[BOOKS[name]]  # fmt: skip
    for word in words:
        assert word in text, word
    spells = [(s.spell_ru, s.counter_ru) if BOOKS[name] == "ru" else (s.spell, s.counter)
              for s in rules.spells]  # fmt: skip
    assert any(spell in text for spell, _ in spells) and any(c in text for _, c in spells)


@pytest.mark.parametrize("name", BOOKS)
def test_the_book_gives_the_ruleset_s_numbers(name: str) -> None:
    text = (DOCS / name).read_text(encoding="utf-8")
    rules = load_ruleset("variant-001")
    field = rules.field
    assert f"{field.rows} × {field.columns}" in text
    assert str(field.cell_count) in text
    for ball in rules.ball_order:
        assert f"| {rules.balls[ball].value} |" in text, ball
    # Every interpretation is named by its setting in the ruleset file.
    for key in (
        "variant.turn_ticks",
        "variant.goal_probability",
        "variant.pass_catch_reach",
        "variant.throw_max_distance",
        "variant.fall_ticks",
        "variant.race_steal_first",
    ):
        assert f"`{key}" in text, key  # fmt: skip
    assert "rules.md#001--" in text
