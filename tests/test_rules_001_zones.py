"""The pages of the second edition's lost pictures (docs/rules-001-zones-*.md):
the zones drawn are the ones the engine plays, the pages list those cells,
their links and pictures exist, and their example is a case of the book."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from support.docs_scripts import load_docs_script

from engine.ruleset import load_ruleset

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = ("rules-001-zones-ru.md", "rules-001-zones-en.md")
EXAMPLE = ROOT / "cases" / "variant-001" / "s04" / "the-wings-reach-beside-the-head-not-ahead.toml"
# What the pages say, cell by cell (the dragon: tail 108, head 110, facing east).
ZONES = {
    "strike": {"tail": [90, 91, 107, 124, 125], "wings": [92, 93, 126, 127]},
    "jet": {"fire": [92, 93, 94, 111, 126, 127, 128]},
    "wall": {"fire": [94, 95, 111, 112, 128, 129]},
    "turn": {"sweep": [75, 76, 92, 93, 109, 110]},
}


def test_the_pictures_draw_the_zones_the_engine_plays() -> None:
    assert load_docs_script("rules_001_zones").zones(load_ruleset("variant-001")) == ZONES


@pytest.mark.parametrize("name", PAGES)
def test_each_page_names_the_cells_links_and_pictures(name: str) -> None:
    text = (DOCS / name).read_text(encoding="utf-8")
    numbers = {int(n) for n in re.findall(r"\b(\d{2,3})\b", text)}
    for parts in ZONES.values():
        for cells in parts.values():
            assert set(cells) <= numbers, (name, cells)
    for link in re.findall(r"\]\(([^)\s]+)\)", text):
        assert (DOCS / link.partition("#")[0]).is_file(), link
    pictures = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text)
    assert len(pictures) == 4
    for picture in pictures:
        assert (DOCS / picture).stat().st_size > 10_000, picture


@pytest.mark.parametrize("name", PAGES)
def test_the_example_of_each_page_is_a_case_of_the_book(name: str) -> None:
    text = (DOCS / name).read_text(encoding="utf-8")
    (block,) = re.findall(r"```toml\n(.*?)```", text, re.S)
    assert block == EXAMPLE.read_text(encoding="utf-8")
