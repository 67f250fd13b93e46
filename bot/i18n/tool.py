"""Keep the catalogs in step with the code: ``python -m bot.i18n update|check``.

``update`` is Babel's ``extract`` and ``update`` with the project's settings
(``[tool.babel.*]`` in pyproject.toml, the same that ``pybabel extract`` and
``pybabel update`` read): it adds every key the code uses to both ``.po``
files with an empty text, and drops keys the code no longer uses.  It keeps
the headers as they are and writes sorted, unwrapped entries without source
locations, so that parallel work merges cleanly.  ``check`` reports what is
out of step (a test runs it) and changes nothing.

A developer's checkout only: the installed package reads its catalogs
(bot.i18n.catalogs) and needs none of this.
"""

from __future__ import annotations

import io
import re
import string
import sys
import tomllib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, redirect_stderr
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_keywords
from babel.messages.pofile import read_po, write_po

from .catalogs import DOMAIN, LANGS

__all__ = ["Extracted", "check", "extract", "main", "placeholders", "update"]

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Extracted:
    """A key the code uses, whether it is plural, and where (for messages)."""

    key: str
    plural: bool
    where: str


def _settings() -> dict[str, object]:
    pyproject = ROOT / "pyproject.toml"
    if not pyproject.is_file():
        raise SystemExit("bot.i18n.tool works in a source checkout (no pyproject.toml here)")
    with pyproject.open("rb") as f:
        babel: dict[str, object] = tomllib.load(f)["tool"]["babel"]["extract_messages"]
    return babel


def _locale_dir() -> Path:
    return ROOT / "bot" / "locale"


@contextmanager
def _quiet_fstrings() -> Iterator[None]:
    """Babel warns of every f-string passed to a keyword function, also as a
    parameter (``t("key", lang, seed=f"{s}")``): harmless here, since a key
    that is an f-string is missing from the extraction and reported."""
    captured = io.StringIO()
    with redirect_stderr(captured):
        yield
    for line in captured.getvalue().splitlines():
        if "Skipping f-string" not in line:
            print(line, file=sys.stderr)


def extract() -> dict[str, Extracted]:
    """Every key the code under ``input-paths`` uses, as Babel extracts it."""
    settings = _settings()
    keywords = parse_keywords(str(settings["keywords"]).split())
    tags = [str(settings.get("add-comments", "TRANSLATORS:"))]
    found: dict[str, Extracted] = {}
    paths = settings.get("input-paths", ["bot"])
    assert isinstance(paths, list)
    for folder in paths:
        with _quiet_fstrings():
            messages = list(
                extract_from_dir(
                    ROOT / str(folder),
                    keywords=keywords,
                    comment_tags=tags,
                    strip_comment_tags=True,
                )
            )
        for filename, lineno, message, _comments, _context in messages:
            plural = isinstance(message, tuple)
            key = message[0] if isinstance(message, tuple) else message
            where = f"{folder}/{filename}:{lineno}"
            previous = found.get(key)
            found[key] = Extracted(key, plural or bool(previous and previous.plural), where)
    return found


def _read(lang: str) -> Catalog:
    with (_locale_dir() / lang / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


def _write(lang: str, catalog: Catalog) -> None:
    path = _locale_dir() / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    catalog.msgid_bugs_address = "Dragonball judge developers"  # Babel's default is a placeholder
    with path.open("wb") as f:
        write_po(f, catalog, width=0, sort_output=True, omit_header=False, ignore_obsolete=True)


_FIELD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def placeholders(text: str) -> frozenset[str]:
    """The ``{names}`` a template fills (format fields, not doubled braces)."""
    names = set()
    for _, field, _, _ in string.Formatter().parse(text):
        if field is not None:
            match = _FIELD.match(field)
            names.add(match.group(0) if match else field)
    return frozenset(names)


def _key(message: Message) -> str:
    return str(message.id[0] if isinstance(message.id, tuple | list) else message.id)


def _texts(message: Message) -> tuple[str, ...]:
    value = message.string
    items = value if isinstance(value, tuple | list) else (value,)
    return tuple(item or "" for item in items)


def _glued_hint(key: str, known: dict[str, Message]) -> str:
    """Babel reads ``t("a" if c else "b")`` as the one key "ab": say so."""
    for i in range(1, len(key)):
        if key[:i] in known and key[i:] in known:
            return f' (two keys in one call? write N_("{key[:i]}") if … else N_("{key[i:]}"))'
    return ""


def check() -> list[str]:
    """Everything out of step between the code and the catalogs (empty: all good)."""
    used = extract()
    problems: list[str] = []
    catalogs = {lang: _read(lang) for lang in LANGS}
    fields: dict[str, dict[str, frozenset[str]]] = {}
    for lang, catalog in catalogs.items():
        known = {_key(m): m for m in catalog if m.id}
        for key, use in sorted(used.items()):
            message = known.get(key)
            if message is None:
                hint = _glued_hint(key, known)
                problems.append(f"{lang}: {key!r} ({use.where}) is not in the catalog{hint}")
                continue
            if use.plural != message.pluralizable:
                kind = "plural (tn)" if use.plural else "singular (t)"
                problems.append(f"{lang}: {key!r} is used as {kind} but the catalog differs")
            texts = _texts(message)
            if not all(texts):
                problems.append(f"{lang}: {key!r} has no text")
            if message.fuzzy:
                problems.append(f"{lang}: {key!r} is marked fuzzy")
            found = frozenset().union(*(placeholders(x) for x in texts if x))
            fields.setdefault(key, {})[lang] = found
        for key in sorted(set(known) - set(used)):
            problems.append(f"{lang}: {key!r} is in the catalog but the code does not use it")
    for key, by_lang in sorted(fields.items()):
        if len(set(by_lang.values())) > 1:
            shown = "; ".join(f"{lang} {sorted(names)}" for lang, names in by_lang.items())
            problems.append(f"{key!r}: the languages fill different placeholders ({shown})")
    return problems


def update() -> list[str]:
    """Add the keys the code uses (empty texts), drop the unused; returns the changes."""
    used = extract()
    changes: list[str] = []
    for lang in LANGS:
        catalog = _read(lang)
        known = {_key(m) for m in catalog if m.id}
        for key in sorted(set(known) - set(used)):
            catalog.delete(key)
            changes.append(f"{lang}: removed {key!r}")
        for key in sorted(set(used) - known):
            plural = used[key].plural
            if plural:
                catalog.add((key, key), ("",) * catalog.num_plurals)
            else:
                catalog.add(key, "")
            changes.append(f"{lang}: added {key!r} ({used[key].where}): write its text")
        _write(lang, catalog)
    return changes


def _print(lines: Iterable[str]) -> int:
    count = 0
    for line in lines:
        print(line)
        count += 1
    return count


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args == ["update"]:
        _print(update())
        problems = check()
        _print(problems)
        return 1 if problems else 0
    if args == ["check"]:
        return 1 if _print(check()) else 0
    print("usage: python -m bot.i18n update | check", file=sys.stderr)
    return 2
