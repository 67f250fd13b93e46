"""Texts people read, in their own language, from gettext catalogs.

``t(key, lang, **params)`` is the text ``key`` of the catalog of ``lang``
(``bot/locale/<lang>/LC_MESSAGES/messages.po``) with ``{params}`` filled in;
a parameter may be a callable of the language (a deadline printed the local
way), so one announcement can be rendered for readers of either language.
``tn(key, n, lang, **params)`` picks the plural form of ``n`` by the
catalog's plural rules (Russian has three).  ``N_(key)`` marks a key that is
looked up later (tables of codes) so that extraction finds it.

How to add a text: docs/i18n.md.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable
from datetime import datetime, time
from zoneinfo import ZoneInfo

from babel.dates import format_date, format_time

from .catalogs import LANGS, catalog, translations

__all__ = [
    "DEFAULT_LANG",
    "LANGS",
    "N_",
    "MissingText",
    "format_clock",
    "format_deadline",
    "keys",
    "lang_of",
    "lang_or_default",
    "t",
    "template",
    "tn",
]

DEFAULT_LANG = LANGS[0]


class MissingText(UserWarning):
    """A key absent from the catalogs, or a placeholder left without a value."""


def N_(key: str) -> str:
    """Mark ``key`` for extraction; it is translated where it is used."""
    return key


def lang_of(lang: str | None) -> str:
    """``en`` for any English (``en``, ``en-GB``), Russian for anything else."""
    return "en" if lang and lang.lower().startswith("en") else DEFAULT_LANG


def lang_or_default(lang: str | None, default: str = DEFAULT_LANG) -> str:
    """``lang`` if the judge speaks it, else ``default``."""
    return lang if lang in LANGS else default


class _Params(dict[str, object]):
    def __init__(self, key: str, values: dict[str, object]) -> None:
        super().__init__(values)
        self.key = key

    def __missing__(self, name: str) -> str:
        warnings.warn(f"text {self.key!r}: no value for {{{name}}}", MissingText, stacklevel=4)
        return "{" + name + "}"


def _fill(key: str, template: str, lang: str, params: dict[str, object]) -> str:
    if template == key:
        warnings.warn(f"no text {key!r} in the {lang} catalog", MissingText, stacklevel=3)
        return key
    values = {k: v(lang) if callable(v) else v for k, v in params.items()}
    return template.format_map(_Params(key, values))


def template(key: str, lang: str | None) -> str:
    """The text ``key`` in ``lang`` unfilled, for a caller with its own way of
    filling placeholders (the order language's "?" for a missing value)."""
    lang = lang_of(lang)
    found = translations(lang).gettext(key)
    if found == key:
        warnings.warn(f"no text {key!r} in the {lang} catalog", MissingText, stacklevel=2)
    return found


def keys(prefix: str) -> tuple[str, ...]:
    """The keys of the texts that start with ``prefix`` (every catalog has the
    same keys: ``python -m bot.i18n check``)."""
    found = (m.id for m in catalog(DEFAULT_LANG) if isinstance(m.id, str) and m.id)
    return tuple(sorted(k for k in found if k.startswith(prefix)))


def t(key: str, lang: str | None, **params: object) -> str:
    """The text ``key`` in ``lang`` (Russian for anything unknown), filled in."""
    lang = lang_of(lang)
    return _fill(key, translations(lang).gettext(key), lang, params)


def tn(key: str, n: int, lang: str | None, **params: object) -> str:
    """The plural form of the text ``key`` for ``n`` (given as ``{n}`` too)."""
    lang = lang_of(lang)
    template = translations(lang).ngettext(key, key, n)
    return _fill(key, template, lang, {"n": n, **params})


def format_deadline(when: datetime, zone: str, lang: str | None) -> str:
    """A moment as its readers expect it: the local date and time the way
    their language writes them (Babel's medium date, short time), then the
    zone's name: «2 мар. 2026 г., 21:00 (Europe/Moscow)»,
    "Mar 2, 2026, 9:00 PM (Europe/Moscow)"."""
    lang = lang_of(lang)
    local = when.astimezone(ZoneInfo(zone))
    day = format_date(local, "medium", locale=lang)
    clock = format_time(local, "short", locale=lang)
    return f"{day}, {clock} ({zone})"


def format_clock(times: Iterable[time], lang: str | None) -> str:
    """Times of day in the reader's way («21:00», "9:00 PM"), comma-separated."""
    return ", ".join(format_time(t_, "short", locale=lang_of(lang)) for t_ in times)
