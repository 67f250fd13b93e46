"""The players' rule book (docs/rules-ru.md, docs/rules-en.md): its order
examples read without errors, its links into the referee's reading and its
pictures exist, the package ships it unchanged (``/rules`` sends it), and no
document a user reads points outside the repository."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.orderlang import parse_message
from engine.ruleset import load_ruleset
from engine.setup import new_match

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
BOOKS = ("rules-ru.md", "rules-en.md")
# The second edition's books (their examples: tests/test_player_rules_001.py).
ALL_BOOKS = (*BOOKS, "rules-001-ru.md", "rules-001-en.md")


def _anchor(heading: str) -> str:
    """The anchor a Markdown renderer gives a heading (GitHub's rule)."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    return {
        _anchor(line.lstrip("#"))
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.startswith("#")
    }


@pytest.mark.parametrize("name", ALL_BOOKS)
def test_links_and_pictures_of_the_rule_book_exist(name: str) -> None:
    text = (DOCS / name).read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)\s]+)\)", text)
    assert any(link.startswith("rules.md#") for link in links)
    for link in links:
        target, _, anchor = link.partition("#")
        path = DOCS / target
        assert path.is_file(), link
        if anchor and path.suffix == ".md":
            assert anchor in _anchors(path), link
    for picture in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text):
        assert (DOCS / picture).stat().st_size > 10_000, picture


@pytest.mark.parametrize("name", BOOKS)
def test_the_order_examples_of_the_rule_book_read(name: str) -> None:
    ruleset = load_ruleset("classic")
    state, _ = new_match(ruleset, "docs")
    lang = "en" if name.endswith("-en.md") else "ru"
    blocks = re.findall(r"```orders\n(.*?)```", (DOCS / name).read_text(encoding="utf-8"), re.S)
    assert len(blocks) >= 3
    for block in blocks:
        for line in block.strip().splitlines():
            # A line is one player's or dragon's order: it reads for one of the teams.
            results = [
                parse_message(
                    line, state=state, ruleset=ruleset, side=side, lang=lang, check_legality=False
                )
                for side in ("left", "right")
            ]
            assert any(not r.errors for r in results), (line, [r.errors for r in results])


@pytest.mark.parametrize("name", ALL_BOOKS)
def test_the_package_ships_the_rule_book_unchanged(name: str) -> None:
    shipped = ROOT / "bot" / "rulebook" / name
    assert shipped.read_bytes() == (DOCS / name).read_bytes(), (
        f"copy docs/{name} to bot/rulebook/{name}"
    )


def test_no_document_points_outside_the_repository() -> None:
    readable = [ROOT / "README.md", ROOT / "config.example.toml", *DOCS.glob("*.md")]
    readable += [*(ROOT / "engine" / "rulesets").glob("*.toml")]
    for path in readable:
        text = path.read_text(encoding="utf-8")
        for bad in ("/work/", "shared/seeds", "shared/spec", "rules-notes.md"):
            assert bad not in text, (path.name, bad)
