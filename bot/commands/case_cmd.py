"""``dragonball engine case FILE|DIR…``: run the case book.

Each case file (TOML, see docs/engine.md "The case book") is read here and
handed to the pure runner in :mod:`engine.cases`; one line is printed per
case and a summary at the end.  A directory is searched for ``*.toml``;
files whose name starts with ``_`` are not cases (``_sentences.toml`` is the
rule book's sentence list the quotes are checked against).
"""

from __future__ import annotations

import time
import tomllib
from dataclasses import dataclass
from pathlib import Path

import click

from engine.cases import Case, CaseError, load_case, run_case
from engine.cases.index import Sentence, check_quotes, parse_sentences, render_index

__all__ = ["case_cmd"]

SENTENCES = "_sentences.toml"


@dataclass
class _Book:
    cases: list[tuple[Path, Case]]
    errors: list[tuple[Path, str]]
    sentences: dict[Path, dict[str, Sentence]]  # by the directory holding the list


def _files(paths: tuple[Path, ...]) -> list[Path]:
    out: list[Path] = []
    for path in paths:
        if path.is_dir():
            out += sorted(p for p in path.rglob("*.toml") if not p.name.startswith("_"))
        elif path.is_file():
            out.append(path)
        else:
            raise click.ClickException(f"no such file or directory: {path}")
    return out


def _sentences_for(path: Path, book: _Book) -> dict[str, Sentence] | None:
    """The sentence list of the nearest directory above ``path`` that has one."""
    for folder in path.resolve().parents:
        if folder in book.sentences:
            return book.sentences[folder]
        listing = folder / SENTENCES
        if listing.is_file():
            doc = tomllib.loads(listing.read_text(encoding="utf-8"))
            book.sentences[folder] = {s.id: s for s in parse_sentences(doc)}
            return book.sentences[folder]
    return None


def _read(paths: tuple[Path, ...]) -> _Book:
    book = _Book([], [], {})
    seen: dict[str, Path] = {}
    for path in _files(paths):
        try:
            text = path.read_text(encoding="utf-8")
            # A case's default id is its section folder and file name: s04/held-on.
            name = f"{path.parent.name}/{path.stem}" if path.parent.name else path.stem
            case = load_case(text, name=name, source=str(path))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, CaseError) as exc:
            book.errors.append((path, str(exc)))
            continue
        if case.id in seen:
            book.errors.append((path, f"the id {case.id!r} is already the id of {seen[case.id]}"))
            continue
        seen[case.id] = path
        book.cases.append((path, case))
    return book


@click.command("case")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("-q", "--quiet", is_flag=True, help="Print only the failures and the summary.")
@click.option(
    "--index",
    "index_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also write the Markdown index (sentence → cases) to this file.",
)
def case_cmd(paths: tuple[Path, ...], quiet: bool, index_path: Path | None) -> None:
    """Run case-book cases and print PASS/FAIL with observed vs expected.

    Exit status 0 when every case passes, 1 otherwise.
    """
    start = time.perf_counter()
    book = _read(paths)
    failed = len(book.errors)
    for path, message in book.errors:
        click.echo(f"ERROR {path}: {message}")
    for path, case in book.cases:
        result = run_case(case)
        sentences = _sentences_for(path, book)
        quotes = [] if sentences is None else check_quotes(case, sentences)
        if result.passed and not quotes:
            if not quiet:
                click.echo(result.line())
            continue
        failed += 1
        click.echo(result.line() if not result.passed else f"FAIL {case.id}: {quotes[0]}")
        more = [*result.detail, *quotes] if not result.passed else quotes[1:]
        for detail in more:
            click.echo(f"    {detail}")
    total = len(book.cases) + len(book.errors)
    seconds = time.perf_counter() - start
    gaps = _gaps(book)
    summary = f"{total} cases: {total - failed} passed, {failed} failed ({seconds:.1f} s)"
    if gaps:
        summary += f"; sentences without a case: {', '.join(gaps)}"
    click.echo(summary)
    if index_path is not None:
        _write_index(book, index_path)
    if failed:
        raise click.exceptions.Exit(1)


def _gaps(book: _Book) -> list[str]:
    # Each rule book numbers its own sentences: a case covers those of the
    # book it lies in.
    covered = {
        (id(_sentences_for(path, book)), ref.sentence) for path, c in book.cases for ref in c.rules
    }
    many = len(book.sentences) > 1
    return [
        f"{folder.name} {s.id}" if many else s.id
        for folder, listing in book.sentences.items()
        for s in listing.values()
        if s.rule and (id(listing), s.id) not in covered and not s.tests
    ]


_TITLES = {
    "classic": "The case book (classic rules)",
    "variant-001": "The case book (the second edition, seed 001: ruleset variant-001)",
}


def _write_index(book: _Book, path: Path) -> None:
    if len(book.sentences) != 1:
        raise click.ClickException("--index needs the cases of one rule book (one _sentences.toml)")
    ((folder, listing),) = book.sentences.items()
    title = _TITLES.get(folder.name, f"The case book ({folder.name})")
    text = render_index(
        list(listing.values()),
        [c for _, c in book.cases],
        title,
        book=folder.name,
        index=f"docs/{path.name}",
    )
    path.write_text(text, encoding="utf-8")
