"""The message catalogs: complete in both languages, in step with the code,
loaded from the installed package, with Russian plurals and local dates."""

from __future__ import annotations

import re
import subprocess
import sys
import warnings
import zipfile
from datetime import UTC, datetime, time
from pathlib import Path

import pytest

from bot.i18n import MissingText, format_clock, format_deadline, lang_of, t, template, tn
from bot.i18n.catalogs import LANGS, catalog, po_path
from bot.i18n.tool import check, extract, placeholders

ROOT = Path(__file__).resolve().parents[1]


def test_catalogs_are_in_step_with_the_code() -> None:
    """Every key the code uses has a text in both languages, no catalog keeps
    a key the code dropped, nothing is fuzzy, and both languages fill the same
    placeholders.  Fix with ``python -m bot.i18n update`` (docs/i18n.md)."""
    assert check() == []


def test_extraction_finds_the_keys_of_every_kind_of_call() -> None:
    used = extract()
    # t(...), tn(...), N_(...), ServiceError(...), Outcome(...), announce(..., key)
    for key in ("welcome", "report.points", "order.syntax_token", "not_gm", "raw", "match_end"):
        assert key in used, key
    assert used["report.points"].plural and not used["welcome"].plural


def test_no_english_text_has_russian_letters() -> None:
    cyrillic = set("абвгдеёжзийклмнопрстуфхцчшщъыьэюя")
    for message in catalog("en"):
        if not message.id:
            continue
        texts = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in texts:
            # Names of Russian spells are quoted as players write them (§9.2).
            letters = set(text.lower()) & cyrillic
            assert not letters or message.id in _EN_MAY_QUOTE_RUSSIAN, (message.id, text)


# English texts that show a Russian word on purpose (the order language's own words).
_EN_MAY_QUOTE_RUSSIAN = {"order.help"}


def test_russian_plurals_have_three_forms() -> None:
    assert catalog("ru").num_plurals == 3 and catalog("en").num_plurals == 2
    assert [tn("report.points", n, "ru") for n in (1, 2, 5, 11, 21, 22, 25)] == [
        "+1 очко",
        "+2 очка",
        "+5 очков",
        "+11 очков",
        "+21 очко",
        "+22 очка",
        "+25 очков",
    ]
    assert [tn("report.points", n, "en") for n in (1, 2)] == ["+1 point", "+2 points"]


def test_a_missing_text_or_value_is_a_warning_not_a_crash() -> None:
    with pytest.warns(MissingText, match="no_such_key"):
        assert t("no_such_key", "en") == "no_such_key"
    with pytest.warns(MissingText, match="no value for {game}"):
        assert t("game_selected", "en") == "Current game: {game}."
    with pytest.warns(MissingText):
        template("no_such_key", "ru")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert t("game_selected", "en", game="DB-3") == "Current game: DB-3."
        # A parameter may be a callable of the language.
        assert t("game_selected", "ru", game=lambda lang: lang.upper()) == "Текущая игра: RU."


def test_the_reader_language_decides_and_anything_unknown_is_russian() -> None:
    assert lang_of("en-GB") == "en" and lang_of("EN") == "en"
    assert lang_of("de") == lang_of(None) == lang_of("") == "ru"
    assert t("not_gm", "de") == t("not_gm", "ru") != t("not_gm", "en")


def test_dates_and_times_are_written_the_readers_way() -> None:
    when = datetime(2026, 3, 2, 18, 0, tzinfo=UTC)
    assert (
        format_deadline(when, "Europe/Moscow", "ru") == "2 мар. 2026\u202fг., 21:00 (Europe/Moscow)"
    )
    assert (
        format_deadline(when, "Europe/Moscow", "en") == "Mar 2, 2026, 9:00\u202fPM (Europe/Moscow)"
    )
    assert format_deadline(when, "America/New_York", "en").startswith("Mar 2, 2026, 1:00")
    assert format_clock([time(9, 30), time(21, 0)], "ru") == "09:30, 21:00"
    assert format_clock([time(21, 0)], "en") == "9:00\u202fPM"


def test_placeholders_are_read_as_format_fields() -> None:
    assert placeholders("{a} and {b.c} {d[0]} {e:>3} {{not}}") == {"a", "b", "d", "e"}


def test_a_wheel_carries_the_catalogs_and_reads_them_installed(tmp_path: Path) -> None:
    """Built as a wheel and installed elsewhere, the package speaks both
    languages from its own .po files (no compiled file, no source tree)."""
    built, site = tmp_path / "wheel", tmp_path / "site"
    pip = [sys.executable, "-m", "pip", "-q", "--disable-pip-version-check"]
    subprocess.run([*pip, "wheel", "--no-deps", "-w", str(built), str(ROOT)], check=True)
    (wheel,) = built.glob("dragonball_judge-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    for lang in LANGS:
        assert f"bot/locale/{lang}/LC_MESSAGES/messages.po" in names
    assert not any(n.endswith((".mo", ".pot")) for n in names)
    subprocess.run([*pip, "install", "--no-deps", "--target", str(site), str(wheel)], check=True)
    probe = (
        "import bot, bot.i18n as i; print(bot.__file__); "
        "print(i.t('not_gm', 'en')); print(i.tn('report.points', 5, 'ru'))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe],
        check=True,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"},
        cwd=tmp_path,
    ).stdout.splitlines()
    assert out[0].startswith(str(site))
    assert out[1:] == ["Only a game master can do that.", "+5 очков"]


def test_the_installed_package_finds_its_catalogs() -> None:
    for lang in LANGS:
        path = po_path(lang)
        assert path.is_file(), path


def test_no_catalog_has_a_key_twice() -> None:
    """A key written twice (``check`` does not see it: the catalog keeps the
    last) — a slip of hand-editing, once the whole file pasted in again."""
    for lang in LANGS:
        keys = re.findall(r'^msgid "(.+)"$', po_path(lang).read_text(encoding="utf-8"), re.M)
        twice = sorted({k for k in keys if keys.count(k) > 1})
        assert twice == [], (lang, twice[:10])
