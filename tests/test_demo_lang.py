"""The demo speaks one language from its first line to its last: the English
demo has no Cyrillic anywhere (what it prints, the reports, the summary, the
transcript, the folder's README and every string drawn on a picture), and the
Russian one no English word that is not a name, a command or a file."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from PIL import ImageDraw

from bot.cli import cli
from bot.demo import cast
from bot.render import field
from engine.bots.common import PHRASES

ROUNDS = 6  # seed 2026: a goal, falls, fire and the hospital wing by then
CYRILLIC = re.compile(r"[А-Яа-яЁё]")


class Played:
    def __init__(self, output: str, folder: Path, drawn: list[str]) -> None:
        self.output, self.folder, self.drawn = output, folder, drawn

    def texts(self) -> Iterator[tuple[str, str]]:
        """(where, text) of everything the demo wrote for people to read."""
        yield "output", self.output
        for path in sorted(self.folder.rglob("*.txt")):
            yield str(path.relative_to(self.folder)), path.read_text(encoding="utf-8")
        for text in self.drawn:
            yield "picture", text


def _play(tmp: Path, lang: str, monkeypatch: pytest.MonkeyPatch) -> Played:
    """A demo through the command line, recording every string Pillow draws."""
    drawn: list[str] = []
    real = ImageDraw.ImageDraw.text

    def spy(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> None:
        drawn.append(str(text))
        real(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", spy)
    # The field and its legend are drawn once per process and language: draw them anew.
    for cached in (field._background, field._scene):
        cached.cache_clear()
    out = tmp / lang
    args = ["demo", "--out", str(out), "--rounds", str(ROUNDS), "--lang", lang]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    return Played(result.output, out, drawn)


@pytest.fixture(scope="module")
def english(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Played]:
    with pytest.MonkeyPatch.context() as mp:
        yield _play(tmp_path_factory.mktemp("demo"), "en", mp)


@pytest.fixture(scope="module")
def russian(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Played]:
    with pytest.MonkeyPatch.context() as mp:
        yield _play(tmp_path_factory.mktemp("demo"), "ru", mp)


def test_the_english_demo_has_no_cyrillic_anywhere(english: Played) -> None:
    assert english.drawn, "no picture was drawn"
    for where, text in english.texts():
        for line in text.splitlines():
            assert not CYRILLIC.search(line), f"{where}: {line}"


def test_the_english_demo_plays_english_teams_and_players(english: Played) -> None:
    transcript = (english.folder / "transcript.txt").read_text(encoding="utf-8")
    assert english.output.startswith("Demonstration match: Salamanders against Wyverns")
    assert "Adams: " in transcript and "Oakley: " in transcript
    assert "Welcome to game DB-1!" in transcript
    assert any(text.startswith("Salamanders") for text in english.drawn)
    assert "Legend" in english.drawn  # the field's legend is among the strings checked
    reports = "".join(p.read_text(encoding="utf-8") for p in english.folder.glob("reports/*.txt"))
    assert "the wyverns dragon" in reports.lower()


# Latin words a Russian text may show: names of things, the zone of the clock.
_NAMES = {"Telegram", "UTC", "Europe", "Moscow", "SQLite", "PNG", "GIF", "SHA", "DB"}
# Commands, options, files, addresses, hex digests, settings: not words of the text.
_CODE = re.compile(
    r"(?:^|\s)(?:/|--)[a-z][\w-]*"  # /help, --seed
    r"|\bdragonball\b[^\n]*|^\s*cd\s.*"  # a command line to type
    r"|\b\w[\w.:-]*/[\w./-]*"  # reports/, diagrams/round-01.gif, sqlite:///…
    r"|\b[\w-]+\.(?:txt|png|gif|db|md|eml)\b"  # summary.txt
    r"|@\w+"  # @dragonball_demo
    r"|\b[0-9a-f]{16,}\b|\b[A-Z0-9]{8,}\b"  # seeds, commitments, invitation codes
    r"|\b[0-9a-f]{4}(?:-[0-9a-f]{4})+\b"  # receipts: digests of order sheets
    r"|\b[A-Z][A-Z_]+=\S*"  # DRAGONBALL_DATABASE__URL=…
)
_WORD = re.compile(r"[A-Za-z][A-Za-z']+")


def test_the_russian_demo_has_no_english_words(russian: Played) -> None:
    for where, text in russian.texts():
        for line in text.splitlines():
            words = set(_WORD.findall(_CODE.sub(" ", line))) - _NAMES
            assert not words, f"{where}: {sorted(words)} in {line!r}"


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_nothing_drawn_on_a_picture_is_cut_off(lang: str, english: Played, russian: Played) -> None:
    played = english if lang == "en" else russian
    cut = [text for text in played.drawn if text.endswith("…")]
    assert not cut, cut


def test_every_bot_phrase_is_in_the_catalogs() -> None:
    """The demo replaces each phrase of the engine's bots by the catalog's."""
    for kind, phrases in PHRASES.items():
        for phrase in phrases:
            assert cast.describe_text(phrase, "ru") == phrase, (kind, phrase)
            english = cast.describe_text(phrase, "en")
            assert english and not CYRILLIC.search(english), (kind, phrase, english)
    assert cast.describe_text("своё описание", "en") == "своё описание"  # a person's own words


def test_the_rosters_are_long_enough_and_read_as_orders() -> None:
    for lang in ("ru", "en"):
        for side in ("left", "right"):
            names = cast.roster(side, lang)
            assert len(names) == 14 and len(set(names)) == 14, (lang, side)
