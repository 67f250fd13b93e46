"""Where the message catalogs live and how they are loaded.

The ``.po`` files under ``bot/locale/<lang>/LC_MESSAGES/`` are the only form
the catalogs take, in the repository, in an editable install and in a wheel
(package data).  At first use each one is compiled in memory with Babel's own
compiler (what ``pybabel compile`` writes to a ``.mo`` file), so there is no
build step and no compiled file that could lag behind its ``.po``.
"""

from __future__ import annotations

import io
from functools import cache
from importlib import resources

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

__all__ = ["DOMAIN", "LANGS", "catalog", "po_path", "translations"]

LANGS = ("ru", "en")
DOMAIN = "messages"


def po_path(lang: str) -> resources.abc.Traversable:
    """The ``.po`` file of ``lang`` inside the installed package."""
    return resources.files("bot").joinpath("locale", lang, "LC_MESSAGES", f"{DOMAIN}.po")


def catalog(lang: str) -> Catalog:
    """The catalog of ``lang`` as Babel reads it (fresh on every call)."""
    with po_path(lang).open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


@cache
def translations(lang: str) -> Translations:
    """The compiled catalog of ``lang``; English falls back to Russian."""
    buffer = io.BytesIO()
    write_mo(buffer, catalog(lang))
    buffer.seek(0)
    compiled = Translations(buffer, domain=DOMAIN)
    if lang != LANGS[0]:
        compiled.add_fallback(translations(LANGS[0]))
    return compiled
